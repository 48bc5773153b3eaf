"""Start the desktop app: a window on screen at once, the work behind it after.

Reading the catalog, analysing the default build and building the editors, results and
charts take most of a second. ``run`` shows a light window first (where the last
session's window was, saying what is loading) and builds the real one on the event
loop's next turn; the real window takes the light one's place. Only PySide6 is imported
before the first paint.

Also holds the hidden hooks the start-up benchmark uses (``benchmarks/bench_startup.py``):
``--selftest-first-paint`` quits once the first window has painted, ``--selftest-ready``
once the full main window has.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QSize, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

from gui.views import plain

GEOMETRY_KEY = "window/geometry"
"""Where the main window saves its geometry (``gui.views.main_window``)."""
DEFAULT_SIZE = QSize(1600, 1000)


class StartupWindow(QMainWindow):
    """The window the user sees while RigForge loads: the main window's size and place,
    its title, and one line saying what is being loaded."""

    def __init__(self, store: QSettings) -> None:
        super().__init__()
        self.setWindowTitle("RigForge")
        note = plain.label("Loading the parts catalog and the default build…")
        note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(note)
        screen = self.screen().availableGeometry()
        self.resize(DEFAULT_SIZE.boundedTo(screen.size()))
        saved = store.value(GEOMETRY_KEY)
        if isinstance(saved, QByteArray | bytes):
            self.restoreGeometry(QByteArray(saved))


def run(file: str | None, qt_args: Sequence[str] = ()) -> int:
    """Show the start-up window, then the main window on ``file`` (or the default build)."""
    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])
    app.setApplicationName("RigForge")
    app.setOrganizationName("RigForge")
    shell = StartupWindow(QSettings())
    status: list[int] = []
    windows: list[QWidget] = []  # the main window lives as long as the event loop

    def finish() -> None:
        if status:
            return  # already started (the fallback timer and the paint both fire)
        status.append(0)
        from gui.app import start_main_window

        window = start_main_window(file, shell)
        if window is None:
            status[0] = 1
            app.exit(1)
        else:
            windows.append(window)

    painted = _AfterPaint(shell, finish)
    shell.show()
    QTimer.singleShot(START_ANYWAY_MS, finish)  # a window that never paints (minimised)
    code = int(app.exec())
    del painted
    return status[0] if status and status[0] else code


START_ANYWAY_MS = 300
"""Build the main window after this long even if the start-up window has not painted."""


class _AfterPaint(QObject):
    """Calls ``then`` on the event loop's turn after ``window`` first paints, so the
    start-up window is on screen before the long work begins."""

    def __init__(self, window: QWidget, then: Callable[[], None]) -> None:
        super().__init__(window)
        self._then = then
        self._done = False
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self._done and event.type() == QEvent.Type.Paint:
            self._done = True
            QTimer.singleShot(0, self, self._then)
        return False


def exit_after_paint(qt_args: Sequence[str] = (), *, ready: bool = False) -> None:
    """Create the QApplication so that it quits right after the first window paints
    (``ready``: after the full main window first paints).

    Prints ``{"first_paint_monotonic_s": t}``: ``time.monotonic()`` (system-wide on
    Linux, so comparable with the parent's clock) once the paint pass is over.
    """
    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])

    class _FirstPaint(QObject):
        def __init__(self) -> None:
            super().__init__(app)
            self.seen = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if self.seen or event.type() != QEvent.Type.Paint or not isinstance(watched, QWidget):
                return False
            window = watched.window()
            wanted = type(window).__name__ == "MainWindow" if ready else True
            if isinstance(window, QMainWindow) and wanted:
                self.seen = True
                # Queued: runs after the whole window's paint pass has finished.
                QTimer.singleShot(0, self._report)
            return False

        def _report(self) -> None:
            print(json.dumps({"first_paint_monotonic_s": time.monotonic()}), flush=True)
            app.exit(0)

    first_paint = _FirstPaint()
    _FIRST_PAINT_FILTERS.append(first_paint)
    app.installEventFilter(first_paint)


_FIRST_PAINT_FILTERS: list[object] = []
"""Keeps the event filter's Python side alive for the life of the process."""
