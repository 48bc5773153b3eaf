"""What a build sheet shows: each build's analysis (checks, power, cost), plus the metadata.

The sheet renders the same ``Analysis`` objects the window shows (or, headless, the ones
``core.calc.analyze`` gives for the same session), so its numbers are the numbers on
screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from core import __version__
from core.catalog import Catalog
from core.models.analysis import Analysis
from core.models.cost import CostReport
from core.models.power import PowerBudget
from core.models.system import SystemServing
from core.prices.cloud import load_cloud_rates
from core.text.money import USD, Money
from core.text.systems import system_row


@dataclass(frozen=True)
class SheetBuild:
    """One build's results, as the window holds them."""

    analysis: Analysis
    published: tuple[str, ...] = ()
    """Published measurements of the same GPU and workload, and the model's error there."""

    @property
    def power(self) -> PowerBudget:
        return self.analysis.power

    @property
    def cost(self) -> CostReport:
        return self.analysis.cost

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
    money: Money = USD
    systems: tuple[tuple[str, ...], ...] = ()
    """Prebuilt systems compared beside the builds, one row each (``core.text.systems``)."""
    system_sources: tuple[tuple[str, ...], ...] = ()
    """Each system's sources, in the order of ``systems``."""

    @property
    def is_comparison(self) -> bool:
        return len(self.builds) > 1

    @property
    def heading(self) -> str:
        return self.title or self.builds[0].name


def _published(a: Analysis, catalog: Catalog) -> tuple[str, ...]:
    from core.validation.published import expected_error_pct, published_for

    w = a.workload
    if w is None or a.throughput is None or w.is_serving:
        return ()
    lines = [p.text() for p in published_for(catalog, a.build.gpu.id, w.preset_id, w.precision)]
    error = expected_error_pct(w.preset_id)
    if lines and error is not None and w.stack == "pytorch-eager":
        lines.append(f"model error on this workload's published runs: ±{error:.0f} % median")
    return tuple(lines[:5])


def sheet_from_analyses(
    analyses: Sequence[Analysis],
    catalog: Catalog,
    *,
    baseline: int = 0,
    title: str = "",
    notes: str = "",
    author: str = "",
    workload_origin: str = "the file",
    money: Money = USD,
    systems: Sequence[tuple[str, SystemServing | str]] = (),
) -> BuildSheet:
    """The sheet of ``analyses`` (the baseline first) with its metadata."""
    ordered = [analyses[baseline], *(a for i, a in enumerate(analyses) if i != baseline)]
    dated = [line.as_of for a in ordered for line in a.cost.lines if line.as_of is not None]
    return BuildSheet(
        builds=tuple(SheetBuild(a, _published(a, catalog)) for a in ordered),
        title=title,
        notes=notes,
        author=author,
        workload_origin=workload_origin,
        catalog_date=catalog.snapshot_date,
        prices_oldest=min(dated).isoformat() if dated else None,
        cloud_rates_date=load_cloud_rates().as_of.isoformat(),
        money=money,
        systems=tuple(system_row(name, served, money) for name, served in systems),
        system_sources=tuple(
            () if isinstance(served, str) else served.system.sources for _n, served in systems
        ),
    )
