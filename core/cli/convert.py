"""``rigforge convert FILE --to-version N``: rewrite a file in a newer format version.

Older files are upgraded step by step (``core.files.migrate``), parts are
resolved against the catalog and written with snapshots, so the result opens
the same with any later catalog. Files are never converted to older versions.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from core.cli.types import whole
from core.errors import RigForgeError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the RigForge file to convert")
    parser.add_argument("--to-version", type=whole(1, 99), required=True, metavar="N")
    parser.add_argument(
        "-o", "--output", type=Path, help="where to write the result (default: replace FILE)"
    )


def run(args: argparse.Namespace) -> int:
    from core.files.document import CURRENT_VERSION
    from core.files.io import open_file, save_file
    from core.prices.store import load_priced_catalog

    target: int = args.to_version
    if target != CURRENT_VERSION:
        raise RigForgeError(
            f"this RigForge writes format version {CURRENT_VERSION} only, not {target}"
        )
    opened = open_file(args.file, load_priced_catalog())
    output: Path = args.output or args.file
    save_file(output, opened.session)
    print(f"{args.file.name}: version {opened.original_version} -> {target}, wrote {output}")
    for notice in opened.notices:
        print(f"note: {notice}")
    return 0
