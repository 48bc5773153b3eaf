"""The cards' "why?" links work from the keyboard: one Tab stop each, Space opens."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from core.text.summary import Figure
from gui.views.summary_cards import CARD_KEYS, SummaryCardsPanel


def test_each_why_link_is_one_tab_stop_and_space_opens_it(qtbot: QtBot) -> None:
    panel = SummaryCardsPanel()
    qtbot.addWidget(panel)
    panel.show_figures(
        [Figure(key, f"Title {key}", "1 unit", "detail", f"because {key}") for key in CARD_KEYS]
    )
    panel.show()
    qtbot.waitExposed(panel)
    links = [panel.cards[key].why for key in CARD_KEYS]
    links[0].setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is links[0])
    for following in links[1:]:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is following  # one Tab, the next card's link
    card = panel.cards[CARD_KEYS[-1]]
    assert card.why.accessibleName() == f"Why: Title {CARD_KEYS[-1]}"
    qtbot.keyClick(card.why, Qt.Key.Key_Space)
    box = card.explanation_box
    assert box is not None and box.isVisible()
    assert f"because {CARD_KEYS[-1]}" in box.text()
    box.close()
