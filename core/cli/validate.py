"""``rigforge validate``: the performance model's error report on a calibration CSV."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from core.calc.performance.constants import FITTED
from core.text.throughput import report_lines
from core.validation.calibration import load_rows
from core.validation.report import build_report

NAME = "validate"
HELP = "Check predicted throughput against published measurements (default: bundled set)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "csv", nargs="?", type=Path, help="CSV with the columns of throughput_calibration.csv"
    )
    parser.add_argument("--no-tf32", action="store_true", help="fp32 rows stay on CUDA cores")
    parser.add_argument("--json", action="store_true", help="one JSON object with per-row details")


def _clean(value: Any) -> Any:
    """NaN (a Spearman over fewer than 3 rows) becomes null so the JSON stays valid."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def run(args: argparse.Namespace) -> int:
    from core.catalog import load_catalog

    report = build_report(load_rows(args.csv), load_catalog(), FITTED, allow_tf32=not args.no_tf32)
    if args.json:
        print(json.dumps(_clean(report)))
    else:
        print("\n".join(report_lines(report)))
    return 0
