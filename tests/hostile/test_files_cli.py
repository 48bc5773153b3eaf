"""The hostile corpus through every command that reads a file: check, export, convert.

Each case ends within the limits with a clean result or the project's own one-line
error (exit status 2, no traceback).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.errors import RigForgeError
from core.files.document import CURRENT_VERSION
from core.files.io import open_file
from gui.main import main as rigforge
from tests.hostile.corpus import MARKUP, Case, document_cases
from tests.hostile.limits import bounded

CASES = document_cases()
CATALOG = load_catalog()


def _ids(cases: list[Case]) -> list[str]:
    return [c.name for c in cases]


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_loader(case: Case, tmp_path: Path) -> None:
    path = case.path(tmp_path)
    with bounded():
        try:
            opened = open_file(path, CATALOG)
        except RigForgeError as error:
            outcome, message = "refused", str(error)
        else:
            outcome, message = "opens", ""
            assert opened.session.builds
    assert outcome == case.expect, message
    if message:
        assert "\n" not in message and len(message) < 600
        assert "Traceback" not in message


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    with bounded():
        status = rigforge(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _assert_outcome(case: Case, command: str, status: int, err: str) -> None:
    assert "Traceback" not in err
    if case.expect == "refused":
        assert status == 2, err
        assert err.startswith(f"rigforge {command}: "), err
        assert err.count("\n") == 1, err  # one line, in words
    else:
        assert status in (0, 1), err


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_check(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, ["check", str(case.path(tmp_path))])
    _assert_outcome(case, "check", status, err)
    if case.name == "markup-everywhere":
        assert MARKUP in out  # a terminal shows text as it is: nothing to render


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_convert(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "converted.json"
    argv = [
        "convert",
        str(case.path(tmp_path)),
        "--to-version",
        str(CURRENT_VERSION),
        "-o",
        str(out_file),
    ]
    status, _out, err = _run(capsys, argv)
    _assert_outcome(case, "convert", status, err)
    assert out_file.exists() == (case.expect == "opens")


OPENED_FOR_EXPORT = (
    "valid",
    "markup-everywhere",
    "m2-16-slots-24-drives",
    "control-characters",
    "board-power-max-valid",
    "utf16-bom",
    "custom-snapshot-over-catalog",
)
"""Valid cases worth a PDF each (every refused case is exported too). A 64-build sheet
is valid but takes about 8 s to lay out, so it is measured in benchmarks/bench_pdf.py."""
EXPORTED = [c for c in CASES if c.expect == "refused" or c.name in OPENED_FOR_EXPORT]


@pytest.mark.parametrize("case", EXPORTED, ids=_ids(EXPORTED))
def test_export(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str], qapp: object
) -> None:
    pdf = tmp_path / "sheet.pdf"
    status, _out, err = _run(capsys, ["export", str(case.path(tmp_path)), "-o", str(pdf)])
    _assert_outcome(case, "export", status, err)
    if case.expect == "opens":
        assert pdf.read_bytes().startswith(b"%PDF-")
    else:
        assert not pdf.exists()
