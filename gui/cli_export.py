"""``rigforge export FILE -o sheet.pdf``: the PDF build sheet, headless (offscreen Qt).

Registered by ``gui.main`` because it needs Qt; the figures are those the window
shows for the same file (the file's workload, else the app's default workload).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

NAME = "export"
HELP = "Export a build or comparison file as a PDF build sheet."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a RigForge build or comparison file")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the PDF to write")
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size")
    parser.add_argument("--author", default="", help="name printed as 'Prepared by'")
    parser.add_argument(
        "--workload", help="workload preset (default: the file's workload, else the app's)"
    )


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from core.catalog import load_catalog
    from core.files.io import open_file
    from core.workloads import find_preset, make_workload
    from gui.pdf import export_sheet, sheet_from_builds
    from gui.viewmodels.analysis import default_workload

    app = QApplication.instance() or QApplication([sys.argv[0]])
    catalog = load_catalog()
    opened = open_file(args.file, catalog)
    if args.workload:
        workload, origin = make_workload(find_preset(args.workload)), "the --workload option"
    elif opened.workload is not None:
        workload, origin = opened.workload, "the file"
    else:
        workload, origin = default_workload(), "the app's default; the file names none"
    sheet = sheet_from_builds(
        opened.builds,
        workload,
        opened.settings,
        catalog,
        baseline=opened.baseline,
        title=opened.title,
        notes=opened.notes,
        author=args.author,
        workload_origin=origin,
    )
    export_sheet(args.output, sheet, args.paper)
    app.processEvents()
    print(f"wrote {args.output} ({len(sheet.builds)} build(s), {args.paper})")
    return 0
