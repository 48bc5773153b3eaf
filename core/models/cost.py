"""Frozen results and reference data of the cost model: price lines, cloud rates, TCO."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from core.models.common import Frozen, NonEmptyStr, PartId

PriceOrigin = Literal["catalog", "feed", "override", "file"]
"""Where a part's price came from: the bundled catalog, the price feed, the user's
override, or the build file (the price its snapshot or custom part carries, when that
differs from the bundled catalog's or the part has no catalog entry)."""

PositiveUsd = Annotated[float, Field(gt=0, lt=10_000_000)]
CurrencyCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]


class PartsCost(Frozen):
    """The parts total: known only when every part has a price (an unknown price is never
    counted as zero)."""

    total_usd: float | None
    """Sum over all parts; ``None`` when any part is unpriced."""
    priced_usd: float
    """Sum over the parts with a known price (what is known so far)."""
    unpriced_part_ids: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.unpriced_part_ids


class PriceLine(Frozen):
    """One line of a bill of materials with its price's date and origin."""

    part_id: PartId
    category: str
    quantity: Annotated[int, Field(ge=1)]
    name: str = ""
    unit_usd: float | None
    """``None`` when no source gives a price (never guessed)."""
    line_usd: float | None
    as_of: date | None
    kind: str
    source: str
    origin: PriceOrigin = "catalog"
    condition: Literal["new", "used"] = "new"
    stale: bool = False
    """Observed more than a year before the analysis (``STALE_AFTER_DAYS``): shown with its
    age wherever it appears."""
    age_days: Annotated[int, Field(ge=-36_600, le=36_600)] | None = None


class CloudRate(Frozen):
    """One published on-demand hourly rate, per GPU, with its date and source."""

    gpu_id: PartId
    provider: NonEmptyStr
    instance: NonEmptyStr
    gpus_per_instance: Annotated[int, Field(ge=1, le=16)] = 1
    usd_per_gpu_hour: PositiveUsd
    as_of: date
    source: NonEmptyStr
    notes: str = ""


class CloudRateTable(Frozen):
    as_of: date
    notes: str = ""
    rates: Annotated[tuple[CloudRate, ...], Field(min_length=1)]


class CloudComparison(Frozen):
    """Renting the same number of the same GPU on demand, against owning the build."""

    rate: CloudRate
    """The cheapest bundled on-demand rate for the build's GPU."""
    gpus: Annotated[int, Field(ge=1)]
    hours_per_year: Annotated[float, Field(ge=0)]
    cloud_usd_per_year: Annotated[float, Field(ge=0)]
    break_even_months: float | None
    """Months of use after which owning costs less; ``None`` when renting is always cheaper
    (cloud cost per month not above the build's electricity per month) or unused."""


class CostReport(Frozen):
    """Every cost figure of one build and workload; ``None`` where an input is unknown."""

    parts: PartsCost
    lines: tuple[PriceLine, ...]
    throughput: float | None = None
    throughput_unit: str | None = None
    per_throughput_usd: float | None = None
    """Parts total per unit of throughput; ``None`` when the total or the throughput is
    unknown."""
    wall_w: float | None = None
    throughput_per_watt: float | None = None
    energy_kwh_per_year: float | None = None
    electricity_usd_per_year: float | None = None
    years: Annotated[int, Field(ge=1, le=20)] = 3
    tco_usd: float | None = None
    """Parts + years × electricity; ``None`` when a part price or the wall power is unknown."""
    cloud: CloudComparison | None = None


class CurrencyTable(Frozen):
    """Units of each currency per one unit of ``base`` on ``as_of``, with the source."""

    base: CurrencyCode
    as_of: date
    source: NonEmptyStr
    per_base: dict[CurrencyCode, Annotated[float, Field(gt=0)]]
