"""Save, Save As, the unsaved-changes prompt on close, autosave and crash recovery."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.files.io import parse_document
from core.models.build import Build
from gui.app import offer_recovery
from gui.views import dialogs
from gui.views.main_window import MainWindow
from tests.gui.conftest import WindowFactory, open_in_window, put_build

SINGLE = resources.files("resources.examples").joinpath("single-rtx-4090.json").read_bytes()


@pytest.fixture
def user_dirs(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def window(make_window: WindowFactory) -> MainWindow:
    return make_window(autosave_interval_ms=20)


def edited(build: Build) -> Build:
    return Build.model_validate({**build.model_dump(), "gpu_count": 1, "name": "Edited"})


def test_edit_marks_dirty_and_save_as_writes_it(window: MainWindow, tmp_path: Path) -> None:
    new = edited(window.session_view_model.build)
    put_build(window, new)
    assert window.document.dirty and window.isWindowModified()
    target = tmp_path / "mine.json"
    assert window.file_actions.save_as(target)
    assert not window.document.dirty and not window.isWindowModified()
    assert parse_document(
        target.read_bytes(), window.session_view_model.catalog
    ).session.builds == (new,)
    assert "mine.json" in window.windowTitle()
    put_build(window, edited(new).model_copy(update={"name": "Again"}))
    assert window.file_actions.save()  # Save reuses the path
    assert (
        parse_document(target.read_bytes(), window.session_view_model.catalog)
        .session.builds[0]
        .name
        == "Again"
    )


def test_save_failure_is_reported_and_keeps_changes(window: MainWindow, tmp_path: Path) -> None:
    put_build(window, edited(window.session_view_model.build))
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
    make_window: WindowFactory,
    user_dirs: Path,
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    closes: bool,
    saved: bool,
) -> None:
    win = make_window()
    path = user_dirs / "doc.json"
    path.write_bytes(SINGLE)
    assert open_in_window(qtbot, win, path, ask=True)
    new = edited(win.session_view_model.build)
    put_build(win, new)
    asked: list[str] = []

    def ask(_parent: object, name: str) -> str:
        asked.append(name)
        return answer

    monkeypatch.setattr(dialogs, "ask_unsaved_changes", ask)
    assert win.close() is closes
    assert asked == ["doc.json"]
    assert win.isVisible() is not closes
    on_disk = parse_document(path.read_bytes(), win.session_view_model.catalog).session.builds[0]
    assert (on_disk == new) is saved


def test_clean_close_does_not_ask(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", pytest.fail)
    assert window.close()


def test_autosave_then_recover_after_crash(
    qtbot: QtBot, make_window: WindowFactory, user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crashed = make_window(autosave_interval_ms=20)
    path = user_dirs / "doc.json"
    path.write_bytes(SINGLE)
    assert open_in_window(qtbot, crashed, path, ask=True)
    new = edited(crashed.session_view_model.build)
    autosave = crashed.autosave
    assert autosave is not None
    autosave.start()
    with qtbot.waitSignal(autosave.saved, timeout=5000):
        put_build(crashed, new)
    autosave.stop()
    # a "crash": the window never closes cleanly and its process ends (its slot's lock is
    # left stale); a new session finds the autosave
    autosave.release()
    monkeypatch.setattr(dialogs, "ask_recover", lambda _parent, name: name == "doc.json")
    restarted = make_window(
        autosave_dir=user_dirs / "second" / "autosave",
        settings_path=user_dirs / "second" / "s.json",
    )
    restarted.autosave.directory = autosave.directory  # type: ignore[union-attr]
    offer_recovery(restarted)
    assert restarted.session_view_model.build == new
    assert restarted.document.dirty
    assert restarted.document.path == path.resolve()
    assert (
        parse_document(path.read_bytes(), restarted.session_view_model.catalog).session.builds[0]
        != new
    )
    assert restarted.file_actions.save()
    assert not autosave.pending()  # saving removes the autosave


def test_declined_recovery_deletes_autosave(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = window.session_view_model.build
    put_build(window, edited(before))
    autosave = window.autosave
    assert autosave is not None and autosave.autosave_now() and autosave.pending()
    put_build(window, before)
    monkeypatch.setattr(dialogs, "ask_recover", lambda _parent, _name: False)
    offer_recovery(window)
    assert not autosave.pending()
    assert window.session_view_model.build == before


def test_clean_close_removes_autosave(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    put_build(window, edited(window.session_view_model.build))
    autosave = window.autosave
    assert autosave is not None and autosave.autosave_now()
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda _parent, _name: "discard")
    assert window.close()
    assert not autosave.pending()


def test_new_asks_about_changes_then_starts_from_the_defaults(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = window.session_view_model.session
    put_build(window, edited(window.session_view_model.build))
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda *_a: "cancel")
    assert not window.file_actions.new_document()  # "Cancel" keeps the edit
    assert window.document.dirty
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda *_a: "discard")
    window.file_actions.new_action.trigger()
    assert window.session_view_model.session == first
    assert not window.document.dirty and window.document.path is None
    assert not window.session_view_model.undo_stack.canUndo()


def test_a_second_window_neither_recovers_nor_deletes_the_first_s_live_autosave(
    make_window: WindowFactory, user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two RigForge windows share the user data folder: the second offered to "recover" the
    first's live edits, and closing it (or answering No) deleted the first's autosave."""
    first = make_window()
    put_build(first, edited(first.session_view_model.build))
    assert first.autosave is not None and first.autosave.autosave_now()
    first_file = first.autosave.file
    assert first_file.is_file()

    monkeypatch.setattr(dialogs, "ask_recover", pytest.fail)  # never asked
    second = make_window(settings_path=user_dirs / "second" / "s.json")
    assert second.autosave is not None
    second.autosave.directory = first.autosave.directory
    offer_recovery(second)
    put_build(second, edited(second.session_view_model.build))
    assert second.autosave.autosave_now()
    assert second.autosave.file != first_file  # its own slot
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda _parent, _name: "discard")
    assert second.close()
    assert first_file.is_file()  # the first window's autosave survives

    # the first window's process dies: its autosave is now offered to the next window
    first.autosave.release()
    monkeypatch.setattr(dialogs, "ask_recover", lambda _parent, _name: True)
    third = make_window(settings_path=user_dirs / "third" / "s.json")
    assert third.autosave is not None
    third.autosave.directory = first.autosave.directory
    offer_recovery(third)
    assert third.session_view_model.build == first.session_view_model.build
    assert third.document.dirty


def test_a_window_without_a_slot_autosaves_nothing_and_deletes_nothing(
    make_window: WindowFactory, user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every slot held, a window says autosave is off (in the status bar) and its
    save or close leaves the other windows' autosaves alone."""
    from gui.viewmodels import autosave as autosave_module

    monkeypatch.setattr(autosave_module, "MAX_SLOTS", 1)
    first = make_window()
    put_build(first, edited(first.session_view_model.build))
    assert first.autosave is not None and first.autosave.autosave_now()
    kept = first.autosave.file
    assert kept is not None

    second = make_window(settings_path=user_dirs / "second" / "s.json")
    assert second.autosave is not None
    second.autosave.directory = first.autosave.directory
    put_build(second, edited(second.session_view_model.build))
    assert not second.autosave.autosave_now()
    assert second.autosave.file is None
    assert (
        second.statusBar().currentMessage()
        == "Autosave is off: 1 RigForge windows already autosave"
    )
    second.autosave.discard()
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda _parent, _name: "discard")
    assert second.close()
    assert kept.is_file()


def test_an_autosave_folder_that_cannot_be_made_is_named(
    make_window: WindowFactory, user_dirs: Path
) -> None:
    blocker = user_dirs / "not-a-folder"
    blocker.write_text("x")
    window = make_window()
    assert window.autosave is not None
    window.autosave.directory = blocker / "autosave"
    put_build(window, edited(window.session_view_model.build))
    assert not window.autosave.autosave_now()
    message = window.statusBar().currentMessage()
    assert message.startswith("Autosave is off: cannot make ")
    assert "not-a-folder" in message
    window.autosave.directory = user_dirs / "ok"  # fixed: the next try succeeds
    assert window.autosave.autosave_now()


def test_a_dead_window_s_autosave_is_offered_to_one_window_only(
    make_window: WindowFactory, user_dirs: Path
) -> None:
    crashed = make_window()
    put_build(crashed, edited(crashed.session_view_model.build))
    assert crashed.autosave is not None and crashed.autosave.autosave_now()
    folder = crashed.autosave.directory
    dead_file = crashed.autosave.file

    one = make_window(settings_path=user_dirs / "one" / "s.json")
    assert one.autosave is not None
    one.autosave.directory = folder
    assert one.autosave.file != dead_file  # started while the other still ran
    crashed.autosave.release()  # now its process ends
    assert one.autosave.pending()  # the first to look holds it while it asks

    two = make_window(settings_path=user_dirs / "two" / "s.json")
    assert two.autosave is not None
    two.autosave.directory = folder
    assert not two.autosave.pending()  # not offered the same changes
    assert one.autosave.recover() is None
    assert one.session_view_model.build == crashed.session_view_model.build
    assert dead_file is not None and not dead_file.is_file()  # moved to one's own slot
    assert not two.autosave.pending()


@pytest.mark.parametrize(
    ("remembered", "why"),
    [
        ("relative/doc.json", "a relative path would save wherever the app was started"),
        ("/dev/zero", "not a regular file"),
        ("{folder}/missing-folder/doc.json", "a folder that does not exist"),
        ("{folder}/doc\x1b[31m.json", "control characters"),
        ("{folder}/" + "n" * 300 + ".json", "a name longer than the system allows"),
    ],
)
def test_a_recovered_save_path_is_checked_like_a_chosen_one(
    remembered: str,
    why: str,
    make_window: WindowFactory,
    user_dirs: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The autosave's metadata names the file the changes belong to; the app reads it back
    from disk, so it is checked as a path the user chose in Save As would be. One that
    cannot be saved to recovers the changes as an untitled document, and says so."""
    del why
    win = make_window()
    put_build(win, edited(win.session_view_model.build))
    autosave = win.autosave
    assert autosave is not None and autosave.autosave_now()
    [meta_path] = autosave.directory.glob("*meta*.json")
    target = remembered.format(folder=user_dirs)
    meta_path.write_text(json.dumps({"path": target}), "utf-8")
    monkeypatch.setattr(dialogs, "ask_recover", lambda _parent, _name: True)
    offer_recovery(win)
    assert win.document.path is None  # untitled: Save asks where
    assert win.document.dirty
    assert "untitled" in win.statusBar().currentMessage()
    assert not os.path.exists(target) or target == "/dev/zero"  # nothing was written
