"""The main window as a user sees it, with its settings, autosave and recent files kept in
the test's own folder, and questions answered without a person."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from pytestqt.qtbot import QtBot

from gui.app import create_main_window
from gui.views import dialogs
from gui.views.main_window import MainWindow

WindowFactory = Callable[..., MainWindow]


@pytest.fixture
def make_window(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[WindowFactory]:
    """``make_window(**options)`` opens a window on the default build; every window is
    closed at the end of the test (unsaved changes discarded)."""
    QStandardPaths.setTestModeEnabled(True)
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda *_args: "discard")
    windows: list[MainWindow] = []
    folder = tmp_path / "app"

    def make(**options: object) -> MainWindow:
        options.setdefault(
            "store", QSettings(str(folder / "rigforge.ini"), QSettings.Format.IniFormat)
        )
        options.setdefault("autosave_dir", folder / "autosave")
        options.setdefault("settings_path", folder / "settings.json")
        win = create_main_window(**options)  # type: ignore[arg-type]
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        windows.append(win)
        return win

    yield make
    for win in windows:
        win.file_actions.shutdown()
        win.close()
    QStandardPaths.setTestModeEnabled(False)


@pytest.fixture
def window(make_window: WindowFactory) -> MainWindow:
    return make_window()


def open_in_window(
    qtbot: QtBot, win: MainWindow, path: Path | str, *, ask: bool = False, timeout_ms: int = 20_000
) -> bool:
    """File → Open as a user does it: start the open and wait until it ends; whether the
    file became the document."""
    with qtbot.waitSignal(win.file_actions.open_finished, timeout=timeout_ms) as blocker:
        started = win.file_actions.open_path(path, ask=ask)
        if not started:
            win.file_actions.open_finished.emit(False)
    return bool(blocker.args[0])


def wait_open_ended(win: MainWindow, timeout_s: float = 30.0) -> bool:
    """Run the event loop until the open under way (if any) has ended; ``False`` on time-out."""
    import time

    from PySide6.QtTest import QTest

    deadline = time.monotonic() + timeout_s
    while win.file_actions.opening and time.monotonic() < deadline:
        QTest.qWait(5)
    return not win.file_actions.opening


def card(win: MainWindow, key: str) -> str:
    return win.results.cards.cards[key].value.text()


def write_overrides(prices: dict[str, float]) -> Path:
    """Price overrides in the user's config folder (the test's own), as
    ``rigforge prices set`` writes them."""
    from datetime import date

    from core.catalog import load_catalog
    from core.prices.models import FeedEntry
    from core.prices.overrides import set_override
    from core.prices.store import user_overrides_path

    path = user_overrides_path()
    catalog = load_catalog()
    for part_id, usd in prices.items():
        entry = FeedEntry(price=usd, as_of=date(2025, 6, 1), source="test price")
        set_override(path, catalog, part_id, entry)
    return path


@pytest.fixture
def every_part_priced() -> dict[str, float]:
    """Overrides giving every catalog part a test price ($100 + $10 per position, so builds
    differ), whatever its snapshot in a file says."""
    from core.catalog import load_catalog

    prices = {p.id: 100.0 + 10 * i for i, p in enumerate(load_catalog().parts())}
    write_overrides(prices)
    return prices


def put_build(win: MainWindow, build: object) -> None:
    """Replace the shown build as one undoable edit (what an editor does)."""
    vm = win.session_view_model
    builds = list(vm.session.builds)
    builds[vm.session.shown] = build
    vm.replace("edit", vm.session.model_copy(update={"builds": tuple(builds)}))
