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


def build_key(build: Build) -> tuple[object, ...]:
    """What tells builds apart in practice: names, part ids and counts (equal keys are then
    compared whole, so two snapshots of one part id never share an analysis)."""
    return (
        build.name,
        build.gpu.id,
        build.gpu_count,
        build.gpu_power_limit_w,
        build.nvlink_bridges,
        build.cpu.id,
        build.cpu_count,
        build.motherboard.id,
        build.memory.id,
        build.memory_kits,
        tuple((d.drive.id, d.count) for d in build.drives),
        build.psu.id if build.psu else None,
        build.psu_count,
        build.case.id if build.case else None,
        build.riser.id if build.riser else None,
        build.used,
    )


class AnalysisCache:
    def __init__(
        self, catalog: Catalog, cloud_rates: tuple[CloudRate, ...], capacity: int = 256
    ) -> None:
        self.catalog = catalog
        self.cloud_rates = cloud_rates
        self.capacity = capacity
        self._entries: OrderedDict[tuple[object, ...], list[tuple[Key, Analysis]]] = OrderedDict()
        self.computed = 0
        """How many analyses ran (benchmarks and tests count them)."""

    def analysis(
        self, build: Build, workload: Workload | None, settings: AnalysisSettings
    ) -> Analysis:
        key = build_key(build)
        bucket = self._entries.get(key)
        if bucket is not None:
            self._entries.move_to_end(key)
            for (b, w, s), result in bucket:
                if (
                    (b is build or b == build)
                    and (w is workload or w == workload)
                    and (s is settings or s == settings)
                ):
                    return result
        result = self.compute(build, workload, settings)
        self.store(build, workload, settings, result)
        return result

    def compute(
        self, build: Build, workload: Workload | None, settings: AnalysisSettings
    ) -> Analysis:
        """Analyse without touching the cache (safe from a worker thread: the catalog and
        rates are immutable)."""
        result = analyze(build, workload, settings, self.catalog, cloud_rates=self.cloud_rates)
        self.computed += 1
        return result

    def store(
        self,
        build: Build,
        workload: Workload | None,
        settings: AnalysisSettings,
        result: Analysis,
    ) -> None:
        """Remember an analysis (one made by ``compute``, possibly in a worker thread)."""
        key = build_key(build)
        self._entries.setdefault(key, []).append(((build, workload, settings), result))
        self._entries.move_to_end(key)
        del self._entries[key][:-8]  # a few workloads/settings per build
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def set_catalog(self, catalog: Catalog) -> None:
        """New prices (a feed update, an override): every analysis is stale."""
        self.catalog = catalog
        self._entries.clear()
