"""Cost model: TCO, electricity, break-even, cost report; numbers derived by hand."""

from datetime import date

import pytest

from core.calc.analysis import analyze
from core.calc.cost.tco import (
    break_even_months,
    cheapest_rate,
    cost_report,
    electricity_usd_per_year,
    total_cost_of_ownership,
)
from core.calc.platform.power import energy_kwh_per_year
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.cost import CloudRate, PartsCost
from core.models.settings import AnalysisSettings
from core.prices.cloud import load_cloud_rates
from core.workloads import find_preset, make_workload


def _rate(gpu: str, usd: float, provider: str = "X") -> CloudRate:
    return CloudRate(
        gpu_id=gpu,
        provider=provider,
        instance="i",
        usd_per_gpu_hour=usd,
        as_of=date(2026, 1, 1),
        source="test",
    )


def test_energy_and_electricity_by_hand() -> None:
    # 1,000 W at 50 % of 8,760 h = 4,380 kWh; at $0.20 = $876.
    assert energy_kwh_per_year(1000, 0.5) == pytest.approx(4380)
    assert electricity_usd_per_year(1000, 0.5, 0.20) == pytest.approx(876)


def test_tco_is_parts_plus_years_of_electricity() -> None:
    assert total_cost_of_ownership(5000, 876, 3) == pytest.approx(5000 + 3 * 876)


def test_break_even_by_hand_and_never() -> None:
    # parts 6,000; electricity 50/month; cloud 550/month -> 6,000 / 500 = 12 months
    assert break_even_months(6000, 50, 550) == pytest.approx(12)
    assert break_even_months(6000, 50, 50) is None
    assert break_even_months(6000, 80, 50) is None


def test_cheapest_rate_picks_lowest_for_gpu() -> None:
    rates = (_rate("rtx-4090", 0.7, "A"), _rate("rtx-4090", 0.5, "B"), _rate("l4", 0.1))
    assert cheapest_rate(rates, "rtx-4090").provider == "B"  # type: ignore[union-attr]
    assert cheapest_rate(rates, "rtx-3090") is None


def test_cost_report_figures_by_hand() -> None:
    gpu = load_catalog().gpu("rtx-4090")
    report = cost_report(
        PartsCost(total_usd=6000.0, priced_usd=6000.0),
        (),
        gpu=gpu,
        gpus=2,
        throughput=1500.0,
        throughput_unit="images/s",
        wall_w=1000.0,
        utilization=0.5,
        usd_per_kwh=0.2,
        years=3,
        rates=(_rate("rtx-4090", 0.5),),
    )
    assert report.per_throughput_usd == pytest.approx(4.0)
    assert report.throughput_per_watt == pytest.approx(1.5)
    assert report.electricity_usd_per_year == pytest.approx(876)
    assert report.tco_usd == pytest.approx(6000 + 3 * 876)
    cloud = report.cloud
    assert cloud is not None
    # 2 GPUs × $0.5 × 4,380 h = $4,380/year = $365/month; electricity $73/month
    assert cloud.cloud_usd_per_year == pytest.approx(4380)
    assert cloud.break_even_months == pytest.approx(6000 / (365 - 73))


def test_incomplete_prices_give_no_ratio_tco_or_break_even() -> None:
    gpu = load_catalog().gpu("rtx-4090")
    report = cost_report(
        PartsCost(total_usd=None, priced_usd=3000.0, unpriced_part_ids=("psu-x",)),
        (),
        gpu=gpu,
        gpus=1,
        throughput=500.0,
        throughput_unit="images/s",
        wall_w=600.0,
        utilization=0.5,
        usd_per_kwh=0.2,
        rates=(_rate("rtx-4090", 0.5),),
    )
    assert report.per_throughput_usd is None
    assert report.tco_usd is None
    assert report.cloud is None
    assert report.electricity_usd_per_year is not None


def test_default_build_has_a_complete_dated_total() -> None:
    catalog = load_catalog()
    build = default_build(catalog)
    analysis = analyze(
        build,
        make_workload(find_preset("resnet50-v1.5")),
        AnalysisSettings(),
        catalog,
        cloud_rates=load_cloud_rates().rates,
    )
    report = analysis.cost
    assert report.parts.unpriced_part_ids == ()
    assert all(line.as_of is not None and line.source for line in report.lines)
    assert report.parts.total_usd == pytest.approx(sum(line.line_usd or 0 for line in report.lines))
    gpu_line = next(line for line in report.lines if line.part_id == "rtx-4090")
    assert gpu_line.quantity == 2
    newest = catalog.gpu("rtx-4090").price  # the newest dated new-card price the catalog has
    assert gpu_line.line_usd == pytest.approx(2 * (newest.usd or 0))
    assert gpu_line.as_of == newest.as_of
    assert gpu_line.origin == "catalog"
    assert report.tco_usd == pytest.approx(
        report.parts.total_usd + 3 * (report.electricity_usd_per_year or 0)
    )


def test_bundled_cloud_rates_are_dated_sourced_catalog_gpus() -> None:
    catalog = load_catalog()
    table = load_cloud_rates()
    assert len(table.rates) >= 10
    for rate in table.rates:
        assert rate.gpu_id in catalog
        assert rate.source and rate.as_of.year >= 2024
