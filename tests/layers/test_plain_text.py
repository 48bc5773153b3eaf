"""Every widget that shows data shows plain text: the GUI code goes through gui.views.plain.

Qt renders any string that looks like HTML as HTML. A new ``QLabel(...)`` or a raw
``setToolTip(...)`` would show a file's ``<img src=...>`` as an image, so both are
allowed only through the helpers (or, for the two labels that hold our own markup and
no data, by name here).
"""

from __future__ import annotations

import re
from pathlib import Path

GUI = Path(__file__).parents[2] / "gui"
OWN_MARKUP = {"about_dialog.py", "summary_cards.py"}  # fixed text, no data


def _sources() -> list[Path]:
    return [p for p in GUI.rglob("*.py") if p.name != "plain.py" and "pdf" not in p.parts]


def test_labels_are_made_plain() -> None:
    offenders = []
    for path in _sources():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"(?<![\w.])QLabel\(", line) and path.name not in OWN_MARKUP:
                offenders.append(f"{path.relative_to(GUI)}:{number}")
    assert offenders == [], "use gui.views.plain.label"


def test_tooltips_are_escaped() -> None:
    offenders = []
    for path in _sources():
        text = path.read_text()
        for match in re.finditer(r"\.setToolTip\((?!\s*plain\.tip\()", text):
            offenders.append(f"{path.relative_to(GUI)}:{text.count(chr(10), 0, match.start()) + 1}")
        for match in re.finditer(r"showText\(", text):
            if "plain.tip(" not in text[match.end() : match.end() + 200]:
                offenders.append(f"{path.relative_to(GUI)} showText")
    assert offenders == [], "wrap tooltips in gui.views.plain.tip"


def test_message_boxes_are_plain() -> None:
    offenders = [
        str(p.relative_to(GUI))
        for p in _sources()
        if re.search(
            r"QMessageBox\.(critical|warning|information|question)\(|QMessageBox\(", p.read_text()
        )
    ]
    assert offenders == [], "use gui.views.plain.message_box"
