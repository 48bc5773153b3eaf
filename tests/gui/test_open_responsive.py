"""Opening a file whose builds are slow to analyse never blocks the window: the work runs
in a worker thread behind a progress dialog, the event loop keeps turning, Cancel and
Close stop it, and the document changes only when everything succeeded."""

from __future__ import annotations

import gc
import itertools
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from gui.viewmodels import analysis_cache
from gui.views.main_window import MainWindow
from tests.gui.conftest import WindowFactory
from tests.hostile.corpus import _doc, lane_chain


def slow_file(tmp_path: Path, builds: int = 64) -> Path:
    path = tmp_path / "lane-chain.json"
    path.write_bytes(_doc(lane_chain(builds=builds)))
    return path


def test_opening_a_slow_comparison_keeps_the_event_loop_turning(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    path = slow_file(tmp_path)
    # What is measured is the open, not the collector walking every object the test
    # session has built up so far (as tests/hostile/limits.bounded does).
    gc.collect()
    gc.freeze()
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    with qtbot.waitSignal(window.file_actions.open_finished, timeout=60_000) as ended:
        assert window.file_actions.open_path(path, ask=False)
    timer.stop()
    gc.unfreeze()
    assert ended.args == [True]
    assert len(window.session_view_model.session.builds) == 64
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) > 3  # the loop turned while the file opened
    assert max(gaps) < 0.1, f"the window froze for {max(gaps) * 1000:.0f} ms"


def _slow_analyses(monkeypatch: object) -> None:
    """Each analysis takes 50 ms, so an open lasts long enough to be cancelled."""
    real = analysis_cache.analyze

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(0.05)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis_cache, "analyze", slow)  # type: ignore[attr-defined]


def test_cancel_stops_the_open_and_keeps_the_document(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: object
) -> None:
    _slow_analyses(monkeypatch)
    before, title = window.session_view_model.session, window.windowTitle()
    with qtbot.waitSignal(window.file_actions.open_finished, timeout=30_000) as ended:
        assert window.file_actions.open_path(slow_file(tmp_path), ask=False)
        dialog = window.file_actions.open_dialog_box
        assert dialog is not None
        qtbot.waitUntil(lambda: "analysed" in dialog.labelText(), timeout=10_000)
        assert "of 64 builds" in dialog.labelText()
        dialog.findChild(QPushButton).click()  # the dialog's Cancel button
    assert ended.args == [False]
    assert window.session_view_model.session == before
    assert window.windowTitle() == title
    assert "cancelled" in window.statusBar().currentMessage()
    assert window.file_actions.message_box is None
    assert not window.file_actions.opening


def test_closing_the_window_during_an_open_stops_it(
    make_window: WindowFactory, qtbot: QtBot, tmp_path: Path, monkeypatch: object
) -> None:
    _slow_analyses(monkeypatch)
    win = make_window()
    assert win.file_actions.open_path(slow_file(tmp_path), ask=False)
    loader = win.file_actions.document_loader
    assert loader is not None
    qtbot.waitUntil(loader.isRunning, timeout=2000)
    started = time.monotonic()
    assert win.close()
    assert time.monotonic() - started < 1.5  # stops between two builds' analyses
    assert not loader.isRunning()  # no "QThread: Destroyed while thread is still running"


def test_a_second_open_while_one_runs_is_refused_in_words(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: object
) -> None:
    _slow_analyses(monkeypatch)
    path = slow_file(tmp_path, builds=8)
    with qtbot.waitSignal(window.file_actions.open_finished, timeout=30_000):
        assert window.file_actions.open_path(path, ask=False)
        assert not window.file_actions.open_path(path, ask=False)
        box = window.file_actions.message_box
        assert box is not None and "still opening" in box.text()
    assert len(window.session_view_model.session.builds) == 8
