"""Realistic builds with known outcomes, asserted check by check.

Expected values are derived here by hand from the sources in shared/data/power and
shared/data/hardware, and from the fixture figures in ``check_parts``.
"""

from __future__ import annotations

import pytest

from core.calc.platform.checks import run_checks
from core.models.checks import Check, worst
from core.models.host import HostDemand
from core.models.settings import AnalysisSettings
from core.text.checks import REASONS, render_check
from core.text.fixes import FIX_TEXT
from tests.core import check_parts as parts


def by_id(checks: tuple[Check, ...]) -> dict[str, Check]:
    return {c.id: c for c in checks}


def severities(checks: tuple[Check, ...]) -> dict[str, str]:
    return {c.id: c.severity for c in checks}


def test_four_4090_on_7950x_board() -> None:
    checks = by_id(run_checks(parts.four_4090(), AnalysisSettings(circuit="us-120v-15a")))
    # Steady: 4×450 + 230 (PPT) + 2 DIMM × 5 + 8 (NVMe) + 50 (board) + 30 (fans) = 2,128 W.
    assert checks["power.summary"].numbers["steady_dc_w"] == 2128
    assert checks["power.psu"].severity == "fail"  # 2,128 W > 1,600 W
    assert checks["power.psu"].numbers["load_pct"] == pytest.approx(100 * 2128 / 1600, abs=0.1)
    # Wall 2,128 / 0.9 = 2,364 W > 120 V × 15 A × 0.8 = 1,440 W.
    assert checks["power.circuit"].severity == "fail"
    assert checks["power.circuit"].numbers["limit_w"] == 120 * 15 * 0.8
    assert checks["power.circuit"].numbers["wall_w"] == round(2128 / 0.9)
    # CEM 5.0: 3× for 100 µs → 2,128 + 1,800 × 2 = 5,728 W vs ATX 3.0 200 % × 1,600 W:
    # the spikes a 16-pin card may make can trip the PSU (unsafe)
    assert checks["power.transient"].numbers["peak_dc_w"] == 2128 + 2 * 1800
    assert checks["power.transient"].numbers["limit_w"] == 3200
    assert checks["power.transient"].severity == "fail"
    assert checks["power.psu_count"].severity == "fail"  # ⌈2,128 / 1,600⌉ = 2
    assert checks["power.psu_count"].numbers["needed"] == 2
    # 4 × x16 + 1 × x4 = 68 lanes demanded, 24 available.
    assert checks["pcie.lanes"].severity == "warn"
    assert checks["pcie.lanes"].numbers["demanded"] == 68
    # 3-slot cards at positions 1 and 5 (position 3 is covered): two fit, two do not.
    assert checks["pcie.gpu_link.1"].severity == "pass"
    assert checks["pcie.gpu_link.1"].numbers["lanes"] == 16  # x16_2 is covered, not populated
    assert checks["pcie.gpu_link.2"].reason == "gpu_on_chipset"
    assert checks["pcie.gpu_link.2"].numbers["lanes"] == 4
    assert checks["pcie.gpu_link.3"].severity == "fail"
    assert checks["pcie.gpu_link.4"].severity == "fail"
    assert checks["pcie.chipset"].severity == "warn"
    assert checks["pcie.p2p"].reason == "no_p2p"
    assert checks["physical.board_slots"].severity == "fail"
    assert checks["physical.board_slots"].numbers["fitting"] == 2
    assert checks["physical.cooling"].reason == "open_air_many"
    # 4 × 1 16-pin needed, PSU has 1; 3 adapters × ⌈450/150⌉ = 9 eight-pin > 8.
    assert checks["compat.power_connectors"].severity == "fail"
    assert checks["compat.power_connectors"].numbers["need_8pin"] == 9
    assert checks["host.ram"].reason == "ram_below_vram"  # 64 < 4 × 24
    assert checks["host.cpu_cores"].severity == "pass"  # 16 ≥ max(16, 4 × 4)


def test_two_3090_nvlink_on_threadripper_pro_is_clean() -> None:
    checks = run_checks(parts.two_3090_nvlink(), AnalysisSettings(circuit="us-120v-20a"))
    assert worst(checks) in ("pass", "info")
    found = by_id(checks)
    # Steady: 2×350 + 350 (base power; no PPT given) + 8×10 + 8 + 80 + 30 = 1,248 W.
    assert found["power.summary"].numbers["steady_dc_w"] == 1248
    # Ampere measured 2.18× at 200 µs → ATX 3.0 tolerance 180 % (the 1 ms tier).
    assert found["power.transient"].numbers["limit_w"] == 1.8 * 1600
    assert found["power.transient"].numbers["peak_dc_w"] == round(1248 + 700 * 1.18)
    assert found["power.circuit"].numbers["limit_w"] == 120 * 20 * 0.8
    assert found["pcie.p2p"].reason == "nvlink_all_paired"
    assert found["pcie.gpu_link.1"].numbers["lanes"] == 16
    assert found["pcie.gpu_link.2"].numbers["position"] == 3  # 2-slot card at 1 covers 2


def test_eight_a100_sxm_in_workstation_board_fails_form_factor() -> None:
    checks = by_id(run_checks(parts.eight_a100_sxm(), AnalysisSettings()))
    assert checks["physical.form_factor"].severity == "fail"
    assert checks["physical.form_factor"].reason == "module_needs_baseboard"
    assert not any(i.startswith("pcie.gpu_link") for i in checks)
    assert checks["compat.power_connectors"].reason == "gpu_powered_by_baseboard"
    assert checks["power.psu"].severity == "fail"  # 8 × 400 W alone exceeds 1,600 W


def test_single_4060_ti_on_550_w_is_clean() -> None:
    checks = run_checks(parts.one_4060ti(), AnalysisSettings())
    found = by_id(checks)
    assert worst(checks) in ("pass", "info"), [render_check(c) for c in checks]
    # 165 + 162 + 10 + 8 + 50 + 30 = 425 W of 550 W.
    assert found["power.psu"].numbers["load_pct"] == pytest.approx(100 * 425 / 550, abs=0.1)
    # Ada card with an 8-pin input: no measurement, no CEM 5.0 connector → unknown.
    assert found["power.transient"].reason == "transient_unknown"
    # x8 Gen4 = 16 Gen3-equivalent lanes: above the x8 Gen3 warning line.
    assert found["pcie.gpu_link.1"].numbers["gen3_equivalent_lanes"] == 16


def test_default_catalog_build_runs_every_check_with_text() -> None:
    from core.catalog import load_catalog
    from core.catalog.builds import default_build

    catalog = load_catalog()
    build = default_build(catalog)
    checks = run_checks(build, AnalysisSettings(), catalog=catalog)
    for check in checks:
        assert check.reason in REASONS, check.reason
        assert check.fix is None or check.fix.code in FIX_TEXT, check.fix
        if check.fix is not None and "psu" in check.fix.build:
            assert check.fix.build["psu"] in catalog


@pytest.mark.parametrize(
    "build",
    [parts.four_4090(), parts.two_3090_nvlink(), parts.eight_a100_sxm(), parts.one_4060ti()],
)
def test_every_reason_renders_without_missing_numbers(build: object) -> None:
    demand = HostDemand(
        host_ram_gib=1000, data_loading_cores=64, storage_read_mb_s=20000, storage_gb=10_000
    )
    for check in run_checks(build, AnalysisSettings(), demand=demand):  # type: ignore[arg-type]
        assert check.reason in REASONS
        line = render_check(check)
        assert "?" not in line, line


def test_unknown_gpu_power_gives_info_not_a_guess() -> None:
    build = parts.build(gpu=parts.gpu(board_power_w=None))
    checks = by_id(run_checks(build, AnalysisSettings()))
    assert checks["power.unknown"].numbers["unknown"] == "gpu"
    assert checks["power.psu"].severity == "info"
    assert checks["power.psu"].numbers["lower_bound"] == "yes"


def test_host_checks_against_workload_demand() -> None:
    build = parts.one_4060ti()  # 32 GiB RAM, 16 cores, one 2,000 GB drive reading 7,450 MB/s
    ok = HostDemand(host_ram_gib=24, data_loading_cores=8, storage_read_mb_s=3000, storage_gb=1500)
    short = HostDemand(
        host_ram_gib=48,
        data_loading_cores=24,
        loader_wait=0.25,
        storage_read_mb_s=9000,
        storage_gb=2500,
    )
    good = severities(run_checks(build, AnalysisSettings(), demand=ok))
    bad = severities(run_checks(build, AnalysisSettings(), demand=short))
    for cid in ("host.ram", "host.cpu_cores", "host.storage_capacity", "host.storage_read"):
        assert good[cid] == "pass"
    assert bad["host.ram"] == "fail"
    assert bad["host.cpu_cores"] == "warn"  # the GPUs wait on loading: slower, not broken
    assert bad["host.storage_capacity"] == "fail"
    assert bad["host.storage_read"] == "warn"


def test_cores_rule_of_four_per_gpu_is_information_without_a_workload() -> None:
    """Without a workload only the rule of thumb (16 cores, 4 per GPU) can be shown: as
    information; with one, the workload's own data loading decides (test_builder_rules)."""
    build = parts.build(gpu=parts.rtx4060ti(), gpu_count=1, cpu=parts.cpu(cores=8, threads=16))
    check = by_id(run_checks(build, AnalysisSettings()))["host.cpu_cores"]
    assert (check.severity, check.reason) == ("info", "cores_below_rule")


def test_circuit_near_limit_warns_and_offers_a_power_limit() -> None:
    # 2 × 450 + 230 + 10 + 8 + 50 + 30 = 1,228 W DC → 1,364 W wall: over 90 % of 1,440 W.
    checks = by_id(run_checks(parts.build(gpu_count=2), AnalysisSettings()))
    circuit = checks["power.circuit"]
    assert circuit.severity == "warn"
    assert circuit.fix is not None and circuit.fix.code == "power_limit_gpus"
    limit = float(circuit.fix.build["gpu_power_limit_w"])
    assert (2 * limit + 328) / 0.9 <= 0.9 * 1440
    # the circuit is named in words, not by its settings id
    text = render_check(circuit)
    assert "120 V / 15 A (US)" in text and "us-120v-15a" not in text


def test_every_check_the_app_makes_has_a_name_in_words() -> None:
    """The window and the PDF name checks in words ("GPU link 2", "Wall circuit"); every
    check id written in core/calc has one (an id without would read as its own words)."""
    import re
    from pathlib import Path

    from core.text.checks import CHECK_TITLES, check_title

    calc = Path(__file__).resolve().parents[4] / "core" / "calc"
    ids = {
        m.group(1)
        for path in calc.rglob("*.py")
        for m in re.finditer(
            r'"((?:compat|host|pcie|physical|power|vram|workload|analysis)'
            r'\.[a-z_0-9]+)"',
            path.read_text(encoding="utf-8"),
        )
    }
    assert len(ids) > 25
    missing = sorted(i for i in ids if i not in CHECK_TITLES)
    assert not missing, missing
    assert check_title("pcie.gpu_link.2") == "GPU link 2"
    assert check_title("power.circuit") == "Wall circuit"


def test_the_figures_behind_a_check_read_in_words_and_units() -> None:
    """The detail pane lists a check's numbers as "steady DC: 1,228 W", not as the keys
    the code keeps them under ("steady_dc_w = 1228.0"); a word-choosing number is left out."""
    from core.models.checks import Check
    from core.text.checks import number_lines

    check = Check(
        id="power.psu",
        severity="warn",
        reason="psu_tight",
        numbers={"steady_dc_w": 1228.0, "load_pct": 81.9, "psu_count": 1.0, "slot_word": "x"},
    )
    assert number_lines(check) == ["Steady DC: 1,228 W", "Load: 81.9 %", "PSU count: 1"]
    # two decimals at most, no trailing zeros or point: 2.0001 GiB reads "2 GiB"
    near = check.model_copy(update={"numbers": {"vram_gib": 2.0001, "ratio": 1.10}})
    assert number_lines(near) == ["VRAM: 2 GiB", "Ratio: 1.1"]
