"""*Make it work*: one plan of combined changes for the shown build, applied as one edit.

The plan (``core.calc.fixplan``) is searched in a ``PlanWorker``; when one is found it
replaces the shown build in one step (Ctrl+Z undoes it), and ``planned`` says what
changed. When none exists, nothing changes and ``planned`` says which checks block.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from core.models.fixplan import FixPlan
from core.models.session import Session
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.session import SessionViewModel
from gui.workers.plan_worker import PlanWorker


class FixPlanViewModel(QObject):
    running_changed = Signal(bool)
    planned = Signal(object)
    """The ``FixPlan``; applied already when ``plan.found`` and it changes something."""
    failed = Signal(str)

    def __init__(self, session: SessionViewModel, cache: AnalysisCache) -> None:
        super().__init__()
        self.session_view_model = session
        self.cache = cache
        self._worker: PlanWorker | None = None
        self._for: Session | None = None

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self) -> None:
        if self._worker is not None:
            return
        vm = self.session_view_model
        self._for = vm.session
        worker = PlanWorker(
            vm.build, vm.workload, vm.settings, self.cache.catalog, self.cache.cloud_rates
        )
        worker.planned.connect(self._on_worker_planned)
        worker.failed.connect(self.failed)
        worker.finished.connect(self._on_worker_finished)
        self._worker = worker
        self.running_changed.emit(True)
        worker.start()

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def shutdown(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait()

    def apply(self, plan: FixPlan) -> str | None:
        """Put the plan's build in place of the shown one: one undoable edit."""
        if plan.after is None or not plan.changes:
            return None
        vm = self.session_view_model
        builds = list(vm.session.builds)
        builds[vm.session.shown] = plan.after.build.model_copy(update={"name": vm.build.name})
        count = len(plan.changes)
        text = f"Make it work ({count} change{'s' if count != 1 else ''})"
        return vm.replace(text, vm.session.model_copy(update={"builds": tuple(builds)}))

    def _on_worker_planned(self, plan: FixPlan) -> None:
        if self.session_view_model.session is not self._for:
            self.failed.emit("the build changed while the plan was searched; try again")
            return
        problem = self.apply(plan)
        if problem is not None:
            self.failed.emit(problem)
            return
        self.planned.emit(plan)

    def _on_worker_finished(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.deleteLater()
        self.running_changed.emit(False)
