"""``rigforge check`` gates a purchase: exit 1 when any check fails, JSON for scripts."""

import json
from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.cli import main
from core.files.io import save_file
from core.models.session import Session

CATALOG = load_catalog()


def test_default_build_prints_checks(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "--default"])
    out = capsys.readouterr().out
    assert "Two RTX 4090 workstation" in out
    assert "power.circuit" in out
    assert status == (1 if "FAIL " in out else 0)


def test_sxm_build_fails_with_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sxm = default_build(CATALOG).model_copy(
        update={"gpu": CATALOG.gpu("A100 80GB SXM4"), "gpu_count": 8, "name": "8x SXM"}
    )
    path = tmp_path / "sxm.json"
    save_file(path, Session(builds=(sxm,)))
    assert main(["check", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "fail"
    (build,) = report["builds"]
    failed = {c["id"] for c in build["checks"] if c["severity"] == "fail"}
    assert "physical.form_factor" in failed
    assert all(c["text"] for c in build["checks"])


def test_workload_adds_vram_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.json"
    save_file(path, Session(builds=(default_build(CATALOG),)))
    status = main(["check", str(path), "--workload", "Llama-2 70B", "--json"])
    report = json.loads(capsys.readouterr().out)
    vram = next(c for c in report["builds"][0]["checks"] if c["id"] == "vram.fit")
    # 70e9 parameters × 16 bytes (mixed-precision Adam) ≫ 24 GiB: cannot fit, so the gate fails.
    assert vram["severity"] == "fail"
    assert status == 1


def test_bad_file_gives_message_not_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "rigforge", "version": 2, "builds": [')
    assert main(["check", str(path)]) == 2
    assert "broken.json" in capsys.readouterr().err
