"""Create the QApplication and the main window."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtWidgets import QApplication, QMessageBox

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.errors import RigForgeError
from gui.viewmodels.build import BuildViewModel
from gui.views.main_window import MainWindow


def create_main_window() -> MainWindow:
    catalog = load_catalog()
    view_model = BuildViewModel(catalog, default_build(catalog))
    return MainWindow(view_model)


def run_app(file: str | None, qt_args: Sequence[str] = ()) -> int:
    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])
    app.setApplicationName("RigForge")
    app.setOrganizationName("RigForge")
    try:
        window = create_main_window()
    except RigForgeError as error:
        QMessageBox.critical(None, "RigForge", f"RigForge could not start:\n{error}")
        return 1
    window.show()
    return int(app.exec())
