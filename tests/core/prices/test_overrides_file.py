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


FUTURE = {
    "format": "rigforge-price-overrides",
    "version": 1,
    "published": "2099-01-01",
    "prices": {
        "rtx-4090": {"price": 1799, "currency": "USD", "as_of": "2026-01-01", "source": "shop"}
    },
}


@pytest.mark.parametrize(
    "command",
    [
        ["check", "--default", "--json"],
        ["suggest", "--workload", "resnet-50", "--budget", "4000", "--json"],
        ["prices", "show", "--json"],
    ],
)
def test_a_future_published_date_names_the_overrides_file_and_stops_nothing(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was "rigforge check: the price feed's 'published' date 2099-01-01 is in the future"
    # and exit status 2 for every command: the date is only when the file was last written
    path = tmp_path / "overrides.json"
    path.write_text(json.dumps(FUTURE), "utf-8")
    assert rigforge([*command, "--overrides", str(path)]) == 0
    out, err = capsys.readouterr()
    json.loads(out)
    assert (
        f"rigforge: note: the price overrides file {str(path)!r} has a 'published' date in "
        "the future (2099-01-01); the date was ignored"
    ) in err
    assert "price feed" not in err


def test_a_future_published_date_does_not_stop_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], qapp: object
) -> None:
    path = tmp_path / "overrides.json"
    path.write_text(json.dumps(FUTURE), "utf-8")
    pdf = tmp_path / "sheet.pdf"
    example = EXAMPLES / "single-rtx-4090.json"
    assert rigforge(["export", str(example), "-o", str(pdf), "--overrides", str(path)]) == 0
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert "price overrides file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "content",
    [
        b'{"format": "rigforge-price-overrides", "version": 1, "prices": {',  # truncated
        b'{"format": "rigforge-price-overrides", "version": 1, "prices": []}',  # not an object
        b'{"format": "rigforge-price-overrides", "version": 1, "prices": 5}',
        b'{"format": "rigforge-price-overrides", "version": 1, "version": 1, "prices": {}}',
        b"\xff\xfe\x00garbage",
        b"",
    ],
    ids=["truncated", "prices-list", "prices-number", "duplicate-key", "garbage", "empty"],
)
def test_prices_set_never_rewrites_a_file_it_could_not_read(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a "prices": [] file was rewritten with only the new entry
    path = tmp_path / "overrides.json"
    path.write_bytes(content)
    assert _set(path) == 2
    assert path.read_bytes() == content
    err = capsys.readouterr().err
    assert err.startswith("rigforge prices: ") and "Traceback" not in err
    assert rigforge(["prices", "unset", "rtx-4090", "--overrides", str(path)]) == 2
    assert path.read_bytes() == content


def test_thousands_of_refused_entries_are_counted_not_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = {"price": 1, "currency": "USD", "as_of": "2026-01-01", "source": "x"}
    document = {
        "format": "rigforge-price-overrides",
        "version": 1,
        "prices": {f"no-such-part-{i}": entry for i in range(3000)},
    }
    path = tmp_path / "overrides.json"
    path.write_text(json.dumps(document), "utf-8")
    assert rigforge(["check", "--default", "--overrides", str(path)]) in (0, 1)
    err = capsys.readouterr().err
    assert err.count("price override ignored: no-such-part-") == 5
    assert "… and 2,995 more (rigforge prices show --json lists them all)" in err
