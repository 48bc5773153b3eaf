"""Run the build optimizer (``core.calc.suggest``) in a worker thread, with progress and cancel.

Signals emitted here are queued to receivers in the GUI thread.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread, Signal

from core.calc.suggest import suggest
from core.catalog import Catalog
from core.errors import RigForgeError
from core.models.settings import AnalysisSettings
from core.models.suggest import SuggestRequest
from core.models.workload import Workload


class SuggestWorker(QThread):
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
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

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
