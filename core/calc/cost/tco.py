"""Running cost and ownership: electricity, TCO over N years, renting the same GPUs.

Formulas (elementary, stated so a reader can check them by hand):

- energy per year [kWh] = wall power [W] × utilization × 8,760 h / 1,000
- electricity per year = energy × price per kWh
- TCO over N years = parts + N × electricity per year (no resale value, repairs,
  space or admin time: an assumption the app states)
- cloud cost per year = rate per GPU-hour × GPUs × 8,760 h × utilization
  (the cloud is paid only for the hours used)
- break-even months m solve parts + m × electricity/month = m × cloud/month,
  so m = parts / (cloud/month − electricity/month) when the cloud costs more per
  month; otherwise renting never costs more and there is no break-even.

Source: on-demand hourly rates per GPU from resources/cloud/cloud_rates.json,
each row with its provider, date and source.
"""

from __future__ import annotations

from core.calc.platform.power import HOURS_PER_YEAR, energy_kwh_per_year
from core.models.cost import CloudComparison, CloudRate, CostReport, PartsCost, PriceLine
from core.models.parts import GPU

MONTHS_PER_YEAR = 12.0


def electricity_usd_per_year(wall_w: float, utilization: float, usd_per_kwh: float) -> float:
    return energy_kwh_per_year(wall_w, utilization) * usd_per_kwh


def total_cost_of_ownership(
    parts_usd: float, electricity_per_year_usd: float, years: float
) -> float:
    """Parts plus ``years`` of electricity."""
    return parts_usd + years * electricity_per_year_usd


def cheapest_rate(rates: tuple[CloudRate, ...], gpu_id: str) -> CloudRate | None:
    """The lowest on-demand rate per GPU-hour listed for ``gpu_id``."""
    matching = [r for r in rates if r.gpu_id == gpu_id]
    return min(matching, key=lambda r: r.usd_per_gpu_hour) if matching else None


def break_even_months(
    parts_usd: float, electricity_per_month_usd: float, cloud_per_month_usd: float
) -> float | None:
    """Months after which owning costs less than renting; ``None`` if never."""
    saving = cloud_per_month_usd - electricity_per_month_usd
    if saving <= 0:
        return None
    return parts_usd / saving


def cloud_comparison(
    rate: CloudRate,
    gpus: int,
    utilization: float,
    parts_usd: float,
    electricity_per_year_usd: float,
) -> CloudComparison:
    hours = HOURS_PER_YEAR * utilization
    cloud_year = rate.usd_per_gpu_hour * gpus * hours
    return CloudComparison(
        rate=rate,
        gpus=gpus,
        hours_per_year=hours,
        cloud_usd_per_year=cloud_year,
        break_even_months=break_even_months(
            parts_usd,
            electricity_per_year_usd / MONTHS_PER_YEAR,
            cloud_year / MONTHS_PER_YEAR,
        ),
    )


def cost_report(
    parts: PartsCost,
    lines: tuple[PriceLine, ...],
    *,
    gpu: GPU,
    gpus: int,
    throughput: float | None,
    throughput_unit: str | None,
    wall_w: float | None,
    utilization: float,
    usd_per_kwh: float,
    years: int = 3,
    rates: tuple[CloudRate, ...] = (),
) -> CostReport:
    """Every cost figure of a build; figures that need an unknown input are ``None``.

    Cost per throughput, TCO and break-even need every part priced (a partial
    total would flatter the build); energy and throughput per watt do not.
    """
    total = parts.total_usd
    per_unit = total / throughput if total is not None and throughput else None
    per_watt = throughput / wall_w if throughput and wall_w else None
    energy = electricity = tco = None
    if wall_w is not None:
        energy = energy_kwh_per_year(wall_w, utilization)
        electricity = energy * usd_per_kwh
        if total is not None:
            tco = total_cost_of_ownership(total, electricity, years)
    cloud = None
    rate = cheapest_rate(rates, gpu.id)
    if rate is not None and total is not None and electricity is not None:
        cloud = cloud_comparison(rate, gpus, utilization, total, electricity)
    return CostReport(
        parts=parts,
        lines=lines,
        throughput=throughput,
        throughput_unit=throughput_unit,
        per_throughput_usd=per_unit,
        wall_w=wall_w,
        throughput_per_watt=per_watt,
        energy_kwh_per_year=energy,
        electricity_usd_per_year=electricity,
        years=years,
        tco_usd=tco,
        cloud=cloud,
    )
