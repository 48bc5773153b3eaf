"""The checks table gives its "Why" column the larger share of the width at any window
size (at 1280×720 the table is about 480 px wide; "Why" used to keep 26 px of "…")."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui.views.checks_panel import ChecksPanel


@pytest.mark.parametrize("width", [480, 640, 1200])
def test_why_column_is_wider_than_fix(qtbot: QtBot, width: int) -> None:
    panel = ChecksPanel()
    qtbot.addWidget(panel)
    panel.resize(width, 400)
    panel.show()
    qtbot.waitExposed(panel)
    table = panel.table
    why, fix = table.columnWidth(2), table.columnWidth(3)
    assert why > fix >= 90
    assert why >= 140
    used = sum(table.columnWidth(c) for c in range(4))
    assert used <= table.viewport().width() + 1  # nothing hidden off the right edge
