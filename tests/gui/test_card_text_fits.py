"""Card figures at a narrow window: a number a little too wide for its card is painted
smaller so it shows whole ("2,400 images/s" at 1280×720); one far too wide stops at
72 % of the size and is elided (its tooltip has it whole)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics
from pytestqt.qtbot import QtBot

from gui.views.summary_cards import MIN_SHRINK, shrunk_font


def test_a_slightly_wide_figure_shrinks_to_fit(qtbot: QtBot) -> None:
    font = QFont("DejaVu Sans")
    font.setPointSizeF(10.35)
    font.setBold(True)
    text = "2,400 images/s"
    wide = QFontMetrics(font).horizontalAdvance(text)
    assert shrunk_font(font, text, wide + 5) is None  # fits: left alone
    width = int(wide * 0.85)
    smaller = shrunk_font(font, text, width)
    assert smaller is not None
    assert QFontMetrics(smaller).horizontalAdvance(text) <= width
    assert smaller.pointSizeF() >= MIN_SHRINK * font.pointSizeF()


def test_a_far_too_wide_figure_stops_at_the_smallest_size(qtbot: QtBot) -> None:
    font = QFont("DejaVu Sans")
    font.setPointSizeF(10.0)
    text = "memory bandwidth (elementwise and normalization)"
    wide = QFontMetrics(font).horizontalAdvance(text)
    smaller = shrunk_font(font, text, wide // 2)
    assert smaller is not None and abs(smaller.pointSizeF() - MIN_SHRINK * 10.0) < 1e-6
