"""What a build sheet shows: each build's analysis, power and cost, plus the metadata.

The figures are computed exactly as ``AnalysisViewModel`` computes them
(``analyze``, ``power_budget``, ``analysis_cost`` with the bundled cloud rates),
so a sheet's numbers are the numbers on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from core import __version__
from core.calc.analysis import Analysis, analyze
from core.calc.cost.tco import analysis_cost
from core.calc.platform.power import power_budget
from core.catalog import Catalog
from core.models.build import Build
from core.models.cost import CostReport
from core.models.power import PowerBudget
from core.models.settings import AnalysisSettings
from core.models.workload import Workload
from core.prices.cloud import load_cloud_rates
from core.text.summary import Money


def usd(usd: float | None, digits: int = 0) -> str:
    """The app's default money format (USD), "unknown" for ``None``."""
    return "unknown" if usd is None else f"${usd:,.{digits}f}"


@dataclass(frozen=True)
class SheetBuild:
    """One build's results, as the window holds them."""

    analysis: Analysis
    power: PowerBudget
    cost: CostReport

    @property
    def name(self) -> str:
        return self.analysis.build.name


@dataclass(frozen=True)
class BuildSheet:
    """Everything a sheet prints; ``builds[0]`` is the baseline."""

    builds: tuple[SheetBuild, ...]
    title: str = ""
    notes: str = ""
    author: str = ""
    created: date = field(default_factory=date.today)
    workload_origin: str = "the file"
    """Where the workload comes from, said on the sheet ("the file", "the app's default")."""
    catalog_date: str | None = None
    prices_oldest: str | None = None
    cloud_rates_date: str = ""
    app_version: str = __version__
    money: Money = usd

    @property
    def is_comparison(self) -> bool:
        return len(self.builds) > 1

    @property
    def heading(self) -> str:
        return self.title or self.builds[0].name


def sheet_build(
    build: Build, workload: Workload | None, settings: AnalysisSettings, catalog: Catalog | None
) -> SheetBuild:
    analysis = analyze(build, workload, settings, catalog)
    power = power_budget(build, settings)
    cost = analysis_cost(analysis, rates=load_cloud_rates().rates)
    return SheetBuild(analysis=analysis, power=power, cost=cost)


def sheet_from_builds(
    builds: Sequence[Build],
    workload: Workload | None,
    settings: AnalysisSettings,
    catalog: Catalog,
    *,
    baseline: int = 0,
    title: str = "",
    notes: str = "",
    author: str = "",
    workload_origin: str = "the file",
    money: Money = usd,
) -> BuildSheet:
    """Analyse ``builds`` (baseline first) and gather the sheet's metadata."""
    ordered = [builds[baseline], *(b for i, b in enumerate(builds) if i != baseline)]
    priced = [p.price.as_of for p in catalog.parts() if p.price.as_of is not None]
    return BuildSheet(
        builds=tuple(sheet_build(b, workload, settings, catalog) for b in ordered),
        title=title,
        notes=notes,
        author=author,
        workload_origin=workload_origin,
        catalog_date=catalog.snapshot_date,
        prices_oldest=min(priced).isoformat() if priced else None,
        cloud_rates_date=load_cloud_rates().as_of.isoformat(),
        money=money,
    )
