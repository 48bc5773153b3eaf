"""`prices set` never rewrites a file that is not this RigForge's price-overrides file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui.main import main as rigforge

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def _set(path: Path) -> int:
    return rigforge(["prices", "set", "rtx-4090", "1799", "--overrides", str(path)])


def test_a_build_file_given_as_overrides_is_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = next(iter(sorted(EXAMPLES.glob("*.json"))))
    path = tmp_path / "build.json"
    path.write_bytes(example.read_bytes())
    before = path.read_bytes()
    assert _set(path) != 0
    assert path.read_bytes() == before
    err = capsys.readouterr().err
    assert "not a RigForge price-overrides file (it was left as it is)" in err
    assert "Traceback" not in err


def test_a_newer_overrides_file_is_not_downgraded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "overrides.json"
    newer = {"format": "rigforge-price-overrides", "version": 2, "prices": {}, "extra": [1]}
    path.write_text(json.dumps(newer), "utf-8")
    before = path.read_bytes()
    assert _set(path) != 0
    assert path.read_bytes() == before
    assert "price-overrides version 2 is not supported" in capsys.readouterr().err


def test_a_missing_overrides_file_is_created_and_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new" / "overrides.json"
    assert _set(path) == 0
    written = json.loads(path.read_text("utf-8"))
    assert written["format"] == "rigforge-price-overrides"
    assert written["version"] == 1
    assert written["prices"]["rtx-4090"]["price"] == 1799
    assert written["prices"]["rtx-4090"]["currency"] == "USD"
