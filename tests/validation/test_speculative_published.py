"""Speculative decoding against published speed-ups (``llm_speculative_published.csv``):
every row is read or says why not, and the one constant the rows fit
(``verify_token_share``) predicts each source from the others within the goal."""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

from core.calc.inference.constants import FITTED
from tools.fit.check_serving_2026 import leave_one_source_out, speculative_rows

CSV = Path(__file__).resolve().parents[2] / "resources/benchmarks/llm_speculative_published.csv"


def _error(predicted: float, measured: float) -> float:
    return abs(100.0 * (predicted / measured - 1.0))


def test_every_row_is_read_or_says_why_not() -> None:
    with CSV.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        read = bool(row["rigforge_gpu"] or row["rigforge_system"])
        assert read or row["rigforge_note"].startswith("not resolved: "), row["source_ref"]
        if read:
            assert row["rigforge_model"] and row["rigforge_weights"], row["source_ref"]
    read_rows = speculative_rows()
    assert len(read_rows) == sum(bool(r["rigforge_gpu"] or r["rigforge_system"]) for r in rows)
    assert len({source for _label, source, _p, _m in read_rows}) >= 5


def test_each_source_is_predicted_from_the_others_within_the_goal() -> None:
    """The issue's goal: speculative decoding within 20 % median error on runs the
    constant was not fitted to (here each source in turn)."""
    held = leave_one_source_out()
    assert statistics.median(_error(p, m) for _l, _s, p, m in held) <= 20.0


def test_the_shipped_share_is_the_fit_on_every_source() -> None:
    """0.34 is the fit on all rows (a 0.02 grid), and a well-accepted draft of a 72B
    target on the M4 Max (accepted 83-84 % of the time) speeds it up, as measured."""
    assert FITTED.engines["llama.cpp"].verify_token_share == 0.34
    rows = speculative_rows()
    assert statistics.median(_error(p, m) for _l, _s, p, m in rows) <= 15.0
    m4 = {label: p for label, _s, p, _m in rows if "M4 Max" in label and "72B" in label}
    assert all(p > 1.0 for p in m4.values())
