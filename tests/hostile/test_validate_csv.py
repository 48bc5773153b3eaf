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


# -- numbers a row states that no model could use -----------------------------------------


@pytest.mark.parametrize(
    ("notes", "what"),
    [
        ("GA " + "9" * 5000, "accumulation steps"),
        ("8 accumulation steps and TP" + "9" * 5000, "TP"),
        ("GBS " + "9" * 5000 + " MBS 1", "GBS"),
    ],
)
def test_a_5000_digit_number_in_a_training_rows_notes_is_refused_by_line(
    notes: str, what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was a ValueError traceback ("Exceeds the limit (4300 digits) for integer string
    # conversion") from int() on the notes' digits
    path = _with_first_row("training_modern_calibration.csv", "notes", notes, tmp_path)
    with bounded():
        code = rigforge(["validate", str(path)])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err
    assert f"line 2: the notes state {what} 99999999999999999999… (5,000 digits)" in out


def test_a_1e300_batch_names_the_csv_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Lambda/DLE format: the file is refused by line (was "Matmul s: Input should be a
    # finite number", a field of the model's internals)
    path = _with_first_row("throughput_calibration.csv", "batch_size_per_gpu", "1e300", tmp_path)
    assert rigforge(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 2: batch_size_per_gpu '1e300' is not a number from 1 to 1,000,000" in err
    # today's-stacks format: the row is left unresolved, its reason naming the line (was
    # "Batch size: Input should be less than or equal to 1000000")
    path = _with_first_row("training_modern_calibration.csv", "batch_per_gpu", "1e300", tmp_path)
    assert rigforge(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "line 2: batch_per_gpu '1e300' is not a whole number from 1 to 1,000,000" in out


@pytest.mark.parametrize(
    ("name", "column"),
    [
        ("throughput_calibration.csv", "throughput"),
        ("llm_inference_calibration.csv", "measured_tokens_s"),
    ],
)
def test_a_5e_324_measurement_is_refused_not_reported_as_nan(
    name: str, column: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # was "median nan%" / "median error inf %": predicted / 5e-324 overflows
    path = _with_first_row(name, column, "5e-324", tmp_path)
    assert rigforge(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert f"line 2: {column} '5e-324' is too small to be a measurement" in err
    assert "nan" not in out and "inf" not in out


def test_a_5e_324_measurement_of_todays_stacks_is_left_unresolved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_first_row("training_modern_calibration.csv", "measured", "5e-324", tmp_path)
    assert rigforge(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "line 2: measured '5e-324' is too small to be a measurement" in out


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read(
    codec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (BENCHMARKS / "training_modern_calibration.csv").read_text("utf-8")
    plain, wide = tmp_path / "plain.csv", tmp_path / "wide.csv"
    plain.write_text(text, "utf-8")
    wide.write_bytes(text.encode(codec))  # Python writes no byte-order mark for these
    assert not wide.read_bytes().startswith((b"\xff\xfe", b"\xfe\xff"))
    assert rigforge(["validate", str(plain)]) == 0
    expected = capsys.readouterr().out
    assert rigforge(["validate", str(wide)]) == 0
    assert capsys.readouterr().out == expected


def test_a_binary_file_is_named_as_binary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "blob.csv"
    path.write_bytes(bytes(range(256)) * 4)
    assert rigforge(["validate", str(path)]) == 2
    assert "blob.csv: the file is binary, not text" in capsys.readouterr().err


# -- long files: progress, and repeated runs predicted once ------------------------------


def _repeated(name: str, copies: int, tmp_path: Path) -> Path:
    lines = (BENCHMARKS / name).read_text("utf-8").splitlines(keepends=True)
    path = tmp_path / f"repeated-{name}"
    path.write_text(lines[0] + "".join(lines[1:]) * copies, "utf-8")
    return path


def test_a_long_file_reports_progress_on_stderr_and_a_short_one_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _repeated("throughput_calibration.csv", 4, tmp_path)  # 6,692 rows
    assert rigforge(["validate", str(path)]) == 0
    err = capsys.readouterr().err
    assert "rigforge validate: 1,000 of 6,692 rows predicted" in err
    assert rigforge(["validate", str(BENCHMARKS / "throughput_calibration.csv")]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "name",
    [
        "throughput_calibration.csv",
        "llm_inference_calibration.csv",
        "training_modern_calibration.csv",
        "llm_finetune_memory_calibration.csv",
    ],
)
def test_repeated_rows_are_predicted_as_the_rows_they_repeat(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each run is predicted once and its repeats reuse it: every repeated row gets the
    prediction of the row it repeats (so rows that differ only in GPU count never share
    one), and the file's figures stay those of one copy."""
    import json

    assert rigforge(["validate", str(BENCHMARKS / name), "--json"]) == 0
    once = json.loads(capsys.readouterr().out)
    assert rigforge(["validate", str(_repeated(name, 3, tmp_path)), "--json"]) == 0
    thrice = json.loads(capsys.readouterr().out)
    assert thrice["rows"] == 3 * once["rows"]
    assert thrice["resolved"] == 3 * once["resolved"]
    key = "predicted" if "details" in once else "disagree"
    first = [d.get(key) for d in once["details"]]
    assert [d.get(key) for d in thrice["details"]] == first * 3
    for figure in ("median_abs_pct_error",):
        if figure in once:
            assert thrice[figure] == pytest.approx(once[figure])
