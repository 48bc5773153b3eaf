"""Suggest lists only builds an expert would sign (issue: "Builds an expert would sign").

For ResNet-50 training, BERT-large fine-tuning and Llama-3 8B LoRA at $5,000, $15,000 and
$40,000, every suggested build passes every check, and nothing about power, cooling,
slots, PSU bays, card length or number format is even an advisory or an unknown; used
GPUs appear only when asked for, and are named so."""

from __future__ import annotations

import pytest

from core.calc import analyze
from core.calc.suggest.search import suggest
from core.calc.suggest.signable import SIGNED_TOPICS, UNKNOWN_FIT, blocking
from core.catalog import load_catalog
from core.models.suggest import SuggestRequest
from core.workloads import find_preset, make_workload

CATALOG = load_catalog()
WORKLOADS = {
    "resnet50-v1.5": {},
    "bert-large-squad": {},
    "llama-3-8b": {"task": "lora", "seq_len": 2048, "checkpointing": "full"},
}


@pytest.mark.parametrize("budget", [5_000, 15_000, 40_000])
@pytest.mark.parametrize("preset", list(WORKLOADS))
def test_every_suggestion_passes_with_nothing_to_check_by_hand(preset: str, budget: float) -> None:
    workload = make_workload(find_preset(preset), **WORKLOADS[preset])  # type: ignore[arg-type]
    result = suggest(workload, SuggestRequest(budget_usd=budget), CATALOG)
    assert result.front, f"nothing suggested for {preset} at {budget}"
    for s in result.front:
        a = analyze(s.build, s.workload or workload, None, CATALOG)
        assert a.verdict == "pass", (s.build.name, [c.id for c in a.checks if c.severity == "fail"])
        assert not blocking(a)
        for check in a.checks:
            if check.id.startswith(SIGNED_TOPICS):
                assert check.severity in ("pass", "info"), (s.build.name, check.id)
                assert check.reason not in UNKNOWN_FIT, (s.build.name, check.id)
        assert not s.build.used  # used parts only when asked for
        case = s.build.case
        assert case is not None and s.build.psu_count <= (case.psu_bays or 1)
        if s.build.gpu.cooler == "passive":
            assert case.server_airflow


def test_parts_without_sourced_physical_facts_are_left_out_and_named() -> None:
    workload = make_workload(find_preset("resnet50-v1.5"))
    result = suggest(workload, SuggestRequest(budget_usd=40_000), CATALOG)
    unknown = set(result.unknown_fit_part_ids)
    assert "rtx-6000-ada" in unknown  # no source names its cooler
    assert "asus-proart-x870e-creator-wifi" in unknown  # slot positions not sourced
    assert result.skipped.unknown_fit > 0
    for s in result.front:
        assert s.build.gpu.id not in unknown
        if s.build.gpu_count > 1 and s.build.riser is None:
            assert s.build.motherboard.slot_positions_sourced


def test_used_gpus_only_when_included_and_always_marked() -> None:
    workload = make_workload(find_preset("llama-3-8b"), task="lora", seq_len=2048)
    plain = suggest(workload, SuggestRequest(budget_usd=3_000), CATALOG)
    assert not any(s.build.used for s in plain.front)
    used = suggest(workload, SuggestRequest(budget_usd=3_000, allow_used=True), CATALOG)
    marked = [s for s in used.front if s.build.used]
    assert marked
    for s in marked:
        assert "(used)" in s.build.name


def test_turing_cards_are_left_out_of_a_bf16_search() -> None:
    """Turing has no bf16 (NVIDIA Turing whitepaper): a bf16 recipe skips those cards
    rather than suggesting them with the speed of fp16 assumed silently."""
    workload = make_workload(find_preset("llama-3-8b"), task="lora", precision="bf16")
    result = suggest(workload, SuggestRequest(budget_usd=15_000, allow_used=True), CATALOG)
    assert result.skipped.precision > 0
    assert all(s.build.gpu.architecture not in ("turing", "volta", "pascal") for s in result.front)


@pytest.mark.parametrize(
    ("preset", "budget", "circuit"),
    [("resnet50-v1.5", 20_000, "eu-230v-16a"), ("llama-3-8b", 15_000, "us-120v-15a")],
)
def test_suggest_screens_agree_with_the_checks(preset: str, budget: float, circuit: str) -> None:
    """What Suggest screens (PSU count and size, cables without adapters, slot room, the
    drive's M.2 slot, spike data) is what the checks then ask: no build it ranks on the
    front fails its analysis, so the front is the real one, not what was left after
    rounds of rejections."""
    workload = make_workload(find_preset(preset), **WORKLOADS[preset])  # type: ignore[arg-type]
    result = suggest(workload, SuggestRequest(budget_usd=budget, circuit=circuit), CATALOG)
    assert result.front
    assert result.skipped.failed_checks == 0


def test_gpus_without_spike_data_are_left_out_and_named() -> None:
    """The Radeon RX 7900 XTX has neither a measured spike ratio nor a 16-pin connector
    whose standard bounds it: every build with it would end on "check the PSU's
    excursion rating by hand", so Suggest leaves it out and names it."""
    workload = make_workload(find_preset("llama-3-8b"), **WORKLOADS["llama-3-8b"])  # type: ignore[arg-type]
    result = suggest(workload, SuggestRequest(budget_usd=5_000), CATALOG)
    assert "rx-7900-xtx" in result.unknown_fit_part_ids
    assert all(s.build.gpu.id != "rx-7900-xtx" for s in result.front)
