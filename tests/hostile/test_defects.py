"""One test per defect of the hostile-input audit that the generated corpus does not
already pin down: lost edits, arithmetic failures, M.2 placement, downloads at close,
overrides that crashed later commands, custom snapshots and save targets."""

from __future__ import annotations

import json
import socket
import time
from datetime import date
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.calc import analysis as analysis_module
from core.calc import analyze
from core.calc.platform.pcie import EXHAUSTIVE_PLACEMENTS, assign_pcie
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.errors import AnalysisFailed
from core.files.fetch import FetchLimits
from core.files.io import parse_document
from core.models.build import MAX_DRIVES, MAX_NAME, DriveSelection
from core.models.parts import M2Slot
from core.models.session import MAX_BUILDS
from gui.main import main as rigforge
from gui.viewmodels.session import default_workload
from gui.views import dialogs
from gui.workers.url_loader import UrlLoader
from tests.core import check_parts as parts
from tests.gui.conftest import WindowFactory, open_in_window
from tests.hostile.corpus import VALID
from tests.hostile.limits import bounded
from tests.servers.raw_http import raw_server

CATALOG = load_catalog()


# -- 2. M.2 placement stays fast and still places every drive it can ---------------------


def test_many_m2_slots_place_drives_greedily_and_fast() -> None:
    slots = tuple(
        M2Slot(
            id=f"M.2_{i}", gen=5 if i < 2 else 4, lanes=4, attached_to="cpu" if i < 2 else "chipset"
        )
        for i in range(16)
    )
    board = parts.am5_board().model_copy(update={"m2_slots": slots})
    build = parts.build(motherboard=board, drives=[DriveSelection(drive=parts.nvme(), count=8)])
    assert EXHAUSTIVE_PLACEMENTS < 12_870  # C(16, 8): the exhaustive search is skipped
    with bounded(seconds=2):
        result = assign_pcie(build)
    assert len(result.drive_links) == 8 and result.drives_unplaced == ()
    # The two CPU-attached Gen5 slots are used first.
    assert {"M.2_0", "M.2_1"} <= {d.slot_id for d in result.drive_links}


# -- 5. arithmetic failures become a failed check; an edit that cannot analyse is refused -


def test_arithmetic_failure_in_the_workload_figures_is_a_failed_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def overflow(*_args: object, **_kwargs: object) -> object:
        raise OverflowError("math range error")

    monkeypatch.setattr(analysis_module, "estimate_vram", overflow)
    build = default_build(CATALOG)
    result = analyze(build, default_workload())
    failed = {c.id: c for c in result.checks if c.severity == "fail"}
    assert "analysis.numbers" in failed
    assert result.vram is None and result.throughput is None


def test_arithmetic_failure_in_the_power_budget_is_our_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def divide(*_args: object, **_kwargs: object) -> object:
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(analysis_module, "power_budget", divide)
    with pytest.raises(AnalysisFailed, match="division by zero"):
        analyze(default_build(CATALOG))


def test_cli_check_names_an_analysis_failure_without_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        analysis_module, "power_budget", lambda *a, **k: (_ for _ in ()).throw(OverflowError())
    )
    path = tmp_path / "b.json"
    path.write_text(json.dumps(VALID))
    assert rigforge(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rigforge check: ") and "Traceback" not in err


def test_open_of_a_file_that_cannot_be_analysed_keeps_the_previous_document(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window()
    before, title = win.session_view_model.session, win.windowTitle()
    path = tmp_path / "b.json"
    path.write_text(json.dumps(VALID))
    monkeypatch.setattr(
        "gui.viewmodels.analysis_cache.analyze",
        lambda *a, **k: (_ for _ in ()).throw(AnalysisFailed("numbers too large")),
    )
    assert not open_in_window(qtbot, win, path)
    assert win.session_view_model.session == before
    assert win.windowTitle() == title  # not the new title over the old results
    box = win.file_actions.message_box
    assert box is not None and "numbers too large" in box.text()


def test_an_edit_that_cannot_be_analysed_is_refused(
    make_window: WindowFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window()
    vm = win.session_view_model
    before = vm.session
    monkeypatch.setattr(
        "gui.viewmodels.analysis_cache.analyze",
        lambda *a, **k: (_ for _ in ()).throw(AnalysisFailed("numbers too large")),
    )
    problem = vm.set_value("gpu_count", 2 if vm.build.gpu_count != 2 else 1)
    assert problem is not None and "numbers too large" in problem
    assert vm.session == before
    assert not win.document.dirty


# -- 4. edits the file format would refuse are refused while editing ---------------------


def test_editing_limits_are_the_file_format_limits(make_window: WindowFactory) -> None:
    win = make_window()
    vm = win.session_view_model
    assert vm.rename_build(0, "n" * (MAX_NAME + 1)) is not None
    assert vm.rename_build(0, "n" * MAX_NAME) is None
    drive = vm.build.drives[0]
    too_many = (drive.model_copy(update={"count": MAX_DRIVES}), drive)
    assert vm.set_drives(too_many, "drives") is not None
    assert vm.build.drive_count <= MAX_DRIVES
    for _ in range(MAX_BUILDS - 1):
        assert isinstance(vm.add_build(), int)
    assert isinstance(vm.add_build(), str)
    assert isinstance(vm.duplicate_build(0), str)
    assert len(vm.session.builds) == MAX_BUILDS
    # Everything the editors allowed can be saved and opened again.
    parse_document(json.dumps(win.document.to_document().model_dump(mode="json")).encode(), CATALOG)


def test_a_failed_save_on_close_keeps_the_window_open(
    make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window()
    target = tmp_path / "doc.json"
    assert win.file_actions.save_as(target)
    win.session_view_model.rename_build(0, "edited")
    assert win.document.dirty
    target.unlink()
    target.mkdir()  # the save target is now a folder: the save must fail
    monkeypatch.setattr(dialogs, "ask_unsaved_changes", lambda *_a: "save")
    assert win.close() is False
    assert win.isVisible() and win.document.dirty
    box = win.file_actions.message_box
    assert box is not None and "not a regular file" in box.text()


# -- 7. closing the window during a download is clean ------------------------------------


def test_closing_during_a_download_stops_it_at_once(
    make_window: WindowFactory, qtbot: QtBot
) -> None:
    def silent(conn: socket.socket) -> None:
        time.sleep(20)

    win = make_window()
    win.file_actions.url_limits = FetchLimits(timeout_s=30)
    with raw_server(silent) as base:
        loader = win.file_actions.open_url(base + "/b.json")
        assert isinstance(loader, UrlLoader)
        qtbot.waitUntil(loader.isRunning, timeout=2000)
        started = time.monotonic()
        assert win.close()
        assert time.monotonic() - started < 1.5
        assert not loader.isRunning()  # no "QThread: Destroyed while thread is still running"


# -- 8. an override below a cent is refused and never written ---------------------------


def test_override_below_a_cent_is_refused_and_later_commands_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides = tmp_path / "overrides.json"
    with pytest.raises(SystemExit) as exited:
        rigforge(["prices", "set", "rtx-4090", "0.001", "--overrides", str(overrides)])
    assert exited.value.code == 2
    # One cent in yen is below one US cent: refused by the same check a read applies.
    assert (
        rigforge(
            ["prices", "set", "rtx-4090", "0.5", "--currency", "JPY", "--overrides", str(overrides)]
        )
        == 2
    )
    assert not overrides.exists()
    assert "Traceback" not in capsys.readouterr().err


def test_an_old_overrides_file_with_a_bad_entry_does_not_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overrides = tmp_path / "overrides.json"
    overrides.write_text(
        json.dumps(
            {
                "format": "rigforge-price-overrides",
                "version": 1,
                "published": "2025-01-01",
                "prices": {
                    "rtx-4090": {
                        "price": 0.001,
                        "currency": "USD",
                        "as_of": "2025-01-01",
                        "kind": "street",
                        "source": "old",
                    }
                },
            }
        )
    )
    assert rigforge(["prices", "show", "--overrides", str(overrides), "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["parts"]}
    assert rows["rtx-4090"]["origin"] == "catalog"  # the bad override is ignored


@pytest.mark.parametrize(
    "argv",
    [
        ["prices", "set", "rtx-4090", "nan"],
        ["prices", "set", "rtx-4090", "-5"],
        ["prices", "set", "rtx-4090", "5", "--as-of", "2025-13-01"],
        ["prices", "set", "rtx-4090", "5", "--as-of", f"{date.today().year + 1}-01-01"],
        ["suggest", "--budget", "nan", "--workload", "resnet-50"],
        ["predict", "resnet-50", "rtx-4090", "--batch", "-5"],
        ["check", "x.json", "--utilization", "inf"],
    ],
)
def test_bad_command_line_values_are_named(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        rigforge([*argv, "--overrides", str(tmp_path / "o.json")] if argv[0] == "prices" else argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error: argument" in err


# -- 9. a custom snapshot that reuses a catalog id says so -------------------------------


def test_custom_snapshot_over_a_catalog_id_gives_a_notice() -> None:
    document = json.loads(json.dumps(VALID))
    gpu = document["builds"][0]["gpu"]["snapshot"]
    gpu["custom"] = True
    gpu["memory_bandwidth_gb_s"] = 500.0
    opened = parse_document(json.dumps(document).encode(), CATALOG)
    assert opened.session.builds[0].gpu.memory_bandwidth_gb_s == 500.0
    assert any("own part" in n and "rtx-4090" in n for n in opened.notices)
