"""Preferences: currency, electricity price, mains circuit, utilization, theme, units."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QVBoxLayout,
    QWidget,
)

from core.models.settings import CIRCUITS, AnalysisSettings
from gui.viewmodels.settings import AppSettings

CIRCUIT_LABELS = {
    cid: f"{c.volts:g} V / {c.amps:g} A ({cid.split('-')[0].upper()}), "
    f"{c.continuous_w:,.0f} W continuous"
    for cid, c in CIRCUITS.items()
}


class SettingsDialog(QDialog):
    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("RigForge settings")
        self.currency = QComboBox()
        self.currency.addItems(["USD", "EUR", "GBP", "JPY"])
        self.currency.setCurrentText(settings.currency)
        self.rate = QDoubleSpinBox()
        self.rate.setDecimals(4)
        self.rate.setRange(0.0001, 1000)
        self.rate.setValue(settings.usd_per_currency_unit)
        self.rate.setToolTip("USD per unit of the display currency (your own rate)")
        self.electricity = QDoubleSpinBox()
        self.electricity.setDecimals(3)
        self.electricity.setRange(0, 10)
        self.electricity.setSingleStep(0.01)
        self.electricity.setPrefix("$")
        self.electricity.setSuffix(" /kWh")
        self.electricity.setValue(settings.analysis.electricity_usd_per_kwh)
        self.circuit = QComboBox()
        for cid, label in CIRCUIT_LABELS.items():
            self.circuit.addItem(label, cid)
            self.circuit.setItemData(self.circuit.count() - 1, CIRCUITS[cid].source, 3)
        self.circuit.setCurrentIndex(self.circuit.findData(settings.analysis.circuit))
        self.utilization = QDoubleSpinBox()
        self.utilization.setRange(0, 100)
        self.utilization.setSuffix(" %")
        self.utilization.setValue(settings.analysis.utilization * 100)
        self.utilization.setToolTip("Share of the year the machine runs at full draw")
        self.theme = QComboBox()
        self.theme.addItems(["light", "dark"])
        self.theme.setCurrentText(settings.theme)
        self.units = QComboBox()
        self.units.addItems(["metric", "imperial"])
        self.units.setCurrentText(settings.units)
        form = QFormLayout()
        form.addRow("Currency", self.currency)
        form.addRow("USD per unit", self.rate)
        form.addRow("Electricity price", self.electricity)
        form.addRow("Mains circuit", self.circuit)
        form.addRow("Utilization", self.utilization)
        form.addRow("Theme", self.theme)
        form.addRow("Units", self.units)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def settings(self) -> AppSettings:
        """The settings the dialog shows, validated."""
        analysis = AnalysisSettings(
            circuit=self.circuit.currentData(),
            electricity_usd_per_kwh=self.electricity.value(),
            utilization=self.utilization.value() / 100,
        )
        return AppSettings.model_validate(
            {
                "theme": self.theme.currentText(),
                "currency": self.currency.currentText(),
                "usd_per_currency_unit": self.rate.value(),
                "units": self.units.currentText(),
                "analysis": analysis,
            }
        )
