"""``rigforge schema``: print the JSON Schema of the current file format."""

from __future__ import annotations

import argparse
import json

from core.files.document import json_schema

NAME = "schema"
HELP = "print the JSON Schema of RigForge build files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults()


def run(args: argparse.Namespace) -> int:
    print(json.dumps(json_schema(), indent=2))
    return 0
