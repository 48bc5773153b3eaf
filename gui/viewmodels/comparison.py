"""Several builds side by side: one analysis per build of the document, same workload.

The builds are the session's, so Save and Open keep every variant. The editor shows one
of them (the *shown* build); deltas are taken against a *reference* build the user picks.
Any change of the session re-evaluates every build through the shared ``AnalysisCache``
(an unchanged build is not analysed again) and ``comparison_changed`` is emitted only
when the result differs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Signal

from core.calc.inference.launch import launch_command
from core.calc.suggest.rank import pareto_indices
from core.calc.system import serve_plan
from core.models.analysis import Analysis
from core.models.build import Build
from core.models.session import Session, SystemPlan
from core.models.system import SystemServing
from core.text.compare import CompareRow, compare_rows, headline
from core.text.money import USD, Money
from core.text.systems import system_report
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.session import SessionViewModel


@dataclass(frozen=True)
class ComparisonState:
    """What the comparison views draw."""

    analyses: tuple[Analysis, ...]
    rows: tuple[CompareRow, ...]
    front: tuple[int, ...]
    """Pareto front of (parts cost, throughput; for serving aggregate generation speed)
    over the builds that can be built and are fully priced, cheapest first
    (``core.calc.suggest.rank.pareto_indices``)."""
    shown: int
    """The build the editor shows."""
    reference: int
    """The build the deltas are taken against."""
    systems: tuple[tuple[str, SystemServing | str], ...] = ()
    """Each prebuilt system compared beside the builds: its name and its serving plan for
    the workload, or why there is none (in words)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.build.name for a in self.analyses)

    @property
    def unit(self) -> str:
        return next((a.cost.throughput_unit or "" for a in self.analyses if headline(a)), "")


def _key(state: ComparisonState) -> tuple[object, ...]:
    """What makes two states differ: the analyses (cached objects), shown and reference
    builds, and the money format of the rows."""
    return (
        tuple(id(a) for a in state.analyses),
        state.shown,
        state.reference,
        tuple(r.texts for r in state.rows[:3]),
        tuple(id(s) for _name, s in state.systems),
    )


def pareto_front(analyses: tuple[Analysis, ...]) -> tuple[int, ...]:
    """Indices of the builds no other build beats on (parts cost, throughput).

    Only builds with a throughput, a known total (an unknown price is never zero) and that
    work as they are (no failing check) take part.
    """
    known = [
        i
        for i, a in enumerate(analyses)
        if headline(a) and a.cost.parts.total_usd is not None and a.verdict == "pass"
    ]
    if not known:
        return ()
    cost = np.array([analyses[i].cost.parts.total_usd for i in known], dtype=np.float64)
    thr = np.array([headline(analyses[i]) for i in known], dtype=np.float64)
    return tuple(known[k] for k in pareto_indices(cost, thr))


@dataclass(frozen=True)
class ChartBox:
    """One build or prebuilt system as the four charts draw it."""

    label: str
    colour: int
    build: bool
    cost_usd: float | None
    throughput: float | None
    per_unit: float | None
    works: bool
    vram_share: float | None
    power_share: float | None
    scale_x: tuple[float, ...] = ()
    scale_y: tuple[float, ...] = ()
    scale_at: float | None = None


def chart_boxes(state: ComparisonState) -> list[ChartBox]:
    """The builds, then the prebuilt systems with a serving plan; each keeps its colour
    (its place in the comparison) in every chart. Training scales over 1..N GPUs, serving
    over concurrent streams."""
    boxes = []
    for i, a in enumerate(state.analyses):
        xs: tuple[float, ...] = ()
        ys: tuple[float, ...] = ()
        at = None
        if a.throughput is not None:
            xs = tuple(float(p.gpus) for p in a.throughput.scaling)
            ys = tuple(p.total_throughput for p in a.throughput.scaling)
            at = float(a.throughput.gpus)
        elif a.inference is not None:
            curve = a.inference.speed.by_streams
            xs, ys = tuple(p.x for p in curve), tuple(p.tokens_s for p in curve)
            at = float(a.inference.speed.streams)
        vram = None
        if a.vram is not None:
            vram = a.vram.total_gib / a.vram.capacity_gib
        elif a.inference is not None and a.inference.memory.capacity_gib:
            vram = a.inference.memory.total_gib / a.inference.memory.capacity_gib
        p = a.power
        boxes.append(
            ChartBox(
                label=state.names[i],
                colour=i,
                build=True,
                cost_usd=a.cost.parts.total_usd,
                throughput=headline(a),
                per_unit=a.cost.per_throughput_usd,
                works=a.verdict == "pass",
                vram_share=vram,
                power_share=None if p.wall_w is None else p.wall_w / p.circuit_continuous_w,
                scale_x=xs,
                scale_y=ys,
                scale_at=at,
            )
        )
    for k, (name, served) in enumerate(state.systems):
        if isinstance(served, str):
            continue
        speed = served.speed
        thr = speed.aggregate_decode_tokens_s or None
        cost = served.parts_usd
        circuit = next((c for c in served.checks if c.reason.startswith("circuit_")), None)
        power = None
        if circuit is not None:
            power = float(circuit.numbers["wall_w"]) / float(circuit.numbers["limit_w"])
        boxes.append(
            ChartBox(
                label=name,
                colour=len(state.analyses) + k,
                build=False,
                cost_usd=cost,
                throughput=thr,
                per_unit=cost / thr if cost is not None and thr else None,
                works=served.verdict == "pass",
                vram_share=served.memory.total_gib / served.gpu_gib,
                power_share=power,
                scale_x=tuple(p.x for p in speed.by_streams),
                scale_y=tuple(p.tokens_s for p in speed.by_streams),
                scale_at=float(speed.streams),
            )
        )
    return boxes


def chart_front(plotted: list[ChartBox]) -> tuple[int, ...]:
    """Positions among the plotted points of those no other working one beats on cost and
    throughput (``core.calc.suggest.rank.pareto_indices``)."""
    works = [i for i, b in enumerate(plotted) if b.works]
    if not works:
        return ()
    cost = np.array([plotted[i].cost_usd for i in works], dtype=np.float64)
    thr = np.array([plotted[i].throughput for i in works], dtype=np.float64)
    return tuple(works[k] for k in pareto_indices(cost, thr))


class ComparisonViewModel(QObject):
    comparison_changed = Signal(object)
    """Emitted with the new ``ComparisonState``."""

    def __init__(
        self,
        session: SessionViewModel,
        cache: AnalysisCache,
        money: Callable[[], Money] = lambda: USD,
    ) -> None:
        super().__init__()
        self.session_view_model = session
        self.cache = cache
        self._money = money
        self._reference = session.session.shown
        self._systems: dict[tuple[object, ...], SystemServing | str] = {}
        self._active = False
        self._stale = False
        self._state = self._compute(session.session)
        session.session_changed.connect(self._on_session_changed)

    # -- state ---------------------------------------------------------------------

    @property
    def state(self) -> ComparisonState:
        """The last state computed (while hidden it lags behind the session)."""
        return self._state

    @property
    def builds(self) -> tuple[Build, ...]:
        return self.session_view_model.session.builds

    def _compute(self, session: Session) -> ComparisonState:
        analyses = tuple(
            self.cache.analysis(b, session.workload, session.settings) for b in session.builds
        )
        self._reference = min(self._reference, len(analyses) - 1)
        return ComparisonState(
            analyses=analyses,
            rows=tuple(compare_rows(analyses, self._money())),
            front=pareto_front(analyses),
            shown=session.shown,
            reference=self._reference,
            systems=tuple(self._system(plan, session) for plan in session.systems),
        )

    def _system(self, plan: SystemPlan, session: Session) -> tuple[str, SystemServing | str]:
        """The plan on the session's workload (cached per plan, workload and settings)."""
        key = (plan, session.workload, session.settings)
        if key not in self._systems:
            if len(self._systems) > 256:
                self._systems.clear()
            self._systems[key] = serve_plan(plan, session.workload, session.settings)
        return plan.name, self._systems[key]

    def systems_for(self, session: Session) -> tuple[tuple[str, SystemServing | str], ...]:
        """Each of ``session``'s systems with its plan for the session's workload."""
        return tuple(self._system(plan, session) for plan in session.systems)

    def system_details(self, index: int) -> tuple[str, str, str | None]:
        """(title, report, launch command) of the comparison's ``index``-th system: every
        figure, note and check of its plan, or why it has none."""
        name, served = self.state.systems[index]
        if isinstance(served, str):
            return name, served, None
        workload = self.session_view_model.session.workload
        command = (
            launch_command(workload, 1, nodes=served.nodes, backend=served.backend)
            if workload
            else None
        )
        return name, "\n".join(system_report(served)), command

    def add_system(self, system_id: str, nodes: int = 1) -> int | str:
        return self.session_view_model.add_system(system_id, nodes)

    def remove_system(self, index: int) -> str | None:
        return self.session_view_model.remove_system(index)

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
        state = self._compute(self.session_view_model.session)
        if _key(state) != _key(self._state):
            self._state = state
            self.comparison_changed.emit(state)

    def _on_session_changed(self, _session: Session) -> None:
        self.refresh()

    # -- intents ---------------------------------------------------------------------

    def select(self, index: int) -> None:
        """Show build ``index`` in the editor."""
        self.session_view_model.select_build(index)

    def set_reference(self, index: int) -> None:
        if 0 <= index < len(self.builds) and index != self._reference:
            self._reference = index
            self.refresh()

    def add_build(self, build: Build | None = None) -> int | str:
        return self.session_view_model.add_build(build)

    def duplicate(self, index: int) -> int | str:
        if self._reference > index:
            self._reference += 1
        return self.session_view_model.duplicate_build(index)

    def remove(self, index: int) -> str | None:
        error = self.session_view_model.remove_build(index)
        if error is None and self._reference >= index and self._reference > 0:
            self._reference -= 1
            self.refresh()
        return error

    def rename(self, index: int, name: str) -> str | None:
        return self.session_view_model.rename_build(index, name)
