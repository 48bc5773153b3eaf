"""About: version, catalog and price snapshot dates, and where the data comes from."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from core import __version__
from core.catalog import Catalog
from core.prices.cloud import load_cloud_rates
from core.workloads import load_presets


def about_html(catalog: Catalog) -> str:
    cloud = load_cloud_rates()
    presets = load_presets()
    priced = [p.price.as_of for p in catalog.parts() if p.price.as_of is not None]
    oldest = min(priced).isoformat() if priced else "unknown"
    return (
        f"<h3>RigForge {__version__}</h3>"
        "<p>Plan, check and compare deep-learning workstations before you buy one.</p>"
        f"<p><b>Catalog:</b> {len(catalog)} parts, snapshot dated "
        f"{catalog.snapshot_date or 'unknown'} (prices dated {oldest} to "
        f"{catalog.snapshot_date or 'unknown'}). Each part names its sources: vendor "
        "datasheets and spec pages, reviews and retailer listings (see its tooltip).</p>"
        f"<p><b>Cloud rates:</b> on-demand GPU rates as of {cloud.as_of.isoformat()}, "
        "each row with its provider and dated article.</p>"
        f"<p><b>Workloads:</b> {len(presets)} presets with a source per figure "
        "(papers, model cards, Hugging Face configs).</p>"
        "<p><b>Models:</b> VRAM after ZeRO (Rajbhandari et al. 2020) and Korthikanti et "
        "al. 2022; throughput as a roofline fitted to published MLPerf and NVIDIA "
        "DeepLearningExamples results; power from board power, transient measurements "
        "and 80 PLUS efficiency curves.</p>"
    )


class AboutDialog(QDialog):
    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About RigForge")
        self.text = QLabel(about_html(catalog))  # our own markup; it holds only numbers
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setMinimumWidth(460)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
