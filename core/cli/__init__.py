"""Headless command line: ``rigforge <command> ...``.

Each command lives in its own module exposing ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Commands never import Qt;
the ones that need Qt (PDF export) are registered by ``gui.main``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from pydantic import ValidationError

from core.errors import RigForgeError, validation_message

COMMAND_MODULES: tuple[str, ...] = (
    "core.cli.memory",
    "core.cli.check",
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


def main(argv: Sequence[str] | None = None, extra_modules: Sequence[ModuleType] = ()) -> int:
    """Run one headless command; return its exit status."""
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
