"""``rigforge fix``: one plan that makes a build work, written as a new file.

It keeps the build's GPUs and searches combined changes (platform, memory, case and
risers, PSU model and count, a GPU power limit) for the cheapest build that passes every
check (``core.calc.fixplan``); each change is listed with what it costs and which checks
it answers. Exit status 0 when a plan was written, 1 when no build of the catalog passes
(the checks that still fail on the closest one are named), 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from core.cli.check import read_session
from core.cli.common import add_price_arguments, add_settings_arguments, load_context
from core.cli.types import whole
from core.errors import RigForgeError
from core.files.io import save_file
from core.text.checks import render_reason
from core.text.fixplan import plan_lines
from core.text.money import Money


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=Path, help="a RigForge build or comparison file")
    source.add_argument("--default", action="store_true", help="plan for the bundled default build")
    parser.add_argument(
        "--workload", help="workload preset to judge against (default: the file's workload)"
    )
    parser.add_argument(
        "--build", type=whole(1, 64), default=1, help="which build of a comparison (1 = first)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True, help="where to write the fixed file"
    )
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")
    add_settings_arguments(parser)
    add_price_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from core.calc.fixplan import plan_fix

    context = load_context(args)
    session, _notices = read_session(args, context)
    if not 1 <= args.build <= len(session.builds):
        raise RigForgeError(f"--build must be between 1 and {len(session.builds)}")
    index = args.build - 1
    plan = plan_fix(
        session.builds[index],
        session.workload,
        session.settings,
        context.catalog,
        cloud_rates=context.cloud_rates,
    )
    money = context.money
    if plan.after is None:
        return _blocked(args, plan, money)
    builds = list(session.builds)
    builds[index] = plan.after.build
    save_file(args.output, session.model_copy(update={"builds": tuple(builds), "shown": index}))
    if args.json:
        print(json.dumps(_plan_json(plan, str(args.output)), indent=2))
        return 0
    print("\n".join(plan_lines(plan, money)))
    print(f"wrote {args.output}")
    return 0


def _blocked(args: argparse.Namespace, plan: Any, money: Money) -> int:
    near = plan.closest
    checks = [c for c in near.checks if c.id in plan.blocked_by] if near is not None else []
    if args.json:
        out = {
            "found": False,
            "analysed": plan.analysed,
            "blocked_by": [
                {"id": c.id, "severity": c.severity, "text": render_reason(c)} for c in checks
            ],
        }
        print(json.dumps(out, indent=2))
        return 1
    print("\n".join(plan_lines(plan, money)))
    return 1


def _plan_json(plan: Any, output: str) -> dict[str, Any]:
    return {
        "found": True,
        "output": output,
        "verdict_before": plan.before.verdict,
        "verdict_after": plan.after.verdict,
        "changes": [
            {
                "field": c.field,
                "before": c.before,
                "after": c.after,
                "usd_delta": c.usd_delta,
                "mends": list(c.mends),
            }
            for c in plan.changes
        ],
        "cost_delta_usd": plan.cost_delta_usd,
        "throughput_delta_pct": plan.throughput_delta_pct,
        "analysed": plan.analysed,
    }
