"""Save, Save As, the unsaved-changes prompt on close, autosave and crash recovery."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from pytestqt.qtbot import QtBot

from core.files.io import parse_document
from core.models.build import Build
from gui.app import create_main_window, offer_recovery
from gui.views import dialogs
from gui.views.main_window import MainWindow

SINGLE = resources.files("resources.examples").joinpath("single-rtx-4090.json").read_bytes()


_OPEN: list[MainWindow] = []


@pytest.fixture
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    QStandardPaths.setTestModeEnabled(True)
    yield tmp_path
    QStandardPaths.setTestModeEnabled(False)
    # closed here rather than by qtbot, whose teardown would meet the unsaved-changes prompt
    while _OPEN:
        win = _OPEN.pop()
        win.document.set_dirty(False)
        win.close()
        win.deleteLater()


def make_window(qtbot: QtBot, where: Path) -> MainWindow:
    store = QSettings(str(where / "rigforge.ini"), QSettings.Format.IniFormat)
    win = create_main_window(store=store, autosave_dir=where / "autosave", autosave_interval_ms=20)
    _OPEN.append(win)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def window(qtbot: QtBot, user_dirs: Path) -> MainWindow:
    return make_window(qtbot, user_dirs)


def edited(build: Build) -> Build:
    return Build.model_validate({**build.model_dump(), "gpu_count": 1, "name": "Edited"})


def test_edit_marks_dirty_and_save_as_writes_it(window: MainWindow, tmp_path: Path) -> None:
    new = edited(window.view_model.build)
    window.view_model.set_build(new)
    assert window.document.dirty and window.isWindowModified()
    target = tmp_path / "mine.json"
    assert window.file_actions.save_as(target)
    assert not window.document.dirty and not window.isWindowModified()
    assert parse_document(target.read_bytes(), window.view_model.catalog).builds == (new,)
    assert "mine.json" in window.windowTitle()
    window.view_model.set_build(edited(new).model_copy(update={"name": "Again"}))
    assert window.file_actions.save()  # Save reuses the path
    assert parse_document(target.read_bytes(), window.view_model.catalog).builds[0].name == "Again"


def test_save_failure_is_reported_and_keeps_changes(window: MainWindow, tmp_path: Path) -> None:
    window.view_model.set_build(edited(window.view_model.build))
    assert not window.file_actions.save_as(tmp_path / "missing-dir" / "x.json")
    box = window.file_actions.message_box
    assert (box is not None and "x.json" in box.text()) or "missing-dir" in box.text()
    assert window.document.dirty


@pytest.mark.parametrize(
    ("answer", "closes", "saved"),
    [
        ("cancel", False, False),
        ("discard", True, False),
        ("save", True, True),
    ],
)
def test_close_with_changes_asks(
    qtbot: QtBot,
    user_dirs: Path,
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    closes: bool,
    saved: bool,
) -> None:
    win = make_window(qtbot, user_dirs)
    path = user_dirs / "doc.json"
    path.write_bytes(SINGLE)
    assert win.file_actions.open_path(path)
    new = edited(win.view_model.build)
    win.view_model.set_build(new)
    asked: list[str] = []

    def ask(_parent: object, name: str) -> str:
        asked.append(name)
        return answer

    monkeypatch.setattr(dialogs, "ask_unsaved_changes", ask)
    assert win.close() is closes
    assert asked == ["doc.json"]
    assert win.isVisible() is not closes
    on_disk = parse_document(path.read_bytes(), win.view_model.catalog).builds[0]
    assert (on_disk == new) is saved


def test_clean_close_does_not_ask(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", pytest.fail)
    assert window.close()


def test_autosave_then_recover_after_crash(
    qtbot: QtBot, user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crashed = make_window(qtbot, user_dirs)
    path = user_dirs / "doc.json"
    path.write_bytes(SINGLE)
    assert crashed.file_actions.open_path(path)
    new = edited(crashed.view_model.build)
    autosave = crashed.autosave
    assert autosave is not None
    autosave.start()
    with qtbot.waitSignal(autosave.saved, timeout=5000):
        crashed.view_model.set_build(new)
    autosave.stop()
    # a "crash": the window never closes cleanly; a new session finds the autosave
    monkeypatch.setattr(dialogs, "ask_recover", lambda _parent, name: name == "doc.json")
    restarted = make_window(qtbot, user_dirs / "second")
    restarted.autosave.directory = autosave.directory  # type: ignore[union-attr]
    offer_recovery(restarted)
    assert restarted.view_model.build == new
    assert restarted.document.dirty
    assert restarted.document.path == path.resolve()
    assert parse_document(path.read_bytes(), restarted.view_model.catalog).builds[0] != new
    assert restarted.file_actions.save()
    assert not autosave.pending()  # saving removes the autosave


def test_declined_recovery_deletes_autosave(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = window.view_model.build
    window.view_model.set_build(edited(before))
    autosave = window.autosave
    assert autosave is not None and autosave.autosave_now() and autosave.pending()
    window.view_model.set_build(before)
    monkeypatch.setattr(dialogs, "ask_recover", lambda _parent, _name: False)
    offer_recovery(window)
    assert not autosave.pending()
    assert window.view_model.build == before


def test_clean_close_removes_autosave(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    window.view_model.set_build(edited(window.view_model.build))
    autosave = window.autosave
    assert autosave is not None and autosave.autosave_now()
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda _parent, _name: "discard")
    assert window.close()
    assert not autosave.pending()
