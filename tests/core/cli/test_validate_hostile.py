"""`rigforge validate` on damaged CSV files: a message naming the line, or the bad rows
left unresolved, and JSON that stays JSON; never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gui.main import main

BENCHMARKS = Path(__file__).parents[3] / "resources" / "benchmarks"
CALIBRATION = (BENCHMARKS / "throughput_calibration.csv").read_text(encoding="utf-8")
MEMORY = (BENCHMARKS / "llm_finetune_memory_published.csv").read_text(encoding="utf-8")


def _with_cell(text: str, column: str, value: str) -> str:
    """The header and the first row of ``text`` with ``column`` set to ``value``."""
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(text)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerow(rows[0] | {column: value})
    return out.getvalue()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_with_cell(CALIBRATION, "throughput", "1e400"), "line 2: '1e400' is not a finite"),
        (_with_cell(CALIBRATION, "throughput", "nan"), "line 2: 'nan' is not a finite"),
        (_with_cell(CALIBRATION, "throughput", "0"), "line 2: throughput '0' is not positive"),
        (
            _with_cell(CALIBRATION, "gpu_count", "0"),
            "line 2: gpu_count '0' is not a whole number from 1 to 16,384",
        ),
        (CALIBRATION.splitlines()[0] + "\na,b\n", "calibration CSV line 2"),
        (_with_cell(CALIBRATION, "notes", "x" * 120_000), "line 2: a cell of more than 100,000"),
        # past the csv module's own limit (131,072) the message still names the documented one
        (_with_cell(CALIBRATION, "notes", "x" * 200_000), "line 2: a cell of more than 100,000"),
    ],
)
def test_a_damaged_throughput_csv_names_its_line(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path), "--json"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("column", "value"),
    [("batch", "inf"), ("batch", "9" * 5000), ("measured_gib", "0"), ("measured_gib", "1e400")],
)
def test_a_damaged_memory_row_is_left_unresolved_and_the_json_stays_json(
    column: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(_with_cell(MEMORY, column, value), encoding="utf-8")
    assert main(["validate", str(path), "--json"]) == 0

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    data = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert data["rows"] == 1
    if column == "measured_gib":
        assert data["compared"] == 0 and data["unresolved"]
