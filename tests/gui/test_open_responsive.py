"""Opening a file whose builds are slow to analyse never blocks the window: the work runs
in a worker thread behind a progress dialog, the event loop keeps turning, Cancel and
Close stop it, and the document changes only when everything succeeded."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from gui.viewmodels import analysis_cache
from gui.views.main_window import MainWindow
from gui.workers import document_loader
from tests.gui.conftest import WindowFactory
from tests.hostile.corpus import _doc, lane_chain


def slow_file(tmp_path: Path, builds: int = 64) -> Path:
    path = tmp_path / "lane-chain.json"
    path.write_bytes(_doc(lane_chain(builds=builds)))
    return path


def test_opening_a_slow_comparison_keeps_the_event_loop_turning(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analyses run a slice at a time and the event loop turns between slices. Each
    analysis is made to take 20 ms on the loader's clock (longer than a slice,
    ``SLICE_S`` = 15 ms), so every slice holds exactly one: between any two analyses a
    timer that fires on every turn of the loop has fired. Nothing here depends on how
    fast the machine is."""
    path = slow_file(tmp_path)
    now = [0.0]
    events: list[str] = []
    real = analysis_cache.analyze

    def analysed(*args: object, **kwargs: object) -> object:
        now[0] += 0.02
        events.append("analysis")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis_cache, "analyze", analysed)
    monkeypatch.setattr(document_loader, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    timer = QTimer()
    timer.setInterval(0)
    timer.timeout.connect(lambda: events.append("turn"))
    timer.start()
    with qtbot.waitSignal(window.file_actions.open_finished, timeout=60_000) as ended:
        assert window.file_actions.open_path(path, ask=False)
    timer.stop()
    assert ended.args == [True]
    assert len(window.session_view_model.session.builds) == 64
    analyses = [i for i, event in enumerate(events) if event == "analysis"]
    assert len(analyses) >= 64
    assert all(b - a > 1 for a, b in itertools.pairwise(analyses)), "two analyses in one turn"


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
