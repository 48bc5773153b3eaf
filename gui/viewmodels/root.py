"""The composition root: every view-model of a window, built in one place.

The session view-model owns the open document; the others derive from it (analysis of
the shown build, the comparison, the suggest search) or act on it (file handling,
autosave). Preferences are separate and only seed new documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QSettings

from core.catalog import Catalog
from core.catalog.builds import default_build
from core.errors import RigForgeError
from core.models.cost import CloudRate
from core.models.session import Session
from gui.viewmodels.analysis import AnalysisViewModel
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.autosave import AutosaveViewModel
from gui.viewmodels.comparison import ComparisonViewModel
from gui.viewmodels.document import DocumentViewModel
from gui.viewmodels.fixplan import FixPlanViewModel
from gui.viewmodels.prices import PricesViewModel
from gui.viewmodels.session import SessionViewModel, default_workload
from gui.viewmodels.settings import SettingsViewModel
from gui.viewmodels.suggest import SuggestViewModel


@dataclass(frozen=True)
class ViewModels:
    session: SessionViewModel
    analysis: AnalysisViewModel
    document: DocumentViewModel
    comparison: ComparisonViewModel
    suggest: SuggestViewModel
    settings: SettingsViewModel
    autosave: AutosaveViewModel | None
    cache: AnalysisCache
    prices: PricesViewModel
    plan: FixPlanViewModel

    def all(self) -> tuple[QObject, ...]:
        models: tuple[QObject | None, ...] = (
            self.session,
            self.analysis,
            self.document,
            self.comparison,
            self.suggest,
            self.settings,
            self.autosave,
            self.prices,
            self.plan,
        )
        return tuple(m for m in models if m is not None)


def new_session(catalog: Catalog, settings: SettingsViewModel) -> Session:
    """The bundled default build and workload, with the user's defaults for new documents."""
    return Session(
        builds=(default_build(catalog),),
        workload=default_workload(),
        settings=settings.settings.document_defaults,
    )


def analysable(cache: AnalysisCache, session: Session) -> str | None:
    """``None`` when the session's shown build analyses, else why not (in words)."""
    try:
        cache.analysis(session.build, session.workload, session.settings)
    except RigForgeError as error:
        return f"that change cannot be analysed: {error}"
    return None


def build_view_models(
    catalog: Catalog,
    cloud_rates: tuple[CloudRate, ...],
    *,
    store: QSettings | None = None,
    settings_path: Path | None = None,
    autosave_dir: Path | None = None,
    autosave_interval_ms: int | None = None,
    prices: PricesViewModel | None = None,
) -> ViewModels:
    """Every view-model of one window. ``prices`` owns the price-aware catalog (``catalog``
    is used only when none is given: the prices then stay as loaded)."""
    if prices is not None:
        catalog = prices.catalog
    else:
        prices = PricesViewModel(fixed=catalog)
    settings = SettingsViewModel(settings_path)
    cache = AnalysisCache(catalog, cloud_rates)
    session = SessionViewModel(catalog, new_session(catalog, settings))
    session.gate = lambda edited: analysable(cache, edited)
    analysis = AnalysisViewModel(session, cache)
    document = DocumentViewModel(session, cache, store)
    comparison = ComparisonViewModel(session, cache, lambda: settings.money)
    suggest = SuggestViewModel(session)
    autosave = (
        AutosaveViewModel(document, autosave_dir, autosave_interval_ms)
        if autosave_interval_ms is not None
        else AutosaveViewModel(document, autosave_dir)
    )

    def on_prices_changed(priced: Catalog) -> None:  # new prices reach every analysis
        cache.set_catalog(priced)
        session.catalog = priced
        analysis.refresh()
        comparison.refresh()

    prices.catalog_changed.connect(on_prices_changed)
    plan = FixPlanViewModel(session, cache)
    return ViewModels(
        session, analysis, document, comparison, suggest, settings, autosave, cache, prices, plan
    )
