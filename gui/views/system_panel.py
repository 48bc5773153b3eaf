"""The Build tab when the build is a prebuilt system: the system and how many are linked
(the editor column), and its plan for the workload in full (where the parts build shows its
checks and charts)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from gui.viewmodels.system_build import SystemBuildViewModel
from gui.views import plain
from gui.views.launch_line import LaunchLine


class SystemEditor(QGroupBox):
    """Which prebuilt system, and one or two of them linked by their fastest port."""

    def __init__(self, view_model: SystemBuildViewModel) -> None:
        super().__init__("Prebuilt system")
        self._vm = view_model
        self.choice = QComboBox()
        for system_id, name in view_model.choices:
            self.choice.addItem(name, system_id)
        self.choice.setToolTip(
            plain.tip("A unified-memory system: CPU and GPU share one memory; no parts to pick")
        )
        self.nodes = QComboBox()
        self.nodes.addItem("One system", 1)
        self.nodes.addItem("Two, linked by their fastest port", 2)
        self.nodes.setToolTip(
            plain.tip("Two identical systems joined by their fastest port serve one model")
        )
        form = QFormLayout(self)
        form.addRow("System", self.choice)
        form.addRow("How many", self.nodes)
        note = plain.label(
            "Saved with the document and compared beside the builds (Compare tab). "
            "The workload below applies to it."
        )
        note.setWordWrap(True)
        form.addRow(note)
        self.choice.activated.connect(self._on_choice_activated)
        self.nodes.activated.connect(self._on_nodes_activated)
        view_model.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        plan = self._vm.plan
        if plan is None:
            return
        for widget in (self.choice, self.nodes):
            widget.blockSignals(True)
        index = self.choice.findData(plan.system.id)
        if index < 0:  # a file's system this catalog does not list: shown, not replaced
            self.choice.addItem(f"{plan.system.name} (from the file)", plan.system.id)
            index = self.choice.count() - 1
        self.choice.setCurrentIndex(index)
        self.nodes.setCurrentIndex(max(0, self.nodes.findData(plan.nodes)))
        for widget in (self.choice, self.nodes):
            widget.blockSignals(False)

    def _on_choice_activated(self, index: int) -> None:
        self._vm.set_system(str(self.choice.itemData(index)))

    def _on_nodes_activated(self, index: int) -> None:
        self._vm.set_nodes(int(self.nodes.itemData(index)))


class SystemResults(QWidget):
    """The shown system's plan: verdict, every figure, note and check, and the engine
    command line with a Copy button. Plain text throughout (names come from files)."""

    def __init__(self, view_model: SystemBuildViewModel) -> None:
        super().__init__()
        self._vm = view_model
        self.title = plain.label()
        bold = self.title.font()
        bold.setBold(True)
        bold.setPointSizeF(bold.pointSizeF() * 1.2)
        self.title.setFont(bold)
        self.verdict = plain.label()
        self.verdict.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.launch_line = LaunchLine()
        self.launch = self.launch_line.launch
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.verdict)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.launch_line)
        view_model.changed.connect(self.refresh)

    def refresh(self) -> None:
        view = self._vm.view()
        if view is None:
            return
        self.title.setText(view.plan.name)
        self.verdict.setText(view.verdict)
        self.text.setPlainText(view.report)
        self.launch_line.set_command(view.command)
