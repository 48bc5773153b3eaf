"""`rigforge validate` on hostile measurement files: a GPU count far past any published
cluster is named, never predicted (prediction time grows with the count)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from gui.main import main as rigforge
from tests.hostile.limits import bounded

BENCHMARKS = Path(__file__).resolve().parents[2] / "resources" / "benchmarks"


def _with_first_row(name: str, column: str, value: str, tmp_path: Path) -> Path:
    rows = list(csv.DictReader(io.StringIO((BENCHMARKS / name).read_text("utf-8"))))
    rows = rows[:1]
    rows[0][column] = value
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    path = tmp_path / name
    path.write_text(out.getvalue(), "utf-8")
    return path


@pytest.mark.parametrize("count", ["1000000000", "1e9", "16385", "0", "2.5", "-3"])
def test_a_modern_training_row_with_an_impossible_gpu_count_is_left_unresolved(
    count: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_first_row("training_modern_calibration.csv", "gpu_count", count, tmp_path)
    with bounded():
        code = rigforge(["validate", str(path), "--json"])
    out = capsys.readouterr().out
    assert code == 0
    assert '"resolved": 0' in out
    assert f"gpu_count '{count}' is not a whole number from 1 to 16,384" in out


def test_the_largest_published_cluster_still_resolves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 16,384 GPUs: Meta's Llama 3 405B pre-training (the bound itself)
    path = _with_first_row("training_modern_calibration.csv", "gpu_count", "16384", tmp_path)
    with bounded():
        rigforge(["validate", str(path), "--json"])
    assert '"resolved": 1' in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "column"),
    [
        ("throughput_calibration.csv", "gpu_count"),
        ("llm_inference_calibration.csv", "gpu_count"),
    ],
)
def test_a_calibration_row_with_a_billion_gpus_is_refused_by_line(
    name: str, column: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_first_row(name, column, "1000000000", tmp_path)
    with bounded():
        code = rigforge(["validate", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "line 2: gpu_count '1000000000' is not a whole number from 1 to 16,384" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        # a zero measurement divided the error by zero (a traceback)
        ("measured_tokens_s", "0", "line 2: measured_tokens_s '0' is not positive"),
        ("measured_tokens_s", "-5", "line 2: measured_tokens_s '-5' is not positive"),
        ("measured_tokens_s", "abc", "line 2: 'abc' is not a number"),
        ("batch", "0", "line 2: batch 0 is not from 1 to 4,096"),
        ("batch", "9" * 5000, "line 2: batch '99999999"),
        # the prompt pipeline loops once per micro-batch: 1e11 tokens would run for hours
        (
            "prompt_tokens",
            "99999999999",
            "prompt_tokens and gen_tokens must be from 0 to 10,000,000",
        ),
        ("gen_tokens", "-1", "prompt_tokens and gen_tokens must be from 0 to 10,000,000"),
    ],
)
def test_a_serving_row_with_an_impossible_cell_is_refused_by_line(
    column: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_first_row("llm_inference_calibration.csv", column, value, tmp_path)
    with bounded():
        code = rigforge(["validate", str(path), "--json"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_csv_of_no_known_kind_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was "calibration CSV lacks column(s): interconnect, precision, ..." for any CSV
    path = tmp_path / "mine.csv"
    path.write_text("a,b,c\n1,2,3\n", "utf-8")
    assert rigforge(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "mine.csv: its header fits none of the measurement files RigForge reads" in err
