"""``rigforge export FILE -o sheet.pdf``: the PDF build sheet, headless (offscreen Qt).

Registered by ``gui.main`` because it needs Qt; the figures are those the window
shows for the same file (the file's workload, else the app's default workload).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from core.cli.common import add_price_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a RigForge build or comparison file")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the PDF to write")
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size")
    parser.add_argument("--author", default="", help="name printed as 'Prepared by'")
    parser.add_argument(
        "--workload", help="workload preset (default: the file's workload, else the app's)"
    )
    add_price_arguments(parser)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from core.calc import analyze
    from core.cli.common import load_context
    from core.cli.options import workload_from
    from core.files.io import open_file
    from gui.pdf import export_sheet, sheet_from_analyses
    from gui.viewmodels.session import default_workload

    app = QApplication.instance() or QApplication([sys.argv[0]])
    context = load_context(args)
    session = open_file(args.file, context.catalog).session
    if args.workload:
        # the common recipe for the preset's task, as check, memory and predict use
        workload = workload_from(args)
        origin = "the --workload option"
    elif session.workload is not None:
        workload, origin = session.workload, "the file"
    else:
        workload, origin = default_workload(), "the app's default; the file names none"
    analyses = [
        analyze(b, workload, session.settings, context.catalog, cloud_rates=context.cloud_rates)
        for b in session.builds
    ]
    sheet = sheet_from_analyses(
        analyses,
        context.catalog,
        baseline=session.shown,
        title=session.title,
        notes=session.notes,
        author=args.author,
        workload_origin=origin,
        money=context.money,
        systems=_systems(session, workload),
    )
    export_sheet(args.output, sheet, args.paper)
    app.processEvents()
    print(f"wrote {args.output} ({len(sheet.builds)} build(s), {args.paper})")
    return 0


def _systems(session: Any, workload: Any) -> list[tuple[str, Any]]:
    """The file's prebuilt systems with their plans for ``workload`` (or why none)."""
    from core.calc.system import serve_plan

    return [(p.name, serve_plan(p, workload, session.settings)) for p in session.systems]
