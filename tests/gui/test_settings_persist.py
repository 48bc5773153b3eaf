"""Preferences survive a restart and are never written by opening a file; document
settings travel with the file; money is converted with the bundled dated rates."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from core.prices.currency import load_currency_table
from gui.viewmodels.settings import SettingsViewModel
from gui.views.main_window import MainWindow
from gui.views.workspace_tabs import COMPARE_TAB
from tests.gui.conftest import WindowFactory, card, open_in_window

COMPARISON = resources.files("resources.examples").joinpath("three-way-comparison.json")


def test_settings_survive_a_restart(make_window: WindowFactory, tmp_path: Path) -> None:
    store = tmp_path / "rigforge.ini"
    path = tmp_path / "config" / "settings.json"
    win = make_window(store=QSettings(str(store), QSettings.Format.IniFormat), settings_path=path)
    dialog = win.open_settings()
    dialog.theme.setCurrentText("dark")
    dialog.currency.setCurrentText("EUR")
    dialog.electricity.setValue(0.32)
    dialog.circuit.setCurrentIndex(dialog.circuit.findData("eu-230v-16a"))
    dialog.as_default.setChecked(True)
    dialog.accept()
    assert win.session_view_model.settings.circuit == "eu-230v-16a"
    win.close()

    again = make_window(store=QSettings(str(store), QSettings.Format.IniFormat), settings_path=path)
    settings = again.settings_view_model.settings
    assert settings.theme == "dark"
    assert settings.currency == "EUR"
    assert settings.document_defaults.electricity_usd_per_kwh == 0.32
    # a new document starts from the defaults the user chose
    assert again.session_view_model.settings.circuit == "eu-230v-16a"
    assert again.charts.scaling.theme == "dark"


def test_opening_a_file_never_writes_preferences(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    win = make_window(settings_path=path)
    dialog = win.open_settings()
    dialog.currency.setCurrentText("GBP")
    dialog.accept()
    before = path.read_bytes()
    document = json.loads(COMPARISON.read_text("utf-8"))
    document["settings"] = {"circuit": "uk-230v-13a", "electricity_usd_per_kwh": 0.41}
    file = tmp_path / "theirs.json"
    file.write_text(json.dumps(document), "utf-8")
    assert open_in_window(qtbot, win, file, ask=True)
    # the document's settings are the file's …
    assert win.session_view_model.settings.circuit == "uk-230v-13a"
    assert win.session_view_model.settings.electricity_usd_per_kwh == 0.41
    # … and the user's preferences, on disk and in memory, are untouched
    assert path.read_bytes() == before
    assert win.settings_view_model.settings.document_defaults.circuit == "us-120v-15a"


def _eur_per_usd() -> float:
    table = load_currency_table()
    return table.per_base["EUR"] / table.per_base["USD"]


@pytest.mark.usefixtures("every_part_priced")
def test_euros_everywhere_with_the_rate_and_its_date(window: MainWindow) -> None:
    assert window.file_actions.open_path(Path(str(COMPARISON)))
    usd_total = window.analysis_view_model.analysis.cost.parts.total_usd
    assert usd_total is not None
    dialog = window.open_settings()
    dialog.currency.setCurrentText("EUR")
    dialog.accept()
    euros = f"€{usd_total * _eur_per_usd():,.0f}"
    as_of = load_currency_table().as_of.isoformat()
    assert card(window, "cost") == euros
    assert window.parts_panel.total_label.text().startswith(f"Parts total: {euros}")
    assert as_of in window.parts_panel.total_label.text()  # which rates, of which day
    window.results.tabs.setCurrentWidget(window.results.details)
    details = window.results.details.toPlainText()
    assert f"Parts total: {euros}" in details and as_of in details
    window.workspace.setCurrentIndex(COMPARE_TAB)
    table = window.workspace.compare_panel.table
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).data(256) == "cost")
    shown = window.session_view_model.session.shown
    assert table.item(row, shown).text().startswith(euros)
    assert "$" not in " ".join(table.item(row, c).text() for c in range(table.columnCount()))
    assert as_of in window.workspace.compare_panel.note.text()


def test_damaged_settings_file_gives_defaults_and_a_message(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "purple"}', "utf-8")
    model = SettingsViewModel(path)
    assert model.settings.theme == "light"
    assert model.load_error is not None and "settings.json" in model.load_error


def test_version_1_settings_are_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    old = {"version": 1, "currency": "EUR", "usd_per_currency_unit": 1.1, "analysis": {}}
    path.write_text(json.dumps(old), "utf-8")
    model = SettingsViewModel(path)
    assert model.load_error is None
    assert model.settings.currency == "EUR"
    assert model.money.currency == "EUR"  # the bundled rate, not the typed 1.1
