"""Power model: component draw, transients, PSU excursions, wall circuits, energy."""

from __future__ import annotations

import math

import pytest

from core.calc.platform.power import (
    fits_circuit,
    fits_psu,
    power_budget,
    power_limit_throughput_factor,
    psu_efficiency,
    psu_excursion_tolerance,
    psus_needed,
)
from core.models.build import Build
from core.models.settings import CIRCUITS, AnalysisSettings
from tests.core import check_parts as parts


@pytest.mark.parametrize(
    ("circuit", "expected_w"),
    [
        ("us-120v-15a", 120 * 15 * 0.8),  # 1,440 W, Lambda's figure
        ("us-120v-20a", 120 * 20 * 0.8),
        ("eu-230v-16a", 230 * 16 * 0.8),
        ("eu-230v-10a", 230 * 10 * 0.8),
        ("uk-230v-13a", 230 * 13 * 0.8),
        ("jp-100v-15a", 100 * 15 * 0.8),
    ],
)
def test_circuit_continuous_limits(circuit: str, expected_w: float) -> None:
    assert CIRCUITS[circuit].continuous_w == pytest.approx(expected_w)  # type: ignore[index]


def test_atx3_excursion_table() -> None:
    psu = parts.psu()
    assert psu_excursion_tolerance(psu, 100)[0] == 2.0
    assert psu_excursion_tolerance(psu, 200)[0] == 1.8  # past 100 µs: the 1 ms tier
    assert psu_excursion_tolerance(psu, 5_000)[0] == 1.6
    assert psu_excursion_tolerance(parts.psu(atx_version="2.x"), 100)[0] == 1.0
    no16 = parts.psu(connectors={"pcie_8pin": 6})
    assert psu_excursion_tolerance(no16, 100) == (1.0, "atx3_without_12vhpwr")


def test_intel_example_300w_gpu_300w_cpu_fits_750w_atx3() -> None:
    # Source: tweaktown 85717 — 300 W GPU at 3× for 100 µs plus a 300 W CPU fits 750 W ATX 3.0.
    peak = 3 * 300 + 300
    assert peak <= 750 * psu_excursion_tolerance(parts.psu(wattage_w=750), 100)[0]


def test_efficiency_interpolates_and_clamps() -> None:
    curve = [
        {"load_fraction": 0.2, "efficiency": 0.90},
        {"load_fraction": 0.5, "efficiency": 0.94},
        {"load_fraction": 1.0, "efficiency": 0.90},
    ]
    psu = parts.psu(efficiency_curve=curve)
    assert psu_efficiency(psu, 0.75) == pytest.approx(0.92)
    assert psu_efficiency(psu, 0.05) == pytest.approx(0.90)
    assert psu_efficiency(psu, 1.1) == pytest.approx(0.90)


def test_budget_wall_heat_and_energy() -> None:
    settings = AnalysisSettings(utilization=0.5, electricity_usd_per_kwh=0.20)
    budget = power_budget(parts.one_4060ti(), settings)
    steady = 165 + 162 + 2 * 5 + 8 + 50 + 30
    assert budget.steady_dc_w == steady
    wall = steady / 0.9
    assert budget.wall_w == pytest.approx(wall)
    assert budget.heat_btu_h == pytest.approx(wall * 3.412142)
    kwh = wall * 0.5 * 8760 / 1000
    assert budget.energy_kwh_per_year == pytest.approx(kwh)
    assert budget.electricity_usd_per_year == pytest.approx(kwh * 0.20)


def test_two_psus_share_the_load() -> None:
    budget = power_budget(parts.four_4090(), AnalysisSettings(), psu_count=2)
    assert budget.psu_rated_w == 3200
    assert budget.psu_load_fraction == pytest.approx(2128 / 3200)


def test_puget_quad_3090_point() -> None:
    # Puget Systems Labs: 350 W → 280 W kept more than 95 % of performance.
    gpu = parts.gpu(board_power_w=350)
    assert power_limit_throughput_factor(gpu, 280) == pytest.approx(0.95)
    assert power_limit_throughput_factor(gpu, 350) == 1.0
    assert power_limit_throughput_factor(gpu, 400) == 1.0
    assert power_limit_throughput_factor(gpu, 200) < power_limit_throughput_factor(gpu, 280)


def _limited(limit_w: float) -> Build:
    return parts.four_4090().model_copy(update={"gpu_power_limit_w": limit_w})


def test_four_4090_at_300w() -> None:
    budget = power_budget(_limited(300), AnalysisSettings())
    alpha = math.log(0.95) / math.log(0.8)
    gpu = parts.four_4090().gpu
    assert power_limit_throughput_factor(gpu, 300) == pytest.approx((300 / 450) ** alpha)
    steady = 4 * 300 + 230 + 10 + 8 + 50 + 30  # 1,528 W
    assert budget.steady_dc_w == steady
    assert budget.psu_load_fraction == pytest.approx(steady / 1600)
    # Steady fits 1,600 W but a 3× CEM 5.0 spike (1,528 + 2 × 1,200 = 3,928 W) exceeds 3,200 W.
    assert not fits_psu(budget)
    assert not fits_circuit(budget)  # 1,528 / 0.9 = 1,698 W > 1,440 W


def test_limit_fits_on_20a_circuit() -> None:
    budget = power_budget(_limited(300), AnalysisSettings(circuit="us-120v-20a"))
    assert fits_circuit(budget)  # 1,698 W ≤ 1,920 W


def test_psus_needed_counts_in_units_of_the_builds_own_psu_when_it_is_larger() -> None:
    """Four 450 W cards and a 2,200 W unit: a steady 2,000 W needs two 1,600 W PSUs but
    one 2,200 W unit carries it (2,000 <= 2,200), so the count check must not ask for a
    second; a 1,000 W unit still counts in 1,600 W units (⌈2,000 / 1,600⌉ = 2)."""
    gpu = parts.gpu(board_power_w=450)

    def needed(psu_w: float) -> int:
        build = parts.build(
            gpu=gpu, gpu_count=4, psu=parts.psu(wattage_w=psu_w, id=f"psu-{psu_w:.0f}")
        )
        budget = power_budget(build, AnalysisSettings())
        steady = budget.steady_dc_w
        assert 1_600 < steady <= 2_200, steady  # 4 x 450 W plus the platform
        return psus_needed(budget.model_copy(update={"peak_dc_w": steady}))

    assert needed(2_200) == 1
    assert needed(1_000) == 2
