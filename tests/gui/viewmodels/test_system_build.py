"""The Build tab's prebuilt-system kind, without a window: which system is shown, its
edits through the undo stack, and its plan for the document's workload."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.files.io import open_file
from core.models.session import Session
from gui.viewmodels.session import SessionViewModel, default_workload
from gui.viewmodels.system_build import SystemBuildViewModel

EXAMPLE = Path(__file__).parents[3] / "resources" / "examples" / "local-llm-2026.json"


@pytest.fixture
def example(qapp: object) -> tuple[SessionViewModel, SystemBuildViewModel]:
    catalog = load_catalog()
    session = SessionViewModel(catalog, open_file(EXAMPLE, catalog).session)
    return session, SystemBuildViewModel(session)


def test_the_example_shows_its_first_system_and_its_serving_plan(
    example: tuple[SessionViewModel, SystemBuildViewModel],
) -> None:
    """Llama 3.3 70B Q4_K_M (42.5 GB of weights) on a DGX Spark, whose GPU may address all
    of its 128 GB: it fits, nothing fails, and the plan names its llama-server line."""
    session, systems = example
    assert systems.index is None and systems.view() is None  # the parts build is shown
    assert systems.show_system() == 0
    view = systems.view()
    assert view is not None
    assert view.plan.system.id == "dgx-spark-128gb"
    assert view.verdict.startswith("Works")
    assert "PASS system.memory" in view.report
    assert view.command is not None and view.command.startswith("llama-server")
    assert len(session.session.systems) == 3  # showing is navigation, not an edit
    assert not session.undo_stack.canUndo()


def test_two_linked_systems_are_an_undoable_edit_priced_as_a_pair(
    example: tuple[SessionViewModel, SystemBuildViewModel],
) -> None:
    """Two DGX Sparks cost two of NVIDIA's $4,699 list price plus the 0.5 m QSFP112 cable
    ($159): $9,557. Undo brings back the single system."""
    session, systems = example
    systems.show_system(0)
    assert systems.set_nodes(2) is None
    view = systems.view()
    assert view is not None and view.plan.name == "2 × NVIDIA DGX Spark"
    assert "$9,557" in view.report
    session.undo_stack.undo()
    assert systems.plan is not None and systems.plan.nodes == 1
    assert systems.set_system("mac-studio-m3-ultra-96gb") is None
    assert systems.plan.system.id == "mac-studio-m3-ultra-96gb"
    assert session.session.systems[0].system.id == "mac-studio-m3-ultra-96gb"


def test_a_document_without_systems_starts_with_the_default_and_undo_returns_to_parts(
    qapp: object,
) -> None:
    catalog = load_catalog()
    session = SessionViewModel(
        catalog, Session(builds=(default_build(catalog),), workload=default_workload())
    )
    systems = SystemBuildViewModel(session)
    assert systems.show_system() == 0
    assert [p.system.id for p in session.session.systems] == ["dgx-spark-128gb"]
    session.undo_stack.undo()  # the system added for the Build tab is gone again
    assert session.session.systems == ()
    assert systems.index is None


def test_fine_tuning_on_a_system_gives_its_memory_and_says_speed_is_not_estimated(
    example: tuple[SessionViewModel, SystemBuildViewModel],
) -> None:
    """QLoRA of Llama 3.1 8B at 2,048 tokens needs a few GiB (4-bit base, 5 GB): it fits a
    128 GB system many times over; no published fine-tuning runs on these systems, so no
    speed. At the model's full 131,072-token context it does not fit, and the fixes offered
    are the ones one box can take (no second GPU)."""
    session, systems = example
    systems.show_system(0)
    assert session.set_preset("llama-3.1-8b") is None
    assert session.set_field("task", "qlora") is None
    assert session.set_field("seq_len", 2048) is None
    assert session.workload is not None and session.workload.task == "qlora"
    view = systems.view()
    assert view is not None
    assert view.verdict == "Fits in memory"
    assert "not estimated" in view.report and view.command is None
    assert session.set_field("seq_len", 131072) is None
    view = systems.view()
    assert view is not None and view.verdict == "Does not fit in memory"
    assert "checkpointing" in view.report and "ZeRO" not in view.report


def test_a_files_system_the_catalog_lacks_stays_itself(
    example: tuple[SessionViewModel, SystemBuildViewModel],
) -> None:
    """A file may hold a system this catalog does not list (from a newer catalog): showing
    it and linking two keep that system, never a catalog one in its place."""
    session, systems = example
    plan = session.session.systems[0]
    foreign = plan.system.model_copy(update={"id": "future-box-256gb", "name": "Future Box"})
    renamed = plan.model_copy(update={"system": foreign, "name": "Future Box"})
    edited = session.session.model_copy(update={"systems": (renamed,)})
    assert session.replace("Foreign system", edited) is None
    systems.show_system(0)
    assert systems.set_nodes(2) is None
    assert systems.plan is not None
    assert (systems.plan.system.id, systems.plan.name) == ("future-box-256gb", "2 × Future Box")
