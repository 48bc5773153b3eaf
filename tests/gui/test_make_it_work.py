"""*Make it work* in the window: one plan, applied as one undo step, its changes listed."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.calc.suggest.signable import blocking
from core.files.io import open_file
from gui.views.main_window import MainWindow
from tests.core.calc.test_fixplan import EXAMPLE
from tests.gui.conftest import put_build


def test_make_it_work_applies_one_plan_as_one_undo_step(window: MainWindow, qtbot: QtBot) -> None:
    catalog = window.session_view_model.catalog
    starter = open_file(EXAMPLE, catalog).session.builds[0]
    broken = starter.model_copy(update={"gpu_count": 2, "name": "Mine"})
    put_build(window, broken)
    assert window.analysis_view_model.analysis.verdict != "pass"
    assert window.results.banner.plan_button.isVisibleTo(window.results.banner)
    steps = window.session_view_model.undo_stack.count()
    with qtbot.waitSignal(window.view_models.plan.planned, timeout=60_000) as planned:
        window.plan_actions.action.trigger()
    plan = planned.args[0]
    assert plan.found and plan.changes
    analysis = window.analysis_view_model.analysis
    assert analysis.verdict == "pass" and not blocking(analysis)
    assert window.session_view_model.build.name == "Mine"  # the user's name stays
    assert window.session_view_model.undo_stack.count() == steps + 1
    box = window.plan_actions.message_box
    assert box is not None and "→" in box.text() and "parts total" in box.text()
    box.close()
    window.undo_action.trigger()
    assert window.session_view_model.build == broken
