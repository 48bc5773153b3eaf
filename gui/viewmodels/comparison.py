"""Several builds side by side: one analysis per build of the document, same workload.

The builds are the document's (``DocumentViewModel.builds``), so Save and Open
keep every variant. The editor shows one of them (the *shown* build, the
document's baseline position); deltas are taken against a *reference* build the
user picks. Any edit of the shown build, the workload or the settings
re-evaluates every build (cached per build: an analysis takes about a
millisecond) and ``comparison_changed`` is emitted only when the result differs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Signal

from core.calc.analysis import Analysis, analyze
from core.calc.platform.power import power_budget
from core.calc.suggest.rank import pareto_indices
from core.catalog.builds import default_build
from core.models.build import Build
from core.models.power import PowerBudget
from core.models.settings import AnalysisSettings
from core.models.workload import Workload
from core.text.compare import CompareRow, compare_rows
from gui.viewmodels.analysis import AnalysisViewModel


@dataclass(frozen=True)
class ComparisonState:
    """What the comparison views draw."""

    analyses: tuple[Analysis, ...]
    powers: tuple[PowerBudget, ...]
    rows: tuple[CompareRow, ...]
    front: tuple[int, ...]
    """Pareto front of (parts cost, throughput) over the builds with a throughput, cheapest
    first (``core.calc.suggest.rank.pareto_indices``; costs of unpriced parts are left out)."""
    shown: int
    """The build the editor shows."""
    reference: int
    """The build the deltas are taken against."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.build.name for a in self.analyses)

    @property
    def unit(self) -> str:
        return next((a.throughput.unit for a in self.analyses if a.throughput), "")


def pareto_front(analyses: tuple[Analysis, ...]) -> tuple[int, ...]:
    """Indices of the builds no other build beats on (parts cost, throughput)."""
    known = [i for i, a in enumerate(analyses) if a.throughput is not None]
    if not known:
        return ()
    cost = np.array([analyses[i].cost.total_usd for i in known], dtype=np.float64)
    thr = np.array(
        [analyses[i].throughput.total_throughput for i in known],  # type: ignore[union-attr]
        dtype=np.float64,
    )
    return tuple(known[k] for k in pareto_indices(cost, thr))


class ComparisonViewModel(QObject):
    comparison_changed = Signal(object)
    """Emitted with the new ``ComparisonState``."""

    def __init__(self, analysis: AnalysisViewModel) -> None:
        super().__init__()
        self.analysis_view_model = analysis
        self.document = analysis.document
        self._cache: list[tuple[Build, Analysis, PowerBudget]] = []
        self._cache_key: tuple[Workload, AnalysisSettings] | None = None
        self._reference = self.document.baseline
        self._active = True
        self._stale = False
        self._state = self._compute()
        analysis.analysis_changed.connect(self._on_analysis_changed)
        self.document.builds_changed.connect(self._on_document_builds_changed)

    # -- state ---------------------------------------------------------------------

    @property
    def state(self) -> ComparisonState:
        return self._state

    @property
    def builds(self) -> tuple[Build, ...]:
        return self.document.builds

    def _evaluate(self, build: Build) -> tuple[Analysis, PowerBudget]:
        vm = self.analysis_view_model
        key = (vm.workload, vm.settings)
        if key != self._cache_key:
            self._cache, self._cache_key = [], key
        for cached, analysis, power in self._cache:
            if cached == build:
                return analysis, power
        analysis = analyze(build, vm.workload, vm.settings, vm.catalog)
        power = power_budget(build, vm.settings)
        self._cache.append((build, analysis, power))
        del self._cache[: -4 * max(len(self.document.builds), 4)]
        return analysis, power

    def _compute(self) -> ComparisonState:
        results = [self._evaluate(b) for b in self.document.builds]
        analyses = tuple(r[0] for r in results)
        powers = tuple(r[1] for r in results)
        self._reference = min(self._reference, len(analyses) - 1)
        return ComparisonState(
            analyses=analyses,
            powers=powers,
            rows=tuple(compare_rows(analyses, powers)),
            front=pareto_front(analyses),
            shown=self.document.baseline,
            reference=self._reference,
        )

    def set_active(self, active: bool) -> None:
        """Recompute on edits only while a view shows the comparison; catch up when shown.

        Editing the shown build then costs one analysis, not one per build.
        """
        self._active = active
        if active and self._stale:
            self.refresh()

    def refresh(self) -> None:
        if not self._active:
            self._stale = True
            return
        self._stale = False
        state = self._compute()
        if state != self._state:
            self._state = state
            self.comparison_changed.emit(state)

    def _on_analysis_changed(self, _analysis: Analysis) -> None:
        self.refresh()

    def _on_document_builds_changed(self, _builds: object) -> None:
        self.refresh()

    # -- intents ---------------------------------------------------------------------

    def select(self, index: int) -> None:
        """Show build ``index`` in the editor (its undo history starts afresh)."""
        if index != self.document.baseline:
            self.document.select_build(index)
            self.analysis_view_model.undo_stack.clear()

    def set_reference(self, index: int) -> None:
        if 0 <= index < len(self.builds) and index != self._reference:
            self._reference = index
            self.refresh()

    def add_build(self, build: Build | None = None) -> int:
        """Add ``build`` (default: the bundled default build) and show it; its index."""
        if build is None:
            build = default_build(self.analysis_view_model.catalog)
        names = {b.name for b in self.builds}
        build = build.model_copy(update={"name": _unique(build.name, names)})
        builds = (*self.builds, build)
        self._set_builds(builds, len(builds) - 1)
        return len(builds) - 1

    def duplicate(self, index: int) -> int:
        """Copy build ``index`` as a variant right after it and show the copy."""
        source = self.builds[index]
        names = {b.name for b in self.builds}
        copy = source.model_copy(update={"name": _unique(f"{source.name} (copy)", names)})
        builds = (*self.builds[: index + 1], copy, *self.builds[index + 1 :])
        if self._reference > index:
            self._reference += 1
        self._set_builds(builds, index + 1)
        return index + 1

    def remove(self, index: int) -> str | None:
        """Remove build ``index``; a message when it is the last one."""
        if len(self.builds) <= 1:
            return "a comparison keeps at least one build"
        builds = self.builds[:index] + self.builds[index + 1 :]
        shown = self.document.baseline
        shown = shown - 1 if shown > index else min(shown, len(builds) - 1)
        if self._reference >= index and self._reference > 0:
            self._reference -= 1
        self._set_builds(builds, shown)
        return None

    def rename(self, index: int, name: str) -> str | None:
        name = name.strip()
        if not name:
            return "a build needs a name"
        if name == self.builds[index].name:
            return None
        builds = list(self.builds)
        builds[index] = builds[index].model_copy(update={"name": name})
        self._set_builds(tuple(builds), self.document.baseline)
        return None

    def _set_builds(self, builds: tuple[Build, ...], shown: int) -> None:
        self.document.set_builds(builds, shown)
        # the undo stack holds whole builds of the one shown before: it cannot undo across
        self.analysis_view_model.undo_stack.clear()
        self.refresh()


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name} {n}" in taken:
        n += 1
    return f"{name} {n}"
