"""Small widget factories shared by the build and workload editors."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from core.fields import Field
from gui.views import plain

SPIN_MAX = 2**31 - 1
"""The largest value a Qt spin box holds."""


def spin_box(
    minimum: int, maximum: int, tip: str, *, suffix: str = "", special: str = ""
) -> QSpinBox:
    """A spin box that commits one edit per finished value, not per keystroke."""
    spin = QSpinBox()
    spin.setRange(minimum, maximum)
    spin.setKeyboardTracking(False)
    spin.setSuffix(suffix)
    spin.setToolTip(plain.tip(tip))
    spin.setMinimumWidth(48)  # the range's widest text would widen the whole column
    if special:
        spin.setSpecialValueText(special)
    return spin


def compact_form() -> QFormLayout:
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setContentsMargins(6, 4, 6, 4)
    form.setVerticalSpacing(4)
    return form


def _combo(items: tuple[str, ...], tip: str) -> QComboBox:
    combo = QComboBox()
    combo.addItems(items)
    combo.setToolTip(plain.tip(tip))
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(5)
    return combo


def field_widget(f: Field) -> QWidget:
    """The input for one field, from its kind, range, unit and help."""
    if f.kind == "choice":
        return _combo(f.choices, f.help)
    if f.kind == "switch":
        box = QCheckBox(f.label)
        box.setToolTip(plain.tip(f.help))
        return box
    if f.kind == "whole":
        spin = spin_box(
            int(f.low), int(min(f.high, SPIN_MAX)), f.help, suffix=f.unit, special=f.special or ""
        )
        spin.setSingleStep(int(f.step))
        return spin
    number = QDoubleSpinBox()
    number.setRange(f.low, f.high)
    number.setDecimals(f.decimals)
    number.setSuffix(f.unit)
    number.setKeyboardTracking(False)
    number.setToolTip(plain.tip(f.help))
    number.setMinimumWidth(60)
    if f.special:
        number.setSpecialValueText(f.special)
    return number
