"""Create the QApplication and the main window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

from core.errors import RigForgeError
from core.prices.cloud import load_cloud_rates
from gui.viewmodels.autosave import DEFAULT_INTERVAL_MS
from gui.viewmodels.prices import PricesViewModel
from gui.viewmodels.root import build_view_models
from gui.views import dialogs, plain
from gui.views.main_window import MainWindow


def create_main_window(
    *,
    store: QSettings | None = None,
    autosave_dir: Path | None = None,
    autosave_interval_ms: int = DEFAULT_INTERVAL_MS,
    settings_path: Path | None = None,
) -> MainWindow:
    """The window on the default build and workload; ``settings_path`` overrides where
    preferences live (tests use a temporary one). Prices: the bundled catalog with the
    user's feed prices and overrides, loaded here once for the whole window."""
    prices = PricesViewModel()
    view_models = build_view_models(
        prices.catalog,
        load_cloud_rates().rates,
        prices=prices,
        store=store,
        settings_path=settings_path,
        autosave_dir=autosave_dir,
        autosave_interval_ms=autosave_interval_ms,
    )
    return MainWindow(view_models, store)


def offer_recovery(window: MainWindow) -> None:
    """After a crash, offer the autosaved changes; a refusal deletes them."""
    autosave = window.autosave
    if autosave is None or not autosave.pending():
        return
    original = autosave.original_path()
    if dialogs.ask_recover(window, original.name if original else "an unsaved document"):
        error = autosave.recover()
        if error is not None:
            window.file_actions.show_error("Cannot recover", error)
            autosave.discard()
        elif autosave.notice:
            window.statusBar().showMessage(autosave.notice, 15000)
    else:
        autosave.discard()


def open_window(file: str | None = None, **options: object) -> MainWindow:
    """Show the window, offer recovery, open ``file`` (a message names any problem)."""
    window = create_main_window(**options)  # type: ignore[arg-type]
    window.show()
    offer_recovery(window)
    if file:
        window.file_actions.open_path(Path(file))
    if window.autosave is not None:
        window.autosave.start()
    return window


def start_main_window(file: str | None, shell: QWidget | None = None) -> MainWindow | None:
    """Build and show the main window (on ``file``), in ``shell``'s place; ``None`` when it
    cannot start (a message says why)."""
    try:
        window = open_window(file)
    except RigForgeError as error:
        plain.message_box(
            QMessageBox.Icon.Critical,
            "RigForge",
            f"RigForge could not start:\n{error}",
            QMessageBox.StandardButton.Ok,
        ).exec()
        return None
    finally:
        if shell is not None:
            shell.close()
    window.show()
    window.raise_()
    window.activateWindow()
    return window
