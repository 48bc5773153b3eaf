"""``rigforge check``: every build check; exit status 1 when any check fails."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, get_args

from core.calc.checks import run_checks
from core.catalog import Catalog, load_catalog
from core.catalog.builds import build_from_ids, default_build
from core.errors import RigForgeError
from core.models.build import Build
from core.models.checks import worst
from core.models.settings import AnalysisSettings, CircuitId
from core.text.checks import render_check, render_fix, render_reason

NAME = "check"
HELP = "Check a build: power, PCIe lanes, physical fit, compatibility, host resources."
MAX_BUILD_FILE_BYTES = 1_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=Path, help="JSON build spec of catalog ids")
    source.add_argument("--default", action="store_true", help="check the bundled default build")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
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
        default=0.15,
        help="electricity price per kWh in USD (default 0.15)",
    )


def read_build(path: Path, catalog: Catalog) -> Build:
    """The one place a build file is read (today: a spec of catalog ids)."""
    try:
        if path.stat().st_size > MAX_BUILD_FILE_BYTES:
            raise RigForgeError(f"{path}: larger than {MAX_BUILD_FILE_BYTES} bytes")
        spec = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise RigForgeError(f"{path}: cannot read ({error.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RigForgeError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(spec, dict):
        raise RigForgeError(f"{path}: expected a JSON object of part ids")
    return build_from_ids(catalog, spec)


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
    build = default_build(catalog) if args.default else read_build(args.file, catalog)
    checks = run_checks(build, settings, catalog=catalog)
    verdict = worst(checks)
    if args.json:
        out: dict[str, Any] = {
            "build": build.name,
            "verdict": verdict,
            "checks": [
                c.model_dump()
                | {
                    "text": render_reason(c),
                    "fix_text": render_fix(c.fix) if c.fix else None,
                }
                for c in checks
            ],
        }
        print(json.dumps(out, indent=2))
    else:
        print(f"{build.name}: {verdict.upper()}")
        for check in checks:
            print(render_check(check))
    return 1 if verdict == "fail" else 0
