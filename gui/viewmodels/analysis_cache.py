"""Analyses of builds, remembered so each build of a session is analysed once.

An edit replaces one build of the session and keeps the others as the same objects, so
the lookup tries identity first (no deep comparison) and falls back to equality. Shared
by the Build tab, Compare and the document (which analyses every build when a file
opens), so opening a 64-build file runs exactly one analysis per build.
"""

from __future__ import annotations

from collections import OrderedDict

from core.calc import analyze
from core.catalog import Catalog
from core.models.analysis import Analysis
from core.models.build import Build
from core.models.cost import CloudRate
from core.models.settings import AnalysisSettings
from core.models.workload import Workload

Key = tuple[Build, Workload | None, AnalysisSettings]


class AnalysisCache:
    def __init__(
        self, catalog: Catalog, cloud_rates: tuple[CloudRate, ...], capacity: int = 256
    ) -> None:
        self.catalog = catalog
        self.cloud_rates = cloud_rates
        self.capacity = capacity
        self._entries: OrderedDict[int, tuple[Key, Analysis]] = OrderedDict()
        self.computed = 0
        """How many analyses ran (benchmarks and tests count them)."""

    def analysis(
        self, build: Build, workload: Workload | None, settings: AnalysisSettings
    ) -> Analysis:
        for token, ((b, w, s), result) in self._entries.items():
            if b is build and w is workload and s is settings:
                self._entries.move_to_end(token)
                return result
        for token, ((b, w, s), result) in reversed(self._entries.items()):
            if w == workload and s == settings and b == build:
                self._entries.move_to_end(token)
                return result
        result = analyze(build, workload, settings, self.catalog, cloud_rates=self.cloud_rates)
        self.computed += 1
        self._entries[id(result)] = ((build, workload, settings), result)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
        return result

    def set_catalog(self, catalog: Catalog) -> None:
        """New prices (a feed update, an override): every analysis is stale."""
        self.catalog = catalog
        self._entries.clear()
