"""A memory fix says what it costs in speed: full checkpointing runs the forward again."""

from __future__ import annotations

from core.calc import analyze
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.settings import AnalysisSettings
from core.text.fixes import fix_text
from core.workloads import find_preset, make_workload


def test_checkpointing_fix_names_its_throughput_cost() -> None:
    catalog = load_catalog()
    build = default_build(catalog)
    workload = make_workload(
        find_preset("GPT-2 XL"), task="training", precision="bf16", batch_size=16
    )
    a = analyze(build, workload, AnalysisSettings(), catalog)
    assert a.vram is not None and not a.vram.fits
    fix = next(f for f in a.vram.fixes if f.workload.get("checkpointing") == "full")
    # training = forward + backward = 3 forward-equivalents; recomputing the forward adds
    # one: at most 1 - 3/4 = 25 % slower where compute dominates, less where the
    # optimizer step, communication or dispatch (not recomputed) take part of the step
    pct = fix.numbers["throughput_pct"]
    assert isinstance(pct, int | float) and -25 <= pct < 0
    assert f"−{abs(pct):.0f} % throughput" in fix_text(fix)
