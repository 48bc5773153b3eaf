"""The one result of analysing a build running a workload: what every view shows.

``core.calc.analyze`` fills it; the Build tab, Compare, Suggest, the PDF and the CLI
render from it and never recombine core pieces on their own.
"""

from __future__ import annotations

from core.models.build import Build
from core.models.checks import Check, Verdict
from core.models.common import Frozen
from core.models.cost import CostReport
from core.models.inference import InferenceResult
from core.models.memory import VramResult
from core.models.pcie import PcieAssignment
from core.models.power import PowerBudget
from core.models.settings import AnalysisSettings
from core.models.throughput import ThroughputResult
from core.models.workload import Workload


class Analysis(Frozen):
    build: Build
    workload: Workload | None
    settings: AnalysisSettings
    checks: tuple[Check, ...]
    verdict: Verdict
    """Works, works with changes of how it runs, or won't work (``core.calc.verdict``)."""
    vram: VramResult | None = None
    throughput: ThroughputResult | None = None
    inference: InferenceResult | None = None
    """LLM serving (decoder inference): memory, prefill, time to first token, generation
    speed and cost per million tokens. ``vram`` and ``throughput`` are ``None`` then."""
    power: PowerBudget
    pcie: PcieAssignment
    cost: CostReport
    """Prices applied (catalog, feed, overrides), totals, cost per throughput, energy,
    TCO and cloud break-even; unknown figures are ``None``."""

    def check(self, check_id: str) -> Check | None:
        return next((c for c in self.checks if c.id == check_id), None)
