"""The Build tab's second kind of build: a prebuilt unified-memory system (DGX Spark and
its OEM boxes, Ryzen AI Max+ 395 systems, Mac Studio and Mac mini), one or two of them
linked, planned for the document's workload.

The systems are the document's (``Session.systems``, saved in its file and shown in
Compare); which one the Build tab shows is navigation, not an edit. Editing it (another
system, one or two nodes) goes through the session's undo stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from core.calc.inference.launch import launch_command
from core.calc.memory import estimate_vram
from core.calc.system import serve_plan
from core.catalog.systems import load_systems
from core.errors import RigForgeError
from core.models.session import Session, SystemPlan
from core.models.system import SystemServing
from core.models.workload import Workload
from core.text.systems import memory_share_note, system_report
from core.text.verdict import checks_verdict
from core.text.vram import render
from gui.viewmodels.session import SessionViewModel

MULTI_GPU_FIXES = ("zero", "add_gpus", "tensor_parallel", "pipeline_parallel")
"""Memory fixes that spread the work over more GPUs: a system has one."""
DEFAULT_SYSTEM = "dgx-spark-128gb"
"""The system a document without one starts the prebuilt kind with."""


@dataclass(frozen=True)
class SystemView:
    """What the Build tab shows of the system: its plan, the verdict line, every figure
    and check (plain text), and the engine command line it assumes."""

    index: int
    plan: SystemPlan
    verdict: str
    report: str
    command: str | None


class SystemBuildViewModel(QObject):
    changed = Signal()
    """The kind shown, the system shown, or its plan changed."""

    def __init__(self, session: SessionViewModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._vm = session
        self._index: int | None = None
        self._cache: dict[tuple[object, ...], SystemServing | str] = {}
        """Plans by (plan, workload, settings): the frozen objects themselves, so a freed
        one's id can never stand for a new one."""
        session.session_changed.connect(self._on_session_changed)

    @property
    def index(self) -> int | None:
        """The system the Build tab shows; ``None``: the build assembled from parts."""
        return self._index

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        """(id, name) of every prebuilt system the catalog holds."""
        return tuple((s.id, s.name) for s in load_systems())

    def show_parts(self) -> None:
        if self._index is not None:
            self._index = None
            self.changed.emit()

    def show_system(self, index: int | None = None) -> int | str:
        """Show the document's system ``index`` (the first by default), adding the default
        system when the document has none; its index, or why not."""
        systems = self._vm.session.systems
        if not systems:
            added = self._vm.add_system(DEFAULT_SYSTEM)
            if isinstance(added, str):
                return added
            index = added
        index = 0 if index is None else index
        if not 0 <= index < len(self._vm.session.systems):
            return "no such system"
        if index != self._index:
            self._index = index
            self.changed.emit()
        return index

    def set_system(self, system_id: str) -> str | None:
        plan = self.plan
        if plan is None or self._index is None:
            return "no system shown"
        if plan.system.id == system_id:
            return None
        return self._vm.set_system(self._index, system_id, plan.nodes)

    def set_nodes(self, nodes: int) -> str | None:
        plan = self.plan
        if plan is None or self._index is None:
            return "no system shown"
        if plan.nodes == nodes:
            return None
        return self._vm.set_system(self._index, plan.system.id, nodes)

    @property
    def plan(self) -> SystemPlan | None:
        systems = self._vm.session.systems
        if self._index is None or not 0 <= self._index < len(systems):
            return None
        return systems[self._index]

    def view(self) -> SystemView | None:
        """The shown system on the document's workload (``None``: parts are shown)."""
        plan = self.plan
        if plan is None or self._index is None:
            return None
        session = self._vm.session
        workload = session.workload
        if workload is not None and not workload.is_serving:
            return self._training_view(self._index, plan, workload)
        served = self._served(plan, session)
        if isinstance(served, str):
            return SystemView(self._index, plan, "No serving plan", served, None)
        verdict = checks_verdict(served.checks, served.verdict).text
        report = "\n".join(system_report(served))
        workload = session.workload
        command = (
            launch_command(workload, 1, nodes=served.nodes, backend=served.backend)
            if workload
            else None
        )
        return SystemView(self._index, plan, verdict, report, command)

    @staticmethod
    def _training_view(index: int, plan: SystemPlan, workload: Workload) -> SystemView:
        """Training or fine-tuning on one system: its memory against the most the GPU can
        be given; the speed is not estimated (no published runs to calibrate on)."""
        system = plan.system
        try:
            result = estimate_vram(workload, system.gpu_max_gb, 1)
        except (RigForgeError, ArithmeticError, ValueError) as error:
            return SystemView(index, plan, "No memory estimate", str(error), None)
        one_box = tuple(f for f in result.fixes if not f.code.startswith(MULTI_GPU_FIXES))
        result = result.model_copy(update={"fixes": one_box})
        lines = [render(result, workload.name, system.name)]
        lines.append(
            f"The GPU can be given up to {system.gpu_max_gb:g} GiB ({system.gpu_default_gb:g} "
            f"as shipped) of the system's {system.memory_gb:g} GB."
        )
        if note := memory_share_note(system, result.total_gib, result.fits):
            lines.append(note)
        if plan.nodes > 1:
            lines.append("Training across two linked systems is not modelled: one system shown.")
        lines.append(
            "Training speed on prebuilt systems is not estimated: no published fine-tuning "
            "runs on them to calibrate on."
        )
        verdict = "Fits in memory" if result.fits else "Does not fit in memory"
        return SystemView(index, plan, verdict, "\n".join(lines), None)

    def _served(self, plan: SystemPlan, session: Session) -> SystemServing | str:
        key = (plan, session.workload, session.settings)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = serve_plan(plan, session.workload, session.settings)
        return self._cache[key]

    def _on_session_changed(self, session: Session) -> None:
        if self._index is None:
            return
        if not session.systems:
            self._index = None  # the system was removed (or undone): show the parts
        elif self._index >= len(session.systems):
            self._index = len(session.systems) - 1
        self.changed.emit()
