"""Adding drives stops at the file format's limit with a message, in the view-model and in
the build editor (no window needed): a click past 24 drives used to raise a
ValidationError out of the button's slot."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.build import MAX_DRIVES
from core.models.session import Session
from gui.viewmodels.session import SessionViewModel, default_workload
from gui.views.build_editor import BuildEditorPanel

CATALOG = load_catalog()
DRIVE = "samsung-990-pro-2tb"


def view_model() -> SessionViewModel:
    build = default_build(CATALOG)
    return SessionViewModel(CATALOG, Session(builds=(build,), workload=default_workload()))


def test_the_view_model_adds_drives_up_to_the_limit_then_says_why_not() -> None:
    vm = view_model()
    rejected: list[str] = []
    vm.edit_rejected.connect(rejected.append)
    assert vm.build.drive_count == 1  # the default build has one 990 PRO
    for _ in range(MAX_DRIVES - 1):
        assert vm.add_drive(DRIVE) is None
    assert vm.build.drive_count == MAX_DRIVES == 24
    assert not vm.can_add_drive()
    message = vm.add_drive(DRIVE)
    assert message is not None and "at most 24 drives" in message
    assert rejected == [message]
    assert vm.build.drive_count == 24  # unchanged
    vm.undo_stack.undo()  # each add was one undo step
    assert vm.build.drive_count == 23 and vm.can_add_drive()


def test_remove_keeps_one_drive() -> None:
    vm = view_model()
    message = vm.remove_drive(0)
    assert message is not None and "at least one drive" in message
    assert vm.build.drive_count == 1


def test_the_editor_disables_add_at_the_limit_and_a_click_changes_nothing(
    qtbot: QtBot,
) -> None:
    vm = view_model()
    panel = BuildEditorPanel(vm)
    qtbot.addWidget(panel)
    assert panel.drive_picker.current_id() == DRIVE  # the build's drive is chosen
    for _ in range(MAX_DRIVES - 1):
        panel._on_add_drive_button_clicked()
    assert vm.build.drive_count == MAX_DRIVES
    qtbot.waitUntil(lambda: not panel.add_drive_button.isEnabled(), timeout=2000)
    assert "24" in panel.add_drive_button.toolTip()
    panel._on_add_drive_button_clicked()  # what a click would do: no exception
    assert vm.build.drive_count == MAX_DRIVES
