"""Part picker filters and the custom-part dialog's validation."""

from __future__ import annotations

import json

from pytestqt.qtbot import QtBot

from core.catalog import load_catalog
from gui.views.custom_part_dialog import CustomPartDialog
from gui.views.part_picker import PartPickerDialog


def test_picker_dialog_filters_by_vendor_vram_and_price(qtbot: QtBot) -> None:
    gpus = load_catalog().parts("gpu")
    dialog = PartPickerDialog("gpu", gpus)
    qtbot.addWidget(dialog)
    dialog.min_vram.setValue(40)
    dialog.max_price.setValue(20000)
    shown = dialog.visible_parts()
    assert shown
    assert all(p.vram_gib >= 40 and p.price.usd is not None and p.price.usd <= 20000 for p in shown)  # type: ignore[attr-defined]
    assert dialog.table.rowCount() == len(shown)
    dialog.search.setText("4090")
    dialog.min_vram.setValue(0)
    dialog.max_price.setValue(0)
    named = {p.id for p in gpus if "4090" in p.name}
    assert named and {p.id for p in dialog.visible_parts()} == named  # every 4090, only those


def test_custom_part_is_validated_like_the_catalog(qtbot: QtBot) -> None:
    catalog = load_catalog()
    dialog = CustomPartDialog(lambda category: catalog.parts(category))  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    dialog.category.setCurrentText("psu")
    entry = json.loads(dialog.editor.toPlainText())
    entry["wattage_w"] = -5
    dialog.editor.setPlainText(json.dumps(entry))
    dialog.accept()
    assert "Wattage (W): " in dialog.error.text()  # the field as a person reads it
    assert dialog.part is None or dialog.result() == 0
    entry["wattage_w"] = 2000
    dialog.editor.setPlainText(json.dumps(entry))
    dialog.accept()
    assert dialog.part is not None and dialog.part.custom
    assert dialog.part.wattage_w == 2000  # type: ignore[attr-defined]
