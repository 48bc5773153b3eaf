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
    assert "not a RigForge price-overrides file; it was left as it is" in err
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


def test_check_and_suggest_name_ignored_overrides_and_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad entries were dropped silently and a mistyped --overrides path applied nothing
    without a word; the notes go to standard error so --json stays parseable."""
    path = tmp_path / "overrides.json"
    entry = {"currency": "USD", "as_of": "2026-01-01", "source": "x"}
    path.write_text(
        json.dumps(
            {
                "format": "rigforge-price-overrides",
                "version": 1,
                "prices": {"rtx-4090": entry | {"price": -5}, "rtx-3090": entry | {"price": 900}},
            }
        ),
        "utf-8",
    )
    assert rigforge(["check", "--default", "--overrides", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    json.loads(out)  # stdout is the JSON document alone
    assert "rigforge: note: price override ignored: rtx-4090: the entry is invalid" in err
    assert "rtx-3090" not in err  # the good entry applies without a note

    missing = tmp_path / "typo.json"
    rigforge(
        ["suggest", "--workload", "resnet-50", "--budget", "4000", "--overrides", str(missing)]
    )
    err = capsys.readouterr().err
    assert f"the price overrides file {str(missing)!r} does not exist; none applied" in err
