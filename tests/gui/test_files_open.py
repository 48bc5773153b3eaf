"""Opening files through the window: drops, Open Recent, URLs, the command line, bad input."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QPushButton
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot
from werkzeug import Request, Response

from core.files.fetch import FetchLimits
from core.files.io import parse_document
from gui.main import main as rigforge_main
from gui.views.main_window import MainWindow
from tests.gui.conftest import WindowFactory, open_in_window, wait_open_ended

EXAMPLES = resources.files("resources.examples")
COMPARISON = EXAMPLES.joinpath("three-way-comparison.json").read_bytes()
SINGLE = EXAMPLES.joinpath("single-rtx-4090.json").read_bytes()


@pytest.fixture
def user_dirs(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def window(make_window: WindowFactory) -> MainWindow:
    win = make_window()
    win.file_actions.url_limits = FetchLimits(timeout_s=2.0, max_bytes=200_000, max_redirects=3)
    return win


def shown_parts(win: MainWindow) -> set[str]:
    table = win.parts_panel.table
    return {table.item(row, 1).text() for row in range(table.rowCount())}


def drop(win: MainWindow, path: Path) -> bool:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    action = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(  # Qt 6.11 takes an integer QPoint here, a QPointF for the drop
        QPoint(50, 50), action, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(win, enter)
    if not enter.isAccepted():
        return False
    event = QDropEvent(
        QPointF(50, 50), action, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(win, event)
    assert wait_open_ended(win)  # opened or refused
    return True


def test_drop_comparison_shows_baseline_and_save_keeps_every_build(
    window: MainWindow, tmp_path: Path
) -> None:
    path = tmp_path / "compare.json"
    path.write_bytes(COMPARISON)
    expected = parse_document(COMPARISON, window.session_view_model.catalog)
    assert drop(window, path)
    assert window.session_view_model.build == expected.session.builds[0]
    assert expected.session.builds[0].gpu.name in shown_parts(window)
    assert "compare.json" in window.windowTitle()
    assert not window.document.dirty
    window.file_actions.save_as(tmp_path / "copy.json")
    saved = parse_document((tmp_path / "copy.json").read_bytes(), window.session_view_model.catalog)
    assert saved.session.builds == expected.session.builds
    assert saved.session.title == expected.session.title


def test_drop_of_text_is_refused(window: MainWindow) -> None:
    mime = QMimeData()
    mime.setText("not a file")
    enter = QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()


def _doc(**build: object) -> bytes:
    record = {
        "name": "x",
        "gpu": "rtx-4090",
        "cpu": "ryzen-9-7950x",
        "motherboard": "asus-proart-x870e-creator-wifi",
        "memory": "corsair-vengeance-ddr5-5600-2x32gb",
        "drives": [{"drive": "samsung-990-pro-2tb"}],
        **build,
    }
    return json.dumps({"format": "rigforge", "version": 1, "build": record}).encode()


BAD_FILES = {
    "malformed": (b'{"format": "rigforge", "version": 2,', "not valid JSON at line 1"),
    "wrong type": (_doc(gpu_count="two"), "Build 1, GPU count: "),
    "out of range": (_doc(gpu_count=99), "Build 1, GPU count: "),
    "unknown part": (_doc(gpu="rtx-9999"), "'rtx-9999' is not in this catalog"),
    "deeply nested": (b"[" * 5000 + b"]" * 5000, "nested more than"),
    "binary": (bytes(range(256)) * 8, "binary"),
    "huge": (b" " * (6 * 1024 * 1024), "MiB"),
    "newer": (b'{"format": "rigforge", "version": 9}', "newer RigForge"),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_file_names_the_problem_and_leaves_build_untouched(
    window: MainWindow, tmp_path: Path, case: str
) -> None:
    data, message = BAD_FILES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    before, title = window.session_view_model.build, window.windowTitle()
    assert drop(window, path)
    box = window.file_actions.message_box
    assert box is not None and box.isVisible()
    assert message in box.text() and "bad.json" in box.text()
    assert window.session_view_model.build == before
    assert window.windowTitle() == title
    assert window.document.path is None


def test_open_recent_lists_persists_and_reopens(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    first, second = tmp_path / "one.json", tmp_path / "three.json"
    first.write_bytes(SINGLE)
    second.write_bytes(COMPARISON)
    assert open_in_window(qtbot, window, first, ask=True)
    assert open_in_window(qtbot, window, second, ask=True)
    menu = window.file_actions.recent_menu
    names = [a.text() for a in menu.actions() if a.data()]
    assert names == ["&1 three.json", "&2 one.json"]
    # the list survives a restart: a new window on the same settings store shows it
    opened_one = parse_document(SINGLE, window.session_view_model.catalog).session.builds[0]
    [action] = [a for a in menu.actions() if a.data() == str(first.resolve())]
    action.trigger()
    qtbot.waitUntil(lambda: not window.file_actions.opening, timeout=10_000)
    assert window.session_view_model.build == opened_one
    assert window.document.path == first.resolve()
    first.unlink()
    [action] = [a for a in menu.actions() if a.data() == str(first.resolve())]
    action.trigger()
    box = window.file_actions.message_box
    assert box is not None and "no longer exists" in box.text()
    assert [a.data() for a in menu.actions() if a.data()] == [str(second.resolve())]


def test_recent_files_persist_in_settings(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    path = tmp_path / "one.json"
    path.write_bytes(SINGLE)
    store = tmp_path / "rigforge.ini"
    win = make_window(store=QSettings(str(store), QSettings.Format.IniFormat))
    assert open_in_window(qtbot, win, path, ask=True)
    again = make_window(
        store=QSettings(str(store), QSettings.Format.IniFormat),
        autosave_dir=tmp_path / "autosave2",
    )
    assert again.document.recent_files() == [str(path.resolve())]


def test_url_loads_in_worker_and_opens(
    window: MainWindow, qtbot: QtBot, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/c.json").respond_with_data(
        COMPARISON, content_type="application/json"
    )
    with qtbot.waitSignal(window.session_view_model.session_changed, timeout=10_000):
        loader = window.file_actions.open_url(httpserver.url_for("/c.json"))
    assert loader is not None
    loader.wait(5000)
    expected = parse_document(COMPARISON, window.session_view_model.catalog)
    assert window.session_view_model.build == expected.session.builds[0]
    assert len(window.session_view_model.session.builds) == 3
    assert window.file_actions.message_box is None


def _redirect_forever(request: Request) -> Response:
    return Response(status=302, headers={"Location": request.path + "x"})


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("html", "text/html, not JSON"),
        ("redirects", "more than 3 redirects"),
        ("not found", "404"),
        ("huge", "larger than"),
        ("bad json", "not valid JSON"),
        ("slow", "0.3 s"),
    ],
)
def test_bad_url_names_the_problem_and_leaves_build_untouched(
    window: MainWindow, qtbot: QtBot, httpserver: HTTPServer, case: str, message: str
) -> None:
    release = threading.Event()
    if case == "html":
        httpserver.expect_request("/doc").respond_with_data("<html/>", content_type="text/html")
    elif case == "redirects":
        httpserver.expect_request("/doc").respond_with_handler(_redirect_forever)
        for depth in range(1, 8):
            httpserver.expect_request("/doc" + "x" * depth).respond_with_handler(_redirect_forever)
    elif case == "not found":
        httpserver.expect_request("/doc").respond_with_data("no", status=404)
    elif case == "huge":  # would send 5 GB without saying so; the real 5 MB cap stops it
        window.file_actions.url_limits = FetchLimits(timeout_s=10)
        chunk = b" " * 65536
        httpserver.expect_request("/doc").respond_with_handler(
            lambda _r: Response(
                (chunk for _ in range(5 * 10**9 // len(chunk))), content_type="application/json"
            )
        )
    elif case == "bad json":
        httpserver.expect_request("/doc").respond_with_data(
            b"{oops", content_type="application/json"
        )
    else:
        window.file_actions.url_limits = FetchLimits(timeout_s=0.3)
        httpserver.expect_request("/doc").respond_with_handler(
            lambda _r: Response(b"{}" if release.wait(3) else b"", content_type="application/json")
        )
    before = window.session_view_model.build
    loader = window.file_actions.open_url(httpserver.url_for("/doc"))
    assert loader is not None
    qtbot.waitUntil(lambda: window.file_actions.message_box is not None, timeout=10_000)
    release.set()
    loader.wait(5000)
    box = window.file_actions.message_box
    assert box is not None
    assert message in box.text() and "/doc" in box.text()
    assert window.session_view_model.build == before
    assert not window.document.dirty


def test_url_download_can_be_cancelled(
    window: MainWindow, qtbot: QtBot, httpserver: HTTPServer
) -> None:
    stop = threading.Event()

    def trickle(_request: Request) -> Response:
        def chunks() -> Iterator[bytes]:
            # whole 64 KiB reads, so the client sees each piece at once
            yield b"[" + b" " * 65535
            while not stop.wait(0.05):
                yield b" " * 65536

        return Response(chunks(), content_type="application/json")

    httpserver.expect_request("/slow").respond_with_handler(trickle)
    window.file_actions.url_limits = FetchLimits(timeout_s=10)
    before = window.session_view_model.build
    failures: list[str] = []
    try:
        loader = window.file_actions.open_url(httpserver.url_for("/slow"))
        assert loader is not None
        loader.failed.connect(failures.append)
        dialog = window.file_actions.progress_dialog
        assert dialog is not None
        qtbot.waitUntil(lambda: "KiB" in dialog.labelText(), timeout=10_000)
        dialog.findChild(QPushButton).click()  # the dialog's Cancel button
        qtbot.waitUntil(lambda: bool(failures), timeout=10_000)
    finally:
        stop.set()
    loader.wait(5000)
    assert failures == ["cancelled"]
    assert "cancelled" in window.statusBar().currentMessage()
    assert window.file_actions.message_box is None
    assert window.session_view_model.build == before


def shown_window() -> MainWindow:
    [win] = [
        w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
    ]
    return win


class _App:
    """Stands in for the running QApplication: ``exec`` runs the event loop until the main
    window is built behind the start-up window (``gui.startup``), inspects it and
    returns."""

    def __init__(self, inspect: Callable[[], None], qtbot: QtBot) -> None:
        def run() -> int:
            qtbot.waitUntil(lambda: bool(_shown_windows()), timeout=20_000)
            inspect()
            return 0

        self.exec = run
        self.exit = lambda _code=0: None
        self.setApplicationName = self.setOrganizationName = lambda _name: None


def _shown_windows() -> list[MainWindow]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
    ]


def test_command_line_file_opens(
    qtbot: QtBot, user_dirs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "build.json"
    path.write_bytes(SINGLE)
    seen: dict[str, object] = {}

    def inspect_and_quit() -> None:
        win = shown_window()
        assert wait_open_ended(win)  # the file opens behind the shown window
        seen["build"], seen["path"] = win.session_view_model.build, win.document.path
        seen["error"] = win.file_actions.message_box
        win.close()
        win.deleteLater()

    app = _App(inspect_and_quit, qtbot)
    monkeypatch.setattr("gui.startup.QApplication", type("Q", (), {"instance": lambda: app}))
    assert rigforge_main([str(path)]) == 0
    expected = parse_document(SINGLE, _catalog()).session.builds[0]
    assert seen["build"] == expected
    assert seen["path"] == path.resolve()
    assert seen["error"] is None


def test_command_line_bad_file_shows_message(
    qtbot: QtBot, user_dirs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "build.json"
    path.write_bytes(b"garbage")
    seen: dict[str, str] = {}

    def inspect_and_quit() -> None:
        win = shown_window()
        assert wait_open_ended(win)
        box = win.file_actions.message_box
        seen["text"] = box.text() if box is not None else ""
        win.close()
        win.deleteLater()

    app = _App(inspect_and_quit, qtbot)
    monkeypatch.setattr("gui.startup.QApplication", type("Q", (), {"instance": lambda: app}))
    assert rigforge_main([str(path)]) == 0
    assert "build.json" in seen["text"] and "not valid JSON" in seen["text"]


def _catalog():  # type: ignore[no-untyped-def]
    from core.catalog import load_catalog

    return load_catalog()


def test_status_bar_names_the_opened_documents_verdict(
    window: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    """After a failing edit, opening a file that works says it works: the status line is
    written once the opened document is analysed, not from the one before."""
    from core.text.verdict import build_verdict

    window.build_editor.gpu_count.setValue(4)  # four 4090s overload the default PSU
    assert window.results.banner.severity == "fail"
    path = tmp_path / "one.json"
    path.write_bytes(SINGLE)
    assert open_in_window(qtbot, window, path)
    headline = build_verdict(window.analysis_view_model.analysis).headline
    assert not headline.startswith("Won't work")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().endswith(headline))
