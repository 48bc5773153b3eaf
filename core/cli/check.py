"""``rigforge check``: every build check; exit status 1 when any check fails."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, get_args

from core.calc.analysis import analyze
from core.catalog import Catalog, load_catalog
from core.catalog.builds import default_build
from core.errors import RigForgeError
from core.files.io import OpenedFile, open_file
from core.models.checks import worst
from core.models.settings import AnalysisSettings, CircuitId
from core.models.workload import Workload
from core.text.checks import render_check, render_fix, render_reason
from core.workloads import find_preset, make_workload

NAME = "check"
HELP = "Check a build: power, PCIe lanes, physical fit, compatibility, host resources."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=Path, help="a RigForge build or comparison file")
    source.add_argument("--default", action="store_true", help="check the bundled default build")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    parser.add_argument(
        "--workload",
        help="workload preset to check against (default: the file's workload, if any)",
    )
    parser.add_argument(
        "--region",
        choices=get_args(CircuitId),
        default="us-120v-15a",
        help="mains circuit the machine plugs into",
    )
    parser.add_argument(
        "--utilization",
        type=float,
        default=0.5,
        help="share of the year at full load, 0-1 (default 0.5)",
    )
    parser.add_argument(
        "--electricity-price",
        type=float,
        default=AnalysisSettings().electricity_usd_per_kwh,
        help="electricity price per kWh in USD (default: US residential average, EIA 2024)",
    )


def read_builds(path: Path, catalog: Catalog) -> OpenedFile:
    """The one place a build file is read: a RigForge file of any supported version."""
    return open_file(path, catalog)


def _workload(name: str | None, opened: OpenedFile | None) -> Workload | None:
    if name is not None:
        return make_workload(find_preset(name))
    return opened.workload if opened is not None else None


def run(args: argparse.Namespace) -> int:
    try:
        settings = AnalysisSettings(
            circuit=args.region,
            utilization=args.utilization,
            electricity_usd_per_kwh=args.electricity_price,
        )
    except ValueError as error:
        raise RigForgeError(f"invalid option: {error}") from None
    catalog = load_catalog()
    opened = None if args.default else read_builds(args.file, catalog)
    builds = (default_build(catalog),) if opened is None else opened.builds
    workload = _workload(args.workload, opened)
    analyses = [analyze(build, workload, settings, catalog) for build in builds]
    verdict = worst(tuple(c for a in analyses for c in a.checks))
    if args.json:
        out: dict[str, Any] = {
            "verdict": verdict,
            "workload": workload.name if workload else None,
            "notices": list(opened.notices) if opened else [],
            "builds": [
                {
                    "build": a.build.name,
                    "verdict": a.verdict,
                    "checks": [
                        c.model_dump()
                        | {
                            "text": render_reason(c),
                            "fix_text": render_fix(c.fix) if c.fix else None,
                        }
                        for c in a.checks
                    ],
                }
                for a in analyses
            ],
        }
        print(json.dumps(out, indent=2))
    else:
        for notice in opened.notices if opened else ():
            print(f"note: {notice}")
        for analysis in analyses:
            print(f"{analysis.build.name}: {analysis.verdict.upper()}")
            for check in analysis.checks:
                print(render_check(check))
    return 1 if verdict == "fail" else 0
