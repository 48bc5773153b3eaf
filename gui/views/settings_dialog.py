"""Settings: this document's circuit, electricity price and utilization (saved in the file,
undoable), and the app's preferences (currency, theme, units, defaults for new documents)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from core.models.settings import CIRCUITS, AnalysisSettings
from gui.viewmodels.settings import AppSettings
from gui.views import plain

CIRCUIT_LABELS = {
    cid: f"{c.label}, {c.continuous_w:,.0f} W continuous" for cid, c in CIRCUITS.items()
}


class SettingsDialog(QDialog):
    def __init__(
        self,
        preferences: AppSettings,
        document: AnalysisSettings,
        currencies: tuple[str, ...],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("RigForge settings")
        self._preferences = preferences
        self.electricity = QDoubleSpinBox()
        self.electricity.setDecimals(3)
        self.electricity.setRange(0, 10)
        self.electricity.setSingleStep(0.01)
        self.electricity.setPrefix("$")
        self.electricity.setSuffix(" /kWh")
        self.electricity.setValue(document.electricity_usd_per_kwh)
        self.electricity.setToolTip(plain.tip("Your tariff in US dollars per kWh"))
        self.circuit = QComboBox()
        for cid, label in CIRCUIT_LABELS.items():
            self.circuit.addItem(label, cid)
            self.circuit.setItemData(
                self.circuit.count() - 1,
                plain.tip(CIRCUITS[cid].source),
                Qt.ItemDataRole.ToolTipRole,
            )
        self.circuit.setCurrentIndex(self.circuit.findData(document.circuit))
        self.utilization = QDoubleSpinBox()
        self.utilization.setRange(0, 100)
        self.utilization.setSuffix(" %")
        self.utilization.setValue(document.utilization * 100)
        self.utilization.setToolTip(plain.tip("Share of the year the machine runs at full draw"))
        self.as_default = QCheckBox("Use these for new documents too")
        self.currency = QComboBox()
        self.currency.addItems(list(currencies))
        self.currency.setCurrentText(preferences.currency)
        self.currency.setToolTip(
            plain.tip(
                "Money is shown in this currency, converted with the bundled reference rates "
                "(the date is shown next to converted totals)"
            )
        )
        self.theme = QComboBox()
        self.theme.addItems(["light", "dark"])
        self.theme.setCurrentText(preferences.theme)
        self.units = QComboBox()
        self.units.addItems(["metric", "imperial"])
        self.units.setCurrentText(preferences.units)
        self.paper = QComboBox()
        for label, value in (
            ("Letter on US circuits, else A4", "auto"),
            ("A4", "a4"),
            ("US Letter", "letter"),
        ):
            self.paper.addItem(label, value)
        self.paper.setCurrentIndex(self.paper.findData(preferences.paper))
        self.preparer = QLineEdit(preferences.preparer)
        self.preparer.setMaxLength(120)
        self.preparer.setPlaceholderText("your name (shown as Prepared by)")
        self.preparer.setToolTip(
            plain.tip("Shown on exported build sheets as 'Prepared by'; empty: not shown")
        )
        document_form = QFormLayout()
        document_form.addRow("Mains circuit", self.circuit)
        document_form.addRow("Electricity price", self.electricity)
        document_form.addRow("Utilization", self.utilization)
        document_form.addRow("", self.as_default)
        document_box = QGroupBox("This document (saved in the file)")
        document_box.setLayout(document_form)
        app_form = QFormLayout()
        app_form.addRow("Currency", self.currency)
        app_form.addRow("Theme", self.theme)
        app_form.addRow("Units", self.units)
        app_form.addRow("Build sheet paper", self.paper)
        app_form.addRow("Prepared by", self.preparer)
        app_box = QGroupBox("Preferences (this computer)")
        app_box.setLayout(app_form)
        note = plain.label("Opening a file never changes your preferences.")
        note.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(document_box)
        layout.addWidget(app_box)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def document_settings(self) -> AnalysisSettings:
        return AnalysisSettings(
            circuit=self.circuit.currentData(),
            electricity_usd_per_kwh=self.electricity.value(),
            utilization=self.utilization.value() / 100,
        )

    def preferences(self) -> AppSettings:
        """The preferences the dialog shows, validated."""
        defaults = (
            self.document_settings()
            if self.as_default.isChecked()
            else self._preferences.document_defaults
        )
        return AppSettings.model_validate(
            {
                "theme": self.theme.currentText(),
                "currency": self.currency.currentText(),
                "units": self.units.currentText(),
                "document_defaults": defaults,
                "paper": self.paper.currentData(),
                "preparer": self.preparer.text().strip(),
            }
        )
