"""The rules a builder applies, each a check with numbers and a fix, and the verdict they
give. Expected figures are worked out by hand from the fixture parts in ``check_parts``."""

from __future__ import annotations

import pytest

from core.calc import analyze
from core.calc.platform.checks import run_checks
from core.calc.verdict import is_operating, judge
from core.catalog import load_catalog
from core.models.build import DriveSelection
from core.models.checks import Check, Fix
from core.models.settings import AnalysisSettings
from core.workloads import find_preset, make_workload
from tests.core import check_parts as parts

CATALOG = load_catalog()


def by_id(checks: tuple[Check, ...]) -> dict[str, Check]:
    return {c.id: c for c in checks}


# -- precision the GPU's architecture has ------------------------------------------------


def turing() -> object:
    return parts.gpu(
        id="turing-card",
        name="Turing card",
        architecture="turing",
        tensor_tflops={"fp16": 65.0},
        board_power_w=280,
        power_connectors={"pcie_8pin": 2},
    )


def lora(precision: str) -> object:
    return make_workload(find_preset("llama-3-8b"), task="lora", precision=precision, seq_len=512)


def test_bf16_on_turing_fails_with_the_switch_to_fp16_and_its_throughput() -> None:
    """Turing has no bf16 (NVIDIA Turing whitepaper: FP16/INT8/INT4 tensor cores; bf16
    arrived with Ampere): the recipe cannot run as written; the fix runs it in fp16."""
    build = parts.build(gpu=turing(), psu=parts.psu())
    result = analyze(build, lora("bf16"), AnalysisSettings(), CATALOG)
    check = result.check("workload.precision")
    assert check is not None and check.severity == "fail"
    assert check.numbers["precision"] == "bf16" and check.numbers["architecture"] == "turing"
    assert check.fix is not None and check.fix.workload == {"precision": "fp16"}
    fp16 = analyze(build, lora("fp16"), AnalysisSettings(), CATALOG)
    assert fp16.check("workload.precision") is None
    assert fp16.throughput is not None
    assert check.fix.numbers["throughput"] == pytest.approx(
        fp16.throughput.total_throughput, rel=1e-3
    )
    # a workload change mends it: the build works with that change
    assert result.verdict == "changes"


@pytest.mark.parametrize(("architecture", "precision"), [("ada", "bf16"), ("ada", "fp8")])
def test_formats_the_architecture_has_pass(architecture: str, precision: str) -> None:
    build = parts.build(gpu=parts.gpu(architecture=architecture, tensor_tflops={"fp8": 330.0}))
    result = analyze(build, lora(precision), AnalysisSettings(), CATALOG)
    assert result.check("workload.precision") is None


def test_fp8_on_ampere_fails() -> None:
    ampere = parts.gpu(architecture="ampere", tensor_tflops={"fp16": 142.0, "bf16": 142.0})
    result = analyze(parts.build(gpu=ampere), lora("fp8"), AnalysisSettings(), CATALOG)
    check = result.check("workload.precision")
    assert check is not None and check.severity == "fail"


# -- PSU bays --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bays", "psus", "severity", "reason"),
    [
        (1, 2, "fail", "psu_bays_short"),
        (2, 2, "pass", "psu_bays_enough"),
        (None, 2, "warn", "psu_bays_unknown"),
        (None, 1, "pass", "one_psu_fits"),
        (1, 1, "pass", "one_psu_fits"),
    ],
)
def test_psu_count_fits_the_case_bays(
    bays: int | None, psus: int, severity: str, reason: str
) -> None:
    build = parts.build(case=parts.case(psu_bays=bays), psu_count=psus)
    check = by_id(run_checks(build, AnalysisSettings()))["physical.psu_bays"]
    assert (check.severity, check.reason) == (severity, reason)


# -- memory channels -------------------------------------------------------------------------


def test_an_empty_memory_channel_warns_with_the_bandwidth_used_and_a_fill_fix() -> None:
    """A Threadripper PRO has 8 channels; 1 RDIMM fills one: 1/8 = 12.5 % → 12 %. The fix
    fits 8 kits of one module (the board has 8 slots)."""
    build = parts.build(
        cpu=parts.tr_pro(),
        motherboard=parts.wrx90_board(),
        memory=parts.memory(id="rdimm-1x32", dimm_type="RDIMM", modules=1, ecc=True),
    )
    check = by_id(run_checks(build, AnalysisSettings(), catalog=CATALOG))["compat.memory_channels"]
    assert check.severity == "warn"
    assert (check.numbers["dimms"], check.numbers["channels"]) == (1, 8)
    assert check.numbers["bandwidth_pct"] == 12
    assert check.fix is not None and check.fix.build == {"memory_kits": 8}
    full = build.model_copy(update={"memory_kits": 8})
    assert by_id(run_checks(full, AnalysisSettings()))["compat.memory_channels"].severity == "pass"


# -- cards wider than the slot pitch ----------------------------------------------------------


def test_cards_wider_than_the_slot_pitch_need_risers_on_a_frame() -> None:
    """Two 3-slot cards on a board whose two x16 slots are adjacent (positions 1 and 2):
    the second card has no room; risers on an open frame mend it."""
    board = parts.am5_board(
        pcie_slots=[
            {"id": "a", "position": 1, "gen": 5, "lanes": 8, "attached_to": "cpu"},
            {"id": "b", "position": 2, "gen": 5, "lanes": 8, "attached_to": "cpu"},
        ]
    )
    build = parts.build(motherboard=board, gpu_count=2)
    check = by_id(run_checks(build, AnalysisSettings(), catalog=CATALOG))["physical.board_slots"]
    assert check.severity == "fail" and check.reason == "gpus_do_not_fit_board"
    assert check.fix is not None and check.fix.code == "use_frame_and_risers"
    assert CATALOG.get(str(check.fix.build["case"])).kind == "open_frame"  # type: ignore[attr-defined]
    assert "riser" in check.fix.build


# -- GPU transients, verdicts ----------------------------------------------------------------


def test_transients_over_the_psu_limit_are_unsafe_for_a_16_pin_card() -> None:
    """A 450 W 16-pin card may spike to 3× for 100 µs (PCIe CEM 5.0): 4 cards on a
    1,600 W ATX 3.0 unit peak at 2,128 + 1,800 × 2 = 5,728 W > 3,200 W: unsafe. The same
    cards without a 16-pin connector have no measured or specified spike: unknown (and a
    suggestion never rests on an unknown)."""
    checks = by_id(run_checks(parts.four_4090(), AnalysisSettings()))
    assert checks["power.transient"].severity == "fail"
    eight_pin = parts.gpu(power_connectors={"pcie_8pin": 3})
    checks = by_id(run_checks(parts.build(gpu=eight_pin, gpu_count=4), AnalysisSettings()))
    assert (checks["power.transient"].severity, checks["power.transient"].reason) == (
        "info",
        "transient_unknown",
    )


def _fail(fix: Fix | None) -> Check:
    return Check(id="x", severity="fail", reason="x", fix=fix)


def test_the_verdict_follows_what_mends_the_failures() -> None:
    limit = Fix(code="power_limit_gpus", build={"gpu_power_limit_w": 300})
    batch = Fix(code="reduce_batch", workload={"batch_size": 16})
    circuit = Fix(code="use_bigger_circuit")
    psu = Fix(code="use_psu", build={"psu": "x", "psu_count": 1})
    assert all(is_operating(f) for f in (limit, batch, circuit))
    assert not is_operating(psu) and not is_operating(None)
    assert judge(()) == "pass"
    assert judge((Check(id="w", severity="warn", reason="w"),)) == "pass"
    assert judge((_fail(limit), _fail(batch))) == "changes"
    assert judge((_fail(limit), _fail(psu))) == "fail"
    assert judge((_fail(None),)) == "fail"


def test_a_circuit_overloaded_by_the_gpus_is_a_change_not_a_wreck() -> None:
    """Three 450 W cards: 3 × 450 + 230 (CPU) + 10 + 8 + 50 + 30 = 1,678 W DC, at the
    fixture PSU's flat 90 % = 1,864 W at the wall, over the 15 A circuit's 1,440 W. A
    power limit brings it within 90 % of the circuit (1,296 W, the check's margin), so the
    failure is mended by how the build runs: "works with changes", not "won't work"."""
    slim = parts.gpu(slot_width=1)
    build = parts.build(gpu=slim, gpu_count=3, psu=parts.psu(wattage_w=2800))
    checks = by_id(run_checks(build, AnalysisSettings(circuit="us-120v-15a"), catalog=CATALOG))
    circuit = checks["power.circuit"]
    assert circuit.numbers["wall_w"] == round(1678 / 0.9)
    assert circuit.severity == "fail"
    assert circuit.fix is not None and circuit.fix.code == "power_limit_gpus"
    limit = float(circuit.fix.build["gpu_power_limit_w"] or 0)
    # at the limit: 3 × limit + 328 W of the rest, at 90 %, within 1,296 W
    assert (3 * limit + 328) / 0.9 <= 1296 < (3 * (limit + 5) + 328) / 0.9
    assert judge((circuit,)) == "changes"


# -- host RAM and cores against the workload ---------------------------------------------------


def test_ram_is_judged_against_what_the_workload_stages_not_vram() -> None:
    """LoRA of an 8B model stages its 16 GB of bf16 weights on the host; 32 GiB of RAM
    holds that even with 48 GiB of VRAM in the build (the old flat rule warned)."""
    build = parts.build(gpu_count=2, memory=parts.memory(module_gib=16))
    result = analyze(build, lora("bf16"), AnalysisSettings(), CATALOG)
    ram = result.check("host.ram")
    assert ram is not None and ram.severity == "pass" and ram.reason == "ram_for_workload"
    assert float(ram.numbers["needed_gib"]) <= 32 < 48


def test_few_cores_warn_only_when_the_gpus_wait_on_data_loading() -> None:
    """ResNet-50 decodes JPEGs at 150 images/s per core (docs/performance-model.md): 4
    cores feed 600 images/s, far below what a 4090 trains, so the GPUs wait; an LLM's
    pre-tokenised text never does, however few the cores."""
    four = parts.cpu(cores=4, threads=8)
    resnet = make_workload(find_preset("resnet50-v1.5"), batch_size=128, precision="bf16")
    result = analyze(parts.build(cpu=four), resnet, AnalysisSettings(), CATALOG)
    cores = result.check("host.cpu_cores")
    assert cores is not None and cores.severity == "warn"
    assert result.throughput is not None
    gpu_rate = result.throughput.total_throughput / (1 - float(cores.numbers["wait_pct"]) / 100)
    # cores that keep up: the GPUs' own rate at 150 images/s per core
    assert int(cores.numbers["needed"]) == pytest.approx(gpu_rate / 150, abs=1.5)
    text = analyze(parts.build(cpu=four), lora("bf16"), AnalysisSettings(), CATALOG)
    assert text.check("host.cpu_cores").severity == "pass"  # type: ignore[union-attr]


def test_a_serving_build_is_judged_at_its_serving_draw() -> None:
    """Llama 3.1 8B served on one 450 W card: prompts at board power, generation at 58 %
    of it (``decode_power_fraction``, fitted on published runs): the wall draw (the
    circuit's continuous load) uses 0.58 × 450 = 261 W for the GPU, not 450 W."""
    build = parts.build(drives=[DriveSelection(drive=parts.nvme())])
    serving = make_workload(find_preset("llama-3.1-8b"), task="inference")
    served = analyze(build, serving, AnalysisSettings(), CATALOG)
    trained = analyze(build, None, AnalysisSettings(), CATALOG)
    assert served.power.wall_w is not None and trained.power.wall_w is not None
    drop = trained.power.wall_w - served.power.wall_w
    # 189 W less DC for the GPU, at roughly 90 % efficiency
    assert drop == pytest.approx((450 - 0.58 * 450) / 0.9, rel=0.05)
