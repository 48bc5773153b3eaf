"""``rigforge import pcpartpicker FILE -o BUILD.json``: a PCPartPicker part list as a build.

FILE is the text of the list's Markdown (Reddit) or Text export (``-`` reads standard
input). The parts are matched to the catalog (``core.files.pcpartpicker``), the list's
prices kept as dated prices of the build's parts, and the build written as a RigForge
file (atomically).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.errors import RigForgeError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    pcpp = sub.add_parser(
        "pcpartpicker",
        help="a PCPartPicker part list (its Markdown/Reddit or Text export)",
        description="Read a PCPartPicker part list export and write a RigForge build file.",
    )
    pcpp.add_argument("file", help="the exported list's text file, or - for standard input")
    pcpp.add_argument("-o", "--output", type=Path, required=True, help="the build file to write")
    pcpp.add_argument("--name", help="the build's name (default: the list's link)")
    pcpp.add_argument("--json", action="store_true", help="print what matched as JSON")


def run(args: argparse.Namespace) -> int:
    import json

    from core.catalog import load_catalog
    from core.files.io import save_file
    from core.files.pcpartpicker import import_list, parse_list
    from core.files.safe_json import decode_text
    from core.files.safe_read import read_limited
    from core.models.session import Session
    from core.prices.currency import load_currency_table

    if args.file == "-":
        data = sys.stdin.buffer.read(2_000_001)
    else:
        data = read_limited(Path(args.file), 2_000_000)
    parsed = parse_list(decode_text(data))
    name = args.name or (
        f"PCPartPicker {parsed.url}" if parsed.url else "Imported from PCPartPicker"
    )
    result = import_list(parsed, load_catalog(), load_currency_table(), name=name[:200])
    if args.output.suffix.lower() != ".json":
        raise RigForgeError(f"{args.output}: write the build to a .json file")
    save_file(args.output, Session(builds=(result.build,)))
    rows = {
        "matched": [{"listed": i.name, "part": p.id} for i, p in result.matched],
        "custom": [{"listed": i.name, "part": p.id} for i, p in result.made],
        "left_out": [{"listed": i.name, "why": why} for i, why in result.left_out],
        "notices": result.notices,
        "output": str(args.output),
    }
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for item, part in result.matched:
        print(f"matched: {item.name} -> {part.name} ({part.id})")
    for item, part in result.made:
        print(f"custom part: {item.name} (not in the catalog; made from its name: {part.id})")
    for item, why in result.left_out:
        print(f"left out: {item.name} ({why})")
    for notice in result.notices:
        print(f"note: {notice}")
    print(f"wrote {args.output}")
    return 0
