"""Run the build optimizer (``core.calc.suggest.search``) in a worker thread with progress, cancel.

Signals emitted here are queued to receivers in the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import Signal

from core.calc.suggest.search import suggest
from core.catalog import Catalog
from core.errors import RigForgeError
from core.models.settings import AnalysisSettings
from core.models.suggest import SuggestRequest
from core.models.workload import Workload
from gui.workers.base import CancellableWorker


class SuggestWorker(CancellableWorker):
    progress = Signal(float)
    """Share done, 0..1."""
    found = Signal(object)
    """The ``SuggestResult`` (``cancelled`` set when the search was stopped)."""
    failed = Signal(str)

    def __init__(
        self,
        workload: Workload,
        request: SuggestRequest,
        catalog: Catalog,
        settings: AnalysisSettings,
    ) -> None:
        super().__init__()
        self.workload, self.request = workload, request
        self.catalog, self.settings = catalog, settings

    def run(self) -> None:
        try:
            result = suggest(
                self.workload,
                self.request,
                self.catalog,
                self.settings,
                cancelled=self._cancel.is_set,
                progress=self.progress.emit,
            )
        except RigForgeError as error:
            self.failed.emit(str(error))
            return
        except Exception as error:  # a worker must always report back
            self.failed.emit(f"search failed: {error}")
            return
        self.found.emit(result)
