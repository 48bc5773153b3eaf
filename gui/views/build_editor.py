"""Build editor: part pickers, GPU count, power limit, NVLink, drives, PSU sizing."""

from __future__ import annotations

from functools import partial
from typing import cast

from PySide6.QtWidgets import (
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.fields import BUILD_FIELDS
from core.models.build import MAX_DRIVES, Build
from core.models.session import Session
from gui.viewmodels.session import SessionViewModel
from gui.views import plain
from gui.views.custom_part_dialog import CustomPartDialog
from gui.views.editor_widgets import compact_form, field_widget
from gui.views.part_picker import PartPicker


class BuildEditorPanel(QWidget):
    def __init__(self, view_model: SessionViewModel) -> None:
        super().__init__()
        self._vm = view_model
        self._shown: Build | None = None
        self.pickers = {
            "gpu": PartPicker("gpu"),
            "cpu": PartPicker("cpu"),
            "motherboard": PartPicker("motherboard"),
            "memory": PartPicker("memory"),
            "psu": PartPicker("psu", optional=True, none_text="none (size it for me)"),
            "case": PartPicker("case", optional=True, none_text="no case chosen"),
            "riser": PartPicker("riser", optional=True, none_text="none: GPUs in their slots"),
        }
        # the build's settings, from core.fields.BUILD_FIELDS
        self.inputs: dict[str, QSpinBox] = {
            f.key: cast(QSpinBox, field_widget(f)) for f in BUILD_FIELDS
        }
        self._help = {f.key: f.help for f in BUILD_FIELDS}
        self.gpu_count = self.inputs["gpu_count"]
        self.power_limit = self.inputs["gpu_power_limit_w"]
        self.power_limit.setPrefix("limit ")  # says what the box is: "limit 420 W"
        self.nvlink = self.inputs["nvlink_bridges"]
        self.memory_kits = self.inputs["memory_kits"]
        self.psu_count = self.inputs["psu_count"]
        self.size_psu_button = QPushButton("Size the PSU for me")
        self.size_psu_button.setToolTip(
            plain.tip(
                "Pick the smallest catalog PSU with ≥ 20 % steady headroom, the GPU spike "
                "within its excursion limit, and the GPU power cables"
            )
        )
        self.drive_list = QListWidget()
        self.drive_list.setMaximumHeight(48)
        self.drive_picker = PartPicker("drive")
        self.add_drive_button = QPushButton("Add")
        self.add_drive_button.setToolTip(plain.tip("Add one of the drive chosen on the left"))
        self.remove_drive_button = QPushButton("Remove")
        self.remove_drive_button.setToolTip(plain.tip("Remove the drive selected in the list"))
        for button in (self.add_drive_button, self.remove_drive_button):
            button.setStyleSheet("padding: 2px 6px;")
        self.custom_part_button = QPushButton("Custom part…")
        self.custom_part_button.setToolTip(plain.tip("Define a part that is not in the catalog"))
        self.custom_dialog: CustomPartDialog | None = None
        self._layout()
        self._connect()
        view_model.session_changed.connect(self._on_session_changed)
        self._on_build_changed(view_model.build)

    def _layout(self) -> None:
        gpus = compact_form()
        gpus.addRow("GPU", self.pickers["gpu"])
        row = QHBoxLayout()
        row.addWidget(self.gpu_count)
        row.addWidget(self.power_limit, 1)
        row.addWidget(plain.label("NVLink"))
        row.addWidget(self.nvlink)
        gpus.addRow("Count", row)
        host = compact_form()
        host.addRow("CPU", self.pickers["cpu"])
        host.addRow("Board", self.pickers["motherboard"])
        memory = QHBoxLayout()
        memory.addWidget(self.pickers["memory"], 1)
        memory.addWidget(plain.label("×"))
        memory.addWidget(self.memory_kits)
        host.addRow("Memory", memory)
        drives = QHBoxLayout()
        drives.addWidget(self.drive_picker, 1)
        drives.addWidget(self.add_drive_button)
        drives.addWidget(self.remove_drive_button)
        host.addRow("Drives", self.drive_list)
        host.addRow("", drives)
        psu = QHBoxLayout()
        psu.addWidget(self.pickers["psu"], 1)
        psu.addWidget(plain.label("×"))
        psu.addWidget(self.psu_count)
        host.addRow("PSU", psu)
        host.addRow("", self.size_psu_button)
        host.addRow("Case", self.pickers["case"])
        host.addRow("Risers", self.pickers["riser"])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        for title, form in (("GPUs", gpus), ("Platform", host)):
            box = QGroupBox(title)
            box.setLayout(form)
            layout.addWidget(box)
        layout.addWidget(self.custom_part_button)

    def _connect(self) -> None:
        for field, picker in self.pickers.items():
            picker.part_chosen.connect(
                lambda part_id, field=field: self._on_picker_part_chosen(field, part_id)
            )
        for key, spin in self.inputs.items():
            spin.valueChanged.connect(
                lambda value, key=key: self._edited(self._vm.set_value(key, value))
            )
        self.size_psu_button.clicked.connect(self._on_size_psu_button_clicked)
        self.add_drive_button.clicked.connect(self._on_add_drive_button_clicked)
        self.remove_drive_button.clicked.connect(self._on_remove_drive_button_clicked)
        self.custom_part_button.clicked.connect(self._on_custom_part_button_clicked)

    # -- model -> widgets ----------------------------------------------------------

    def _on_session_changed(self, session: Session) -> None:
        if session.build is not self._shown:
            self._on_build_changed(session.build)

    def _on_build_changed(self, build: Build) -> None:
        self._shown = build
        for field, picker in self.pickers.items():
            category = picker.category
            picker.set_parts(
                self._vm.parts(category),
                getattr(build, field),
                partial(self._vm.incompatibilities, category),  # worked out after the paint
            )
        self.drive_picker.set_parts(self._vm.parts("drive"), build.drives[0].drive)
        for key, spin in self.inputs.items():
            blocked = spin.blockSignals(True)
            spin.setValue(round(self._vm.build_value(key)))
            spin.blockSignals(blocked)
            why = self._vm.build_field_off_reason(key)
            spin.setEnabled(why is None)
            spin.setToolTip(plain.tip(why or self._help[key]))
        drives = [f"{s.count} × {s.drive.name}" for s in build.drives]
        shown = [self.drive_list.item(i).text() for i in range(self.drive_list.count())]
        if drives != shown:
            self.drive_list.clear()
            self.drive_list.addItems(drives)
        self.remove_drive_button.setEnabled(len(build.drives) > 1)
        full = not self._vm.can_add_drive()
        self.add_drive_button.setEnabled(not full)
        self.add_drive_button.setToolTip(
            plain.tip(
                f"The build holds the most drives a file can ({MAX_DRIVES}); remove one first"
                if full
                else "Add one of the drive chosen on the left"
            )
        )

    def _refresh(self) -> None:
        """Put the model's values back after a refused edit."""
        self._on_build_changed(self._vm.build)

    def refresh_parts(self) -> None:
        """List the parts again (their prices changed: an override, a feed)."""
        self._refresh()

    # -- widgets -> intents -----------------------------------------------------------

    def _edited(self, error: str | None) -> None:
        if error is not None:
            self._refresh()

    def _on_picker_part_chosen(self, field: str, part_id: str | None) -> None:
        self._edited(self._vm.set_part(field, part_id))

    def _on_size_psu_button_clicked(self) -> None:
        self._vm.size_psu()

    def _on_add_drive_button_clicked(self) -> None:
        part_id = self.drive_picker.current_id()
        if part_id is not None:
            self._edited(self._vm.add_drive(part_id))

    def _on_remove_drive_button_clicked(self) -> None:
        self._edited(self._vm.remove_drive(self.drive_list.currentRow()))

    def _on_custom_part_button_clicked(self) -> None:
        self.custom_dialog = CustomPartDialog(self._vm.parts, self)
        if self.custom_dialog.exec() == QDialog.DialogCode.Accepted and self.custom_dialog.part:
            self._vm.add_custom_part(self.custom_dialog.part)
            self._refresh()
