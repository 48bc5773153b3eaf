"""The optimizer behind the Suggest tab: request, running search, result, open as build.

The search runs in a ``SuggestWorker`` over the price-aware catalog, for the session's
workload and settings (the same the Build and Compare tabs use).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from core.models.build import Build
from core.models.suggest import SuggestRequest, SuggestResult
from core.models.workload import Workload
from gui.viewmodels.session import SessionViewModel, default_workload
from gui.workers.suggest_worker import SuggestWorker


def _variant_words(before: Workload, after: Workload) -> str:
    """Undo words for the workload variant a suggestion was searched with."""
    if after.is_serving:
        old, new = before.serving_settings, after.serving_settings
        if new.n_cpu_moe != old.n_cpu_moe:
            return f"Experts of {new.n_cpu_moe} layers in host RAM (suggested build)"
        if new.split != old.split:
            return f"{new.split.capitalize()} split (suggested build)"
        if new.kv_cache != old.kv_cache:
            return f"{new.kv_cache} KV cache (suggested build)"
        return "Serving settings (suggested build)"
    return f"Checkpointing {after.checkpointing} (suggested build)"


def suggestion_name(build: Build) -> str:
    """A suggested build's name: its GPUs, marked "used" when bought used."""
    used = " (used)" if build.is_used(build.gpu) else ""
    return f"Suggested: {build.gpu_count}× {build.gpu.name}{used}"


class SuggestViewModel(QObject):
    running_changed = Signal(bool)
    progress_changed = Signal(float)
    result_changed = Signal(object)
    """Emitted with the new ``SuggestResult`` (or ``None`` before a search)."""
    failed = Signal(str)
    build_opened = Signal(int)
    """A front build was added to the comparison at this index (and shown)."""

    cleared = Signal(str)
    """The result was dropped; the message says why (the workload it was for changed)."""

    def __init__(self, session: SessionViewModel) -> None:
        super().__init__()
        self.session_view_model = session
        self.request = SuggestRequest(budget_usd=10_000)
        self._worker: SuggestWorker | None = None
        self._result: SuggestResult | None = None
        self._searched: object = None
        """The workload and settings the result (or the running search) is for."""
        session.session_changed.connect(self._on_session_changed)

    @property
    def result(self) -> SuggestResult | None:
        return self._result

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, request: SuggestRequest) -> None:
        if self._worker is not None:
            return
        self.request = request
        vm = self.session_view_model
        self._searched = (vm.workload, vm.settings)
        worker = SuggestWorker(vm.workload or default_workload(), request, vm.catalog, vm.settings)
        worker.progress.connect(self._on_worker_progress)
        worker.found.connect(self._on_worker_found)
        worker.failed.connect(self._on_worker_failed)
        worker.finished.connect(self._on_worker_finished)
        self._worker = worker
        self.running_changed.emit(True)
        self.progress_changed.emit(0.0)
        worker.start()

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def shutdown(self) -> None:
        """Stop a running search and wait for its thread (window closing)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait()

    def open_as_build(self, index: int) -> int | None:
        """Add front build ``index`` to the comparison and show it; its build index."""
        if self._result is None or not 0 <= index < len(self._result.front):
            return None
        suggestion = self._result.front[index]
        build = suggestion.build.model_copy(update={"name": suggestion_name(suggestion.build)})
        vm = self.session_view_model
        added = vm.add_build(build)
        if isinstance(added, str):
            return None
        changed = suggestion.workload
        if changed is not None and vm.workload is not None and changed != vm.workload:
            # The build fits only as the search ran it (checkpointing on): say so by doing it.
            # The other suggestions were searched with the same variants: they stay.
            searched, self._searched = self._searched, None  # not a change that drops them
            vm.set_workload(_variant_words(vm.workload, changed), changed)
            if searched is not None:
                self._searched = (vm.workload, vm.settings)
        self.build_opened.emit(added)
        return added

    def _on_worker_progress(self, share: float) -> None:
        self.progress_changed.emit(share)

    def _on_worker_found(self, result: SuggestResult) -> None:
        vm = self.session_view_model
        if (vm.workload, vm.settings) != self._searched:
            return  # the workload changed while it ran: a result for another workload
        if result != self._result:
            self._result = result
            self.result_changed.emit(result)

    def _on_session_changed(self, session: object) -> None:
        """Results belong to the workload and settings they were searched for: when either
        changes they are dropped (a build opened from them would be judged on another
        workload), and the running search is stopped."""
        del session
        vm = self.session_view_model
        if self._searched is None or (vm.workload, vm.settings) == self._searched:
            return
        self._searched = None
        if self._worker is not None:
            self._worker.cancel()
        if self._result is not None:
            self._result = None
            self.cleared.emit("The workload or settings changed: search again for suggestions.")

    def _on_worker_failed(self, message: str) -> None:
        self.failed.emit(message)

    def _on_worker_finished(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.deleteLater()
        self.running_changed.emit(False)
