"""Prebuilt systems beside the builds: the session, the file, Compare, the sheet, Suggest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.calc.inference.serve import fit_by_offloading
from core.calc.suggest.search import system_picks
from core.catalog import load_catalog
from core.files.io import open_file, save_file
from core.models.settings import AnalysisSettings
from core.models.suggest import SuggestRequest
from core.models.workload import Serving
from core.workloads import find_preset, make_workload
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.comparison import ComparisonViewModel
from gui.viewmodels.session import SessionViewModel

EXAMPLE = Path(__file__).parents[3] / "resources" / "examples" / "local-llm-2026.json"


@pytest.fixture
def session_vm(qapp: object) -> SessionViewModel:
    catalog = load_catalog()
    return SessionViewModel(catalog, open_file(EXAMPLE, catalog).session)


def test_the_example_compares_builds_and_three_systems(session_vm: SessionViewModel) -> None:
    """Llama 3.3 70B Q4_K_M (about 40 GiB of weights) on two used RTX 3090s, one RTX 5090
    keeping what does not fit in host RAM, a DGX Spark, a Strix Halo desktop and a Mac
    Studio M3 Ultra: every system holds it, and the Mac's 819 GB/s generate fastest."""
    session = session_vm.session
    assert [b.gpu.id for b in session.builds] == ["rtx-3090", "rtx-5090"]
    assert [p.system.id for p in session.systems] == [
        "dgx-spark-128gb",
        "framework-desktop-128gb",
        "mac-studio-m3-ultra-96gb",
    ]
    vm = ComparisonViewModel(session_vm, AnalysisCache(session_vm.catalog, ()))
    vm.set_active(True)
    plans = dict(vm.state.systems)
    speeds = {}
    for name, served in plans.items():
        assert not isinstance(served, str), name
        assert served.memory.fits
        speeds[served.system.id] = served.speed.decode_tokens_s_per_stream
    assert max(speeds, key=lambda k: speeds[k]) == "mac-studio-m3-ultra-96gb"


def test_systems_are_added_and_removed_in_one_undo_step(session_vm: SessionViewModel) -> None:
    before = session_vm.session.systems
    assert session_vm.add_system("DGX Spark", nodes=2) == len(before)
    assert session_vm.session.systems[-1].name == "2 × NVIDIA DGX Spark"
    assert session_vm.undo_stack.undoText() == "Add system 2 × NVIDIA DGX Spark"
    session_vm.undo_stack.undo()
    assert session_vm.session.systems == before
    assert session_vm.remove_system(0) is None
    assert len(session_vm.session.systems) == len(before) - 1
    assert isinstance(session_vm.add_system("no such box"), str)


def test_systems_travel_with_the_file(session_vm: SessionViewModel, tmp_path: Path) -> None:
    path = tmp_path / "local.json"
    save_file(path, session_vm.session)
    again = open_file(path, session_vm.catalog).session
    assert again.systems == session_vm.session.systems


def test_the_sheet_prints_each_system_on_one_line(session_vm: SessionViewModel) -> None:
    from gui.pdf.document import sheet_html
    from gui.pdf.model import sheet_from_analyses

    cache = AnalysisCache(session_vm.catalog, ())
    session = session_vm.session
    analyses = [cache.analysis(b, session.workload, session.settings) for b in session.builds]
    vm = ComparisonViewModel(session_vm, cache)
    sheet = sheet_from_analyses(analyses, session_vm.catalog, systems=vm.systems_for(session))
    assert len(sheet.systems) == 3 and sheet.systems[0][0] == "NVIDIA DGX Spark"
    html = sheet_html(sheet, {}, False)
    assert "Prebuilt systems" in html and "and 3 prebuilt system(s)" in html
    # serving builds are compared on generation speed, not "n/a"
    assert "Throughput (generated tokens/s)" in html and "per generated tokens/s" in html
    # each system's sources are numbers into the sheet's one list, not a list of their own
    spark = session.systems[0].system
    assert "Sources: https" not in html
    assert all(
        s.split()[0] not in html.split("Prebuilt systems")[1].split("Assumptions")[0]
        for s in spark.sources
        if s.startswith("http")
    )
    assert re.search(r"\[\d+\]", html.split("Prebuilt systems")[1].split("Assumptions")[0])


def test_suggest_names_systems_that_meet_a_serving_request() -> None:
    """Llama 3.1 8B for one user at ≥ 20 tokens/s within $5,000: the priced systems that
    hold it and generate that fast; none above the budget."""
    workload = make_workload(find_preset("llama-3.1-8b"), task="inference")
    request = SuggestRequest(budget_usd=5_000, min_decode_tokens_s=20)
    picks = system_picks(workload, request, AnalysisSettings())
    assert picks and all(p.price_usd <= 5_000 and p.decode_tokens_s >= 20 for p in picks)
    assert "dgx-spark-128gb" in {p.system_id for p in picks}
    fast = SuggestRequest(budget_usd=5_000, min_decode_tokens_s=500)
    assert system_picks(workload, fast, AnalysisSettings()) == ()


def test_offload_to_fit_keeps_just_what_does_not_fit() -> None:
    """Llama 3.3 70B Q4_K_M on one 32 GiB card: the fewest whole GiB of weights in host RAM
    that make it fit (one fewer does not); on two 24 GiB cards nothing moves."""
    from core.calc.inference import inference_memory

    workload = make_workload(find_preset("llama-3.3-70b"), task="inference")
    serving = Serving(weights="q4_k_m", offload_to_fit=True)
    moved, what = fit_by_offloading(workload, serving, 32.0, 1)
    gib = what["offload_gib"]
    assert moved.offload_gib == gib > 0
    fewer = moved.model_copy(update={"offload_gib": gib - 1})
    assert inference_memory(workload, moved, 32.0, 1, with_fixes=False).fits
    assert not inference_memory(workload, fewer, 32.0, 1, with_fixes=False).fits
    assert fit_by_offloading(workload, serving, 24.0, 2) == (serving, {})


def test_serving_builds_and_systems_share_one_figure_in_compare(
    session_vm: SessionViewModel, qtbot: object
) -> None:
    """Serving has no training throughput: Compare ranks builds on their aggregate
    generation speed, in its unit, and divides the parts cost by it; the four charts draw
    the builds and every priced system that has a plan (DGX Spark $4,699, Framework
    Desktop $1,999 and Mac Studio $3,999 are priced), scaling over concurrent streams."""
    from core.text.compare import compare_rows
    from gui.charts.compare_grid import CompareChartsGrid

    vm = ComparisonViewModel(session_vm, AnalysisCache(session_vm.catalog, ()))
    vm.set_active(True)
    state = vm.state
    rows = {r.key: r for r in compare_rows(state.analyses)}
    for i, a in enumerate(state.analyses):
        assert a.throughput is None and a.inference is not None
        speed = a.inference.speed.aggregate_decode_tokens_s
        assert rows["throughput"].values[i] == pytest.approx(speed)
        assert a.cost.parts.total_usd is not None
        assert rows["usd_per_unit"].values[i] == pytest.approx(a.cost.parts.total_usd / speed)
        assert rows["usd_per_unit"].texts[i].endswith("per generated tokens/s")
    assert rows["throughput"].label == "Throughput (generated tokens/s)"
    grid = CompareChartsGrid()
    grid.show_state(state)
    labels = [p.label for p in grid.scatter.shown_points]
    assert labels == [*state.names, *(name for name, _ in state.systems)]
    spark = next(p for p in grid.scatter.shown_points if "DGX Spark" in p.label)
    assert spark.cost_usd == pytest.approx(4_699)
    assert len(grid.cost_bars.shown) == 5
    assert grid.scaling.getPlotItem().getAxis("bottom").labelText == "concurrent streams"
    assert [b.label for b in grid.limits.shown] == labels
    # the systems' memory share: the plan's GiB over the most the GPU may be given
    framework = dict(state.systems)["Framework Desktop (Ryzen AI Max+ 395, 128 GB)"]
    assert not isinstance(framework, str)
    bar = next(b for b in grid.limits.shown if b.label.startswith("Framework"))
    assert bar.vram_share == pytest.approx(framework.memory.total_gib / 120)
    assert bar.power_share == pytest.approx(140 / 1_440)  # its 140 W on a 15 A circuit


def test_suggest_leaves_out_a_system_that_fails_its_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A DGX Spark whose drive were 1 GB could not hold Llama 3.1 8B's weights (about
    5 GB at Q4_K_M): its storage check fails, so Suggest does not list it."""
    import core.catalog.systems as systems

    real = systems.load_systems()
    small = tuple(
        s.model_copy(update={"storage_gb": 1.0}) if s.id == "dgx-spark-128gb" else s for s in real
    )
    monkeypatch.setattr(systems, "load_systems", lambda: small)
    workload = make_workload(find_preset("llama-3.1-8b"), task="inference")
    picks = system_picks(workload, SuggestRequest(budget_usd=5_000), AnalysisSettings())
    assert "dgx-spark-128gb" not in {p.system_id for p in picks}


def test_suggest_lists_systems_that_hold_a_fine_tuning_without_ranking_them() -> None:
    """Llama 3.1 8B QLoRA (4-bit weights of 8 B parameters, about 4 GiB, plus adapters and
    activations) within $5,000: the GB10 and Strix Halo boxes priced under it hold it in
    the memory their GPU can be given; Macs fine-tune with MLX, whose memory RigForge does
    not describe, so none is listed; no speed is given, so none is ranked."""
    from core.calc.suggest.search import suggest
    from core.text.cost import system_pick_lines

    workload = make_workload(find_preset("llama-3.1-8b"), task="qlora", seq_len=2048)
    picks = system_picks(workload, SuggestRequest(budget_usd=5_000), AnalysisSettings())
    ids = {p.system_id for p in picks}
    assert {"dgx-spark-128gb", "framework-desktop-128gb"} <= ids
    assert not any(i.startswith("mac-") for i in ids)
    assert all(p.aggregate_tokens_s is None and p.price_usd <= 5_000 for p in picks)
    assert all(p.memory_gib is not None and p.memory_gib < (p.gpu_gib or 0) for p in picks)
    assert [p.price_usd for p in picks] == sorted(p.price_usd for p in picks)
    result = suggest(workload, SuggestRequest(budget_usd=5_000), load_catalog())
    text = "\n".join(system_pick_lines(result))
    assert "speed on them not estimated" in text and "NVIDIA DGX Spark" in text
