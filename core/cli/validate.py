"""``rigforge validate``: the performance model's error report on a calibration CSV."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.calc.performance.constants import FITTED
from core.errors import FileFormatError
from core.text.throughput import report_lines
from core.validation.calibration import REQUIRED_COLUMNS, load_rows, read_rows
from core.validation.report import build_report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "csv",
        nargs="?",
        type=Path,
        help="CSV with the columns of throughput_calibration.csv, llm_inference_calibration.csv, "
        "training_modern_calibration.csv, vision_inference_calibration.csv or "
        "llm_finetune_memory_calibration.csv",
    )
    parser.add_argument("--no-tf32", action="store_true", help="fp32 rows stay on CUDA cores")
    parser.add_argument("--json", action="store_true", help="one JSON object with per-row details")


PROGRESS_LINES = 5_000
"""Files of more lines than this report their progress on standard error."""
PROGRESS_SECONDS = 1.0
"""At most one progress line this often."""


def progress_printer(text: str) -> Callable[[int, int], None] | None:
    """A progress reporter for a long file (``None`` for a short one): one line on
    standard error at the first report and then at most every ``PROGRESS_SECONDS``,
    "rows done of rows in all"."""
    if text.count("\n") <= PROGRESS_LINES:
        return None
    last = [-math.inf]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_SECONDS:
            return
        last[0] = now
        of = f" of {total:,}" if total > 0 else ""
        print(f"rigforge validate: {done:,}{of} rows predicted", file=sys.stderr, flush=True)

    return report


def _clean(value: Any) -> Any:
    """NaN (a Spearman over fewer than 3 rows) and infinities become null so the JSON
    stays valid."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def run(args: argparse.Namespace) -> int:
    from core.catalog import load_catalog

    if args.csv is not None:
        from core.files.safe_json import decode_text
        from core.files.safe_read import read_limited
        from core.validation.inference import MAX_BYTES, is_fit_verdict_file, is_inference_file

        try:
            text = decode_text(read_limited(args.csv, MAX_BYTES))
        except FileFormatError as error:
            raise FileFormatError(f"{args.csv.name}: {error}") from None
        progress = progress_printer(text)
        if is_inference_file(text):
            return _inference(args, text, load_catalog(), progress)
        if is_fit_verdict_file(text):
            return _fit_verdicts(args, text, load_catalog(), progress)
        from core.validation.csv_rows import first_line
        from core.validation.modern import file_kind

        if file_kind(text) is not None:
            return _modern(args, text, load_catalog(), progress)
        first = first_line(text)
        if not any(column in first.split(",") for column in REQUIRED_COLUMNS):
            raise FileFormatError(
                f"{args.csv.name}: its header fits none of the measurement files RigForge "
                "reads (Lambda/DLE throughput, LLM serving, LLM fit verdicts, today's "
                "training stacks, vision inference, fine-tuning memory; "
                "resources/benchmarks/README.md describes each)"
            )
    rows, progress = (read_rows(text), progress) if args.csv is not None else (load_rows(), None)
    report = build_report(
        rows, load_catalog(), FITTED, allow_tf32=not args.no_tf32, progress=progress
    )
    if args.json:
        print(json.dumps(_clean(report)))
    else:
        print("\n".join(report_lines(report)))
    return 0


def _printed_json(args: argparse.Namespace, result: dict[str, Any]) -> bool:
    """Print ``result`` as JSON when ``--json`` asks for it."""
    if args.json:
        print(json.dumps(_clean(result)))
    return bool(args.json)


def _print_head(result: dict[str, Any], head: str) -> None:
    """The first lines of a text report: ``head`` filled with the resolved and total rows,
    then each reason rows were not resolved."""
    print(head.format(result["resolved"], result["rows"]))
    for reason, count in result["unresolved"].items():
        print(f"  not resolved ({count}): {reason}")


Progress = Callable[[int, int], None] | None


def _modern(args: argparse.Namespace, text: str, catalog: Any, progress: Progress) -> int:
    """Training, vision-inference or fine-tuning memory rows of today's stacks."""
    from core.validation.modern import report

    result = report(text, catalog, progress)
    if _printed_json(args, result):
        return 0
    _print_head(result, f"{result['kind'].replace('_', ' ')}: {{}} of {{}} rows")

    def line(name: str, summary: dict[str, Any]) -> str:
        parts = [f"{summary['resolved']} of {summary['rows']} rows resolved"]
        if summary["compared"]:
            parts.append(
                f"{summary['compared']} compared, median error "
                f"{summary['median_abs_pct_error']:.1f} %, median predicted / measured "
                f"{summary['median_ratio']:.2f}"
            )
        if summary.get("fit_agreement") is not None:
            parts.append(
                f"fit verdicts right: {summary['fit_agreement']:.0%} of {summary['fit_rows']}"
            )
        return f"{name}: " + "; ".join(parts)

    print(line("all", result))
    for source, summary in result["by_source"].items():
        print("  " + line(source, summary))
    return 0


def _fit_verdicts(args: argparse.Namespace, text: str, catalog: Any, progress: Progress) -> int:
    """Published ran / out-of-memory cells of LLM serving (llm_inference_fit_published.csv)."""
    from core.validation.inference import fit_verdict_report

    result = fit_verdict_report(text, catalog, progress)
    if _printed_json(args, result):
        return 0
    _print_head(result, "{} of {} ran / out-of-memory cells resolved")
    if result["fit_agreement"] is not None:
        print(
            f"fit verdicts right: {result['fit_agreement']:.1%}; cells that ran but are "
            f"predicted not to fit: {result['ran_predicted_oom']}"
        )
    for cell in result["disagree"]:
        print(
            f"  line {cell['line']}: {cell['gpu_count']}x {cell['gpu']} {cell['model']} "
            f"{cell['weights']} at {cell['context']:,} tokens: published {cell['published']}, "
            f"predicted {cell['predicted']}"
        )
    return 0


def _inference(args: argparse.Namespace, text: str, catalog: Any, progress: Progress) -> int:
    """LLM serving rows (the header of llm_inference_calibration.csv)."""
    from core.validation.inference import read_inference_rows, report

    result = report(read_inference_rows(text), catalog, progress=progress)
    if _printed_json(args, result):
        return 0
    _print_head(result, "{} of {} rows resolved")
    for metric, summary in result["by_metric"].items():
        if not summary["rows"]:
            continue
        rho = summary["spearman_min"]
        median = summary["median_abs_pct_error"]
        print(
            f"{metric}: {summary['rows']} rows, median error {median:.1f} %,"
            f" 90th percentile {summary['p90_abs_pct_error']:.1f} %, smallest Spearman "
            + ("n/a" if rho is None else f"{rho:.2f}")
            + f" over {summary['groups']} group(s)"
        )
    return 0
