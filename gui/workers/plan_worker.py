"""Search a fix plan (``core.calc.fixplan``) in a worker thread, with cancel.

Signals emitted here are queued to receivers in the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import Signal

from core.calc.fixplan import plan_fix
from core.catalog import Catalog
from core.errors import RigForgeError
from core.models.build import Build
from core.models.cost import CloudRate
from core.models.settings import AnalysisSettings
from core.models.workload import Workload
from gui.workers.base import CancellableWorker


class PlanWorker(CancellableWorker):
    planned = Signal(object)
    """The ``FixPlan`` (found or not)."""
    failed = Signal(str)

    def __init__(
        self,
        build: Build,
        workload: Workload | None,
        settings: AnalysisSettings,
        catalog: Catalog,
        cloud_rates: tuple[CloudRate, ...],
    ) -> None:
        super().__init__()
        self.build, self.workload, self.settings = build, workload, settings
        self.catalog, self.cloud_rates = catalog, cloud_rates

    def run(self) -> None:
        try:
            plan = plan_fix(
                self.build,
                self.workload,
                self.settings,
                self.catalog,
                cloud_rates=self.cloud_rates,
                cancelled=self._cancel.is_set,
            )
        except (RigForgeError, ArithmeticError, ValueError) as error:
            self.failed.emit(str(error))
            return
        except Exception as error:  # a worker must always report back
            self.failed.emit(f"the plan could not be made: {error}")
            return
        if not self.cancelled:
            self.planned.emit(plan)
