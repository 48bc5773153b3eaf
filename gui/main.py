"""``rigforge`` entry point: headless commands, or the desktop window.

Qt is imported only when the window is wanted, so the CLI starts fast and
works on machines without a display stack.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from core.cli import Command, command_names

    qt_commands = (  # commands that need Qt (PDF)
        Command(
            "export", "gui.cli_export", "Export a build or comparison file as a PDF build sheet."
        ),
    )
    if args and (
        args[0] in command_names()
        or args[0] in {c.name for c in qt_commands}
        or args[0] in ("-h", "--help", "--version")
    ):
        from core.cli import main as cli_main

        return cli_main(args, extra=qt_commands)
    parser = argparse.ArgumentParser(prog="rigforge", add_help=False)
    parser.add_argument("file", nargs="?")
    parser.add_argument("--selftest", action="store_true")
    # Hidden: quit right after the main window first paints (benchmarks/bench_startup.py).
    parser.add_argument("--selftest-first-paint", action="store_true", help=argparse.SUPPRESS)
    # Hidden: quit right after the full main window first paints (the same benchmark).
    parser.add_argument("--selftest-ready", action="store_true", help=argparse.SUPPRESS)
    options, qt_args = parser.parse_known_args(args)
    if options.selftest:
        from gui.selftest import run_selftest

        return run_selftest(qt_args)
    from gui.startup import exit_after_paint, run

    if options.selftest_first_paint or options.selftest_ready:
        exit_after_paint(qt_args, ready=options.selftest_ready)
    return run(options.file, qt_args)


if __name__ == "__main__":
    raise SystemExit(main())
