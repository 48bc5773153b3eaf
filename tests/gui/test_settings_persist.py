"""Preferences survive a restart; a damaged settings file falls back to defaults."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from gui.app import create_main_window
from gui.viewmodels.settings import SettingsViewModel


def test_settings_survive_a_restart(qtbot: QtBot, tmp_path: Path) -> None:
    store = QSettings(str(tmp_path / "rigforge.ini"), QSettings.Format.IniFormat)
    path = tmp_path / "config" / "settings.json"
    win = create_main_window(store=store, autosave_dir=tmp_path / "a", settings_path=path)
    qtbot.addWidget(win)
    dialog = win.open_settings()
    dialog.theme.setCurrentText("dark")
    dialog.currency.setCurrentText("EUR")
    dialog.electricity.setValue(0.32)
    dialog.circuit.setCurrentIndex(dialog.circuit.findData("eu-230v-16a"))
    dialog.accept()
    assert win.analysis_view_model.settings.circuit == "eu-230v-16a"
    assert win.results.cards.cards["cost"].value.text().startswith(("€", "≥ €"))
    win.splitter.setSizes([500, 600, 500])
    win.document.set_dirty(False)
    win.close()

    again = create_main_window(store=store, autosave_dir=tmp_path / "a", settings_path=path)
    qtbot.addWidget(again)
    settings = again.settings_view_model.settings
    assert settings.theme == "dark"
    assert settings.currency == "EUR"
    assert settings.analysis.electricity_usd_per_kwh == 0.32
    assert again.analysis_view_model.settings.circuit == "eu-230v-16a"
    assert again.charts.scaling.theme == "dark"
    again.document.set_dirty(False)
    again.close()


def test_damaged_settings_file_gives_defaults_and_a_message(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "purple"}', "utf-8")
    model = SettingsViewModel(path)
    assert model.settings.theme == "light"
    assert model.load_error is not None and "settings.json" in model.load_error
