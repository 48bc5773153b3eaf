"""``rigforge check``: every build check; exit status 1 when any check fails.

``--apply-fix CHECK_ID`` applies that check's fix (the same typed change the window's
*Apply fix* makes) and writes the file with the changed build.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from core.calc import analyze, apply_fix
from core.calc.verdict import worst_verdict
from core.catalog.builds import default_build
from core.cli.common import (
    Context,
    add_price_arguments,
    add_settings_arguments,
    load_context,
    settings_from,
)
from core.cli.figures import analysis_figures
from core.cli.options import workload_from
from core.cli.types import whole
from core.errors import RigForgeError
from core.files.io import open_file, save_file
from core.models.analysis import Analysis
from core.models.session import Session
from core.models.settings import AnalysisSettings
from core.text.checks import render_check, render_reason
from core.text.cost import cost_json, cost_lines
from core.text.fixes import fix_text
from core.text.verdict import build_verdict


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=Path, help="a RigForge build or comparison file")
    source.add_argument("--default", action="store_true", help="check the bundled default build")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    parser.add_argument(
        "--workload",
        help="workload preset to check against (default: the file's workload, if any)",
    )
    add_settings_arguments(parser)
    add_price_arguments(parser)
    parser.add_argument(
        "--apply-fix",
        metavar="CHECK_ID",
        help="apply this check's fix (e.g. power.psu) and write the changed file",
    )
    parser.add_argument(
        "--build",
        type=whole(1, 64),
        help="with --apply-fix: the build to change (1 = first; default all)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, help="with --apply-fix: where to write (default: FILE)"
    )


def read_builds(args: argparse.Namespace, context: Context) -> tuple[Session, tuple[str, ...]]:
    """The file's session (or the default build's) with the settings options applied."""
    if args.default:
        session = Session(builds=(default_build(context.catalog),))
        notices: tuple[str, ...] = ()
    else:
        opened = open_file(args.file, context.catalog)
        session, notices = opened.session, opened.notices
    settings = settings_from(args, session.settings if not args.default else AnalysisSettings())
    return session.model_copy(update={"settings": settings}), notices


def read_session(args: argparse.Namespace, context: Context) -> tuple[Session, tuple[str, ...]]:
    """The file's session (or the default build's), with the workload and settings options:
    ``--workload`` starts from its preset's common recipe, as ``predict``, ``memory``,
    ``suggest`` and the window do (``core.cli.options.workload_from``)."""
    session, notices = read_builds(args, context)
    if args.workload is not None:
        session = session.model_copy(update={"workload": workload_from(args)})
    return session, notices


def _analyse(session: Session, context: Context) -> list[Analysis]:
    return [
        analyze(
            build,
            session.workload,
            session.settings,
            context.catalog,
            cloud_rates=context.cloud_rates,
        )
        for build in session.builds
    ]


def run(args: argparse.Namespace) -> int:
    context = load_context(args)
    session, notices = read_session(args, context)
    analyses = _analyse(session, context)
    if args.apply_fix:
        return _apply_fix(args, session, analyses, context)
    verdict = worst_verdict(a.verdict for a in analyses)
    if args.json:
        out: dict[str, Any] = {
            "verdict": verdict,
            "workload": session.workload.name if session.workload else None,
            "notices": list(notices),
            "currency": context.money.currency,
            "money_note": context.money.note(),
            "builds": [_build_json(a, context) for a in analyses],
            "systems": [_system_json(plan, session) for plan in session.systems],
        }
        print(json.dumps(out, indent=2))
    else:
        for notice in notices:
            print(f"note: {notice}")
        for analysis in analyses:
            print(f"{analysis.build.name}: {analysis.verdict.upper()}")
            for check in analysis.checks:
                print(render_check(check))
            for line in cost_lines(analysis.cost, context.money):
                print(f"  {line}")
        for plan in session.systems:
            print(_system_text(plan, session))
        if context.money.note():
            print(context.money.note())
    return 0 if verdict == "pass" else 1


def _system_plan(plan: Any, session: Session) -> Any:
    from core.calc.system import serve_plan

    return serve_plan(plan, session.workload, session.settings)


def _system_json(plan: Any, session: Session) -> dict[str, Any]:
    """``predict --system --json``'s keys for a prebuilt system of the file, or its note."""
    from core.cli.figures import system_figures

    served = _system_plan(plan, session)
    if isinstance(served, str):
        return {"name": plan.name, "system": plan.system.id, "nodes": plan.nodes, "note": served}
    assert session.workload is not None
    return {"name": plan.name, **system_figures(served, session.workload)}


def _system_text(plan: Any, session: Session) -> str:
    from core.text.systems import SYSTEM_COLUMNS, system_row

    served = _system_plan(plan, session)
    if isinstance(served, str):
        return f"{plan.name}: {served}"
    cells = system_row(plan.name, served)
    pairs = zip(SYSTEM_COLUMNS[1:], cells[1:], strict=True)
    return f"{plan.name} (prebuilt): " + "; ".join(f"{k.lower()} {v}" for k, v in pairs if v)


def _build_json(a: Analysis, context: Context) -> dict[str, Any]:
    return {
        "build": a.build.name,
        "verdict": a.verdict,
        "verdict_text": build_verdict(a).text,
        "checks": [
            c.model_dump()
            | {"text": render_reason(c), "fix_text": fix_text(c.fix) if c.fix else None}
            for c in a.checks
        ],
        "cost": cost_json(a.cost, context.money),
        "wall_w": a.power.wall_w,
        "throughput": None
        if a.throughput is None
        else {"total": a.throughput.total_throughput, "unit": a.throughput.unit},
        **analysis_figures(a),
    }


def _apply_fix(
    args: argparse.Namespace, session: Session, analyses: list[Analysis], context: Context
) -> int:
    if args.default and args.output is None:
        raise RigForgeError("--apply-fix on the default build needs -o FILE to write to")
    indices = range(len(analyses)) if args.build is None else [args.build - 1]
    if any(not 0 <= i < len(analyses) for i in indices):
        raise RigForgeError(f"--build must be between 1 and {len(analyses)}")
    builds = list(session.builds)
    workload = session.workload
    applied = 0
    for index in indices:
        check = analyses[index].check(args.apply_fix)
        name = analyses[index].build.name
        if check is None:
            print(f"{name}: no check {args.apply_fix!r}")
            continue
        if check.fix is None or not check.fix.applicable or check.severity == "pass":
            print(f"{name}: {args.apply_fix} has no fix to apply ({check.severity})")
            continue
        builds[index], workload = apply_fix(builds[index], workload, check.fix, context.catalog)
        print(f"{name}: applied {fix_text(check.fix)}")
        applied += 1
    if not applied:
        return 1
    changed = session.model_copy(update={"builds": tuple(builds), "workload": workload})
    output: Path = args.output or args.file
    save_file(output, changed)
    after = _analyse(changed, context)
    for analysis in after:
        print(f"{analysis.build.name}: now {analysis.verdict.upper()}")
    print(f"wrote {output}")
    return 0 if all(a.verdict == "pass" for a in after) else 1
