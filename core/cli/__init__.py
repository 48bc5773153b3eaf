"""Headless command line: ``rigforge <command> ...``.

``COMMANDS`` names each command, its help and the module that implements it; a module
exposes ``add_arguments(parser)`` and ``run(args) -> int``. Only the module of the
command being run is imported (``build_parser``), so one answer does not pay for every
command's imports. Commands never import Qt; the ones that need Qt (PDF export) are
added by ``gui.main``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Command:
    name: str
    module: str
    help: str


COMMANDS: tuple[Command, ...] = (
    Command(
        "memory",
        "core.cli.memory",
        "Will the workload fit? VRAM breakdown per GPU, the largest batch and fixes.",
    ),
    Command(
        "check",
        "core.cli.check",
        "Check a build: power, PCIe lanes, physical fit, compatibility, host resources.",
    ),
    Command(
        "fix",
        "core.cli.fix",
        "Make a build work: the cheapest combined change (keeping its GPUs) that passes.",
    ),
    Command(
        "validate",
        "core.cli.validate",
        "Check predicted throughput against published measurements (default: bundled set).",
    ),
    Command(
        "predict",
        "core.cli.predict",
        "Throughput, step-time breakdown, bottleneck and 1..N scaling for one configuration, "
        "on GPUs you name or on a build file's machine.",
    ),
    Command(
        "convert",
        "core.cli.convert",
        "Upgrade a RigForge file to a newer format version (written atomically).",
    ),
    Command(
        "schema",
        "core.cli.schema",
        "Print the JSON Schema of RigForge build files (or of price feeds).",
    ),
    Command(
        "suggest",
        "core.cli.suggest",
        "Search the catalog for the builds with the best cost per throughput within a budget.",
    ),
    Command(
        "import",
        "core.cli.import_",
        "Make a build file from a PCPartPicker part list (its Markdown or Text export).",
    ),
    Command(
        "prices",
        "core.cli.prices",
        "Update part prices from a JSON price feed, show them, or override one part's price.",
    ),
)
"""The headless commands, in the order ``--help`` lists them."""


def command_names() -> tuple[str, ...]:
    return tuple(c.name for c in COMMANDS)


def build_parser(
    extra: Sequence[Command] = (), argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    """The parser; only the command ``argv`` runs (its first word) gets its options, and
    only its module is imported. Without ``argv`` every command is complete."""
    from core import __version__

    parser = argparse.ArgumentParser(
        prog="rigforge",
        description="Plan, check and compare deep-learning workstations.",
    )
    parser.add_argument("--version", action="version", version=f"RigForge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in argv or () if not a.startswith("-")), None)
    for command in (*COMMANDS, *extra):
        sub_parser = sub.add_parser(command.name, help=command.help, description=command.help)
        if argv is not None and command.name != chosen:
            continue
        module = importlib.import_module(command.module)
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(run=module.run)
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


def main(argv: Sequence[str] | None = None, extra: Sequence[Command] = ()) -> int:
    """Run one headless command; return its exit status. Text it prints never carries
    control characters from the files it read (``_Printable``); a reader that stops
    early (``rigforge validate | head``) ends it quietly."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(out), _Printable(err)
    try:
        return _main(list(sys.argv[1:] if argv is None else argv), extra)
    except BrokenPipeError:
        # no second error when Python flushes the closed pipe at exit
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return 1
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str], extra: Sequence[Command]) -> int:
    args = build_parser(extra, argv).parse_args(argv)
    if args.command is None:
        build_parser(extra, argv).print_help()
        return 2
    from pydantic import ValidationError

    from core.errors import RigForgeError, validation_message

    try:
        status: int = args.run(args)
    except RigForgeError as error:
        print(f"rigforge {args.command}: {error}", file=sys.stderr)
        return 2
    except ValidationError as error:  # a value the models refuse, named in words
        print(f"rigforge {args.command}: {validation_message(error)}", file=sys.stderr)
        return 2
    return status
