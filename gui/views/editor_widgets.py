"""Small widget factories shared by the build and workload editors."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QSpinBox

from gui.views import plain


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
