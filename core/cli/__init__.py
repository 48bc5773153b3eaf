"""Headless command line: ``rigforge <command> ...``.

Each command lives in its own module exposing ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Commands never import Qt;
the ones that need Qt (PDF export) are registered by ``gui.main``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from pydantic import ValidationError

from core.errors import RigForgeError, validation_message

COMMAND_MODULES: tuple[str, ...] = (
    "core.cli.memory",
    "core.cli.check",
    "core.cli.fix",
    "core.cli.validate",
    "core.cli.predict",
    "core.cli.convert",
    "core.cli.schema",
    "core.cli.suggest",
    "core.cli.prices",
)
"""Modules of the headless commands, in the order ``--help`` lists them."""


def command_names() -> tuple[str, ...]:
    return tuple(module.rsplit(".", 1)[1] for module in COMMAND_MODULES)


def build_parser(extra_modules: Sequence[ModuleType] = ()) -> argparse.ArgumentParser:
    from core import __version__

    parser = argparse.ArgumentParser(
        prog="rigforge",
        description="Plan, check and compare deep-learning workstations.",
    )
    parser.add_argument("--version", action="version", version=f"RigForge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in [*(importlib.import_module(name) for name in COMMAND_MODULES), *extra_modules]:
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""Bidirectional formatting characters (Unicode UAX #9: ALM, LRM, RLM, the embeddings and
overrides U+202A-U+202E, the isolates U+2066-U+2069): they reorder what a terminal shows
around them ("Trojan Source", CVE-2021-42574)."""
_CONTROLS = (
    {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0)) if code != 0x0A}
    | {0x09: "\t"}
    | {code: f"\\u{code:04x}" for code in _BIDI}
)
"""Control characters other than newline and tab, and bidirectional formatting
characters, shown as escapes: a build name or a feed's source text must not move the
cursor, recolour, retitle or reorder the user's terminal."""


class _Printable(io.TextIOBase):
    """A text stream that writes what it is given with control characters escaped."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(text.translate(_CONTROLS))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def writable(self) -> bool:
        return True


def main(argv: Sequence[str] | None = None, extra_modules: Sequence[ModuleType] = ()) -> int:
    """Run one headless command; return its exit status. Text it prints never carries
    control characters from the files it read (``_Printable``); a reader that stops
    early (``rigforge validate | head``) ends it quietly."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(out), _Printable(err)
    try:
        return _main(argv, extra_modules)
    except BrokenPipeError:
        # no second error when Python flushes the closed pipe at exit
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return 1
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: Sequence[str] | None, extra_modules: Sequence[ModuleType]) -> int:
    args = build_parser(extra_modules).parse_args(argv)
    if args.command is None:
        build_parser(extra_modules).print_help()
        return 2
    try:
        status: int = args.run(args)
    except RigForgeError as error:
        print(f"rigforge {args.command}: {error}", file=sys.stderr)
        return 2
    except ValidationError as error:  # a value the models refuse, named in words
        print(f"rigforge {args.command}: {validation_message(error)}", file=sys.stderr)
        return 2
    return status
