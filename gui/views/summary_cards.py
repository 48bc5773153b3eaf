"""Summary cards: the headline figures, each with its formula and inputs on hover.

Every card has the same height and one line per label; a text too long for its
card is elided and shown in full in the tooltip, so a long bottleneck name never
resizes the grid.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from core.text.summary import Figure
from gui.views import plain

CARD_KEYS = ("vram", "throughput", "time", "cost", "per_unit", "power", "bottleneck")
WIDE_KEYS = {"bottleneck"}
"""Cards spanning two grid columns (their value is a phrase, not a number)."""
SEVERITY_COLOURS = {"pass": "#2e7d32", "fail": "#c62828", "warn": "#b26a00", "info": ""}


def wrap_lines(text: str, metrics: QFontMetrics, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines``; the last line is elided if text is left."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines - 1:
        line = words.pop(0)
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        rest = " ".join(words)
        lines.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width))
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines]


MIN_SHRINK = 0.72
"""Smallest share of its font size a shrinking label paints a line at."""


def shrunk_font(font: QFont, text: str, width: int) -> QFont | None:
    """``font`` made small enough for ``text`` to fit ``width`` pixels on one line, but
    not below ``MIN_SHRINK`` of its size; ``None`` when the text fits as it is."""
    wide = QFontMetrics(font).horizontalAdvance(text)
    if wide <= width or width <= 0:
        return None
    smaller = QFont(font)
    # a little under the exact fit: a smaller font's hinting may add a pixel
    smaller.setPointSizeF(font.pointSizeF() * max(MIN_SHRINK, 0.96 * width / wide))
    return smaller


class ElidedLabel(QWidget):
    """Plain text of at most ``max_lines`` lines, painted wrapped and elided to the width;
    ``text()`` stays whole (the card's tooltip shows it).

    Not a QLabel: a QLabel asks its layout to recompute on every new text, which re-lays
    out the whole results column on each edit; this widget only repaints itself.
    """

    def __init__(self, max_lines: int = 1, *, shrink: bool = False) -> None:
        super().__init__()
        self.max_lines = max_lines
        self.shrink = shrink
        """One line that does not fit is painted smaller (down to ``MIN_SHRINK``) before
        it is elided: a narrow window still shows "2,400 images/s" whole."""
        self._text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.update()

    def _height(self) -> int:
        return self.fontMetrics().lineSpacing() * self.max_lines

    def minimumSizeHint(self) -> QSize:
        return QSize(20, self._height())

    def sizeHint(self) -> QSize:
        # Independent of the text: a new value must not re-lay out the window (the card's
        # width comes from the grid, and the text is elided to it when painted).
        return QSize(60, self._height())

    def set_colour(self, colour: str) -> None:
        """Paint the text in ``colour``; ``""`` follows the theme's palette again."""
        palette = QPalette()  # an empty palette inherits everything from the parent
        if colour:
            palette.setColor(QPalette.ColorRole.WindowText, QColor(colour))
        self.setPalette(palette)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        metrics = self.fontMetrics()
        if self.shrink and self.max_lines == 1:
            font = shrunk_font(self.font(), self.text(), rect.width())
            if font is not None:
                painter.setFont(font)
                metrics = QFontMetrics(font)
        lines = wrap_lines(self.text(), metrics, rect.width(), self.max_lines)
        for i, line in enumerate(lines):
            row = QRect(
                rect.x(), rect.y() + i * metrics.lineSpacing(), rect.width(), metrics.height()
            )
            self.style().drawItemText(
                painter,
                row,
                int(Qt.AlignmentFlag.AlignLeft.value | Qt.AlignmentFlag.AlignVCenter.value),
                self.palette(),
                self.isEnabled(),
                line,
                QPalette.ColorRole.WindowText,
            )


LINK_BLUE = "#3d8bfd"
"""A link blue that reads on light and dark backgrounds."""


class LinkButton(QPushButton):
    """A "why?" link that is one Tab stop and opens on Space or Enter (a link in a
    ``QLabel`` takes two: the label, then the link in it). Painted by hand: a style sheet
    would route every card's paint through Qt's slower style-sheet style."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setFlat(True)
        self.setAutoDefault(False)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        return QSize(metrics.horizontalAdvance(self.text()) + 4, metrics.height() + 2)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        font = self.font()
        font.setUnderline(True)
        painter.setFont(font)
        painter.setPen(QColor(LINK_BLUE))
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter.value), self.text())
        if self.hasFocus():
            pen = painter.pen()
            pen.setStyle(Qt.PenStyle.DotLine)
            painter.setPen(pen)
            painter.drawRect(self.rect().adjusted(0, 0, -1, -1))


class SummaryCard(QFrame):
    def __init__(self, key: str) -> None:
        super().__init__()
        self.setObjectName(f"card_{key}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.title = ElidedLabel(shrink=True)
        self.title.setObjectName("cardTitle")
        # a phrase (the bottleneck) wraps onto two lines; a number shrinks to fit one
        wide = key in WIDE_KEYS
        self.value = ElidedLabel(2 if wide else 1, shrink=not wide)
        self.value.setObjectName("cardValue")
        font = self.value.font()
        font.setPointSizeF(font.pointSizeF() * (1.05 if key in WIDE_KEYS else 1.15))
        font.setBold(True)
        self.value.setFont(font)
        self.detail = ElidedLabel(max_lines=1 if wide else 2)
        self.detail.setObjectName("cardDetail")
        self.why = LinkButton("why?")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 2)
        layout.setSpacing(1)
        layout.addWidget(self.title)
        layout.addWidget(self.value)
        layout.addWidget(self.detail)
        layout.addWidget(self.why, alignment=Qt.AlignmentFlag.AlignRight)
        self.why.clicked.connect(self.show_explanation)
        self.explanation = ""
        self.explanation_box: QMessageBox | None = None
        self._figure: tuple[str, ...] = ()
        self._colour = ""

    def show_figure(self, figure: Figure) -> None:
        shown = (figure.title, figure.value, figure.detail, figure.severity, figure.why)
        if shown == self._figure:
            return
        self._figure = shown
        self.title.setText(figure.title)
        self.value.setText(figure.value)
        self.value.setToolTip(plain.tip(figure.value))
        self.detail.setText(figure.detail)
        self.detail.setToolTip(plain.tip(figure.detail))
        colour = SEVERITY_COLOURS.get(figure.severity, "")
        if colour != self._colour:
            self._colour = colour
            self.value.set_colour(colour)
        self.explanation = figure.why
        self.setToolTip(plain.tip(f"{figure.value} — {figure.detail}\n\n{figure.why}"))
        self.why.setToolTip(plain.tip(figure.why))
        self.why.setAccessibleName(f"Why: {figure.title}")

    def show_explanation(self) -> None:
        """The explanation in a window of its own: it stays while the mouse moves, and its
        text can be selected and copied."""
        box = plain.message_box(
            QMessageBox.Icon.NoIcon,
            f"Why: {self.title.text()}",
            f"{self._figure[1] if self._figure else ''}\n\n{self.explanation}",
            QMessageBox.StandardButton.Close,
            self.window(),
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setModal(False)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.explanation_box = box
        box.show()


class SummaryCardsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.cards = {key: SummaryCard(key) for key in CARD_KEYS}
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        slot = 0
        for key in CARD_KEYS:
            span = 2 if key in WIDE_KEYS else 1
            layout.addWidget(self.cards[key], slot // 4, slot % 4, 1, span)
            slot += span
        for column in range(4):
            layout.setColumnStretch(column, 1)

    def show_figures(self, figures: list[Figure]) -> None:
        for figure in figures:
            self.cards[figure.key].show_figure(figure)
