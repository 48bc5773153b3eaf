"""Summary cards: the headline figures, each with its formula and inputs on hover."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QToolTip, QVBoxLayout, QWidget

from core.text.summary import Figure

CARD_KEYS = ("vram", "throughput", "time", "cost", "per_unit", "power", "bottleneck")
SEVERITY_COLOURS = {"pass": "#2e7d32", "fail": "#c62828", "warn": "#b26a00", "info": ""}


class SummaryCard(QFrame):
    def __init__(self, key: str) -> None:
        super().__init__()
        self.setObjectName(f"card_{key}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.title.setObjectName("cardTitle")
        self.value = QLabel()
        self.value.setObjectName("cardValue")
        font = self.value.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.value.setFont(font)
        self.detail = QLabel()
        self.detail.setObjectName("cardDetail")
        self.why = QLabel("<a href='why'>why?</a>")
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        for label in (self.value, self.detail):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.value)
        layout.addWidget(self.detail)
        layout.addWidget(self.why, alignment=Qt.AlignmentFlag.AlignRight)
        self.why.linkActivated.connect(self._on_why_link_activated)
        self.explanation = ""

    def show_figure(self, figure: Figure) -> None:
        self.title.setText(figure.title)
        self.value.setText(figure.value)
        self.detail.setText(figure.detail)
        self.detail.setToolTip(figure.detail)
        colour = SEVERITY_COLOURS.get(figure.severity, "")
        self.value.setStyleSheet(f"color: {colour}" if colour else "")
        self.explanation = figure.why
        self.setToolTip(figure.why)
        self.why.setToolTip(figure.why)

    def _on_why_link_activated(self, _link: str) -> None:

        QToolTip.showText(
            self.why.mapToGlobal(self.why.rect().bottomLeft()), self.explanation, self
        )


class SummaryCardsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.cards = {key: SummaryCard(key) for key in CARD_KEYS}
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        for i, key in enumerate(CARD_KEYS):
            layout.addWidget(self.cards[key], i // 4, i % 4)

    def show_figures(self, figures: list[Figure]) -> None:
        for figure in figures:
            self.cards[figure.key].show_figure(figure)
