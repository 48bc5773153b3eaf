"""The performance model against published training throughput.

Sources: lambdal/deeplearning-benchmark (v0, v1, v2 tables) and NVIDIA
DeepLearningExamples README tables, as bundled in
resources/benchmarks/throughput_calibration.csv (see shared SOURCES.md).
Targets (issue 4): >= 95% rows resolved; median abs error <= 15%; scaling
efficiency within 5 points (median); Spearman >= 0.9 for every workload.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

import pytest

from core.calc.performance.constants import FITTED
from core.catalog import load_catalog
from core.cli import main
from core.validation.calibration import load_rows, read_rows
from core.validation.report import build_report, spearman


@cache
def report() -> dict[str, Any]:
    return build_report(load_rows(), load_catalog(), FITTED)


def test_rows_resolved() -> None:
    r = report()
    assert r["rows"] == 1673
    assert r["resolved"] / r["rows"] >= 0.95
    assert len(r["unresolved"]) == r["rows"] - r["resolved"]


def test_median_throughput_error_target() -> None:
    assert report()["median_abs_pct_error"] <= 15.0


def test_scaling_efficiency_within_five_points() -> None:
    r = report()
    assert r["scaling_rows"] > 500
    assert r["scaling_median_abs_error_pts"] <= 5.0


def test_spearman_per_workload() -> None:
    rhos = report()["spearman_by_workload"]
    assert len(rhos) == 11
    assert all(rho >= 0.9 for rho in rhos.values() if not math.isnan(rho)), rhos


def test_spearman_hand_example() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9486833)


def test_unresolvable_rows_are_listed(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    header = (
        "model,task_unit,gpu_model,interconnect,gpu_count,precision,"
        "batch_size_per_gpu,throughput,notes"
    )
    csv = tmp_path / "rows.csv"
    csv.write_text(
        f"{header}\nResNet-50 v1.5,images/s,RTX 3090,PCIe,1,fp16-amp,256,900,\n"
        "ResNet-50 v1.5,images/s,Imaginary GPU 9000,PCIe,1,fp16-amp,256,900,\n",
        encoding="utf-8",
    )
    assert main(["validate", str(csv), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["resolved"]) == (2, 1)
    assert data["unresolved"][0]["line"] == 3
    assert {
        "median_abs_pct_error",
        "p90_abs_pct_error",
        "scaling_median_abs_error_pts",
        "spearman_by_workload",
        "details",
    } <= set(data)


def test_gpu_canon_key_resolves_a_row() -> None:
    rows = read_rows(
        "model,gpu_model,interconnect,gpu_count,precision,batch_size_per_gpu,throughput,notes\n"
        "ResNet-50 v1.5,Some Vendor Box,unknown,1,fp32,,100,gpu_canon=A100-SXM4-80GB; family=x\n"
    )
    r = build_report(rows, load_catalog(), FITTED)
    assert r["resolved"] == 1 and r["details"][0]["gpu_id"] == "a100-sxm4-80gb"


def _first(model: str, source_repo: str) -> Any:
    from core.validation.calibration import resolve

    catalog = load_catalog()
    for row in load_rows():
        if row.model == model and row.source.startswith(source_repo):
            resolved = resolve(row, catalog)
            assert not isinstance(resolved, str)
            return resolved
    raise AssertionError(f"no {model} row from {source_repo}")


def test_lambda_transformer_xl_runs_full_softmax_without_ddp() -> None:
    """Lambda launches DLE train.py without --adaptive and without --multi_gpu ddp."""
    lam = _first("Transformer-XL base (WikiText-103)", "lambdal/deeplearning-benchmark")
    dle = _first("Transformer-XL base (WikiText-103)", "NVIDIA/DeepLearningExamples")
    assert lam.profile.parallelism == "independent"
    assert dle.profile.parallelism == "data"
    # The full softmax adds the 267,735 - 20,003 extra logits: 2 x 512 x that x 192 tokens.
    extra = lam.profile.matmul_flops - dle.profile.matmul_flops
    assert extra == pytest.approx(2 * 512 * (267_735 - 20_003) * 192)
    large = _first("Transformer-XL large (WikiText-103)", "lambdal/deeplearning-benchmark")
    assert (large.profile.seq_len, large.profile.items_per_sample) == (256, 256.0)


def test_apex_o2_workloads_keep_half_activations() -> None:
    bert = _first("BERT-large SQuAD v1.1 fine-tune", "lambdal/deeplearning-benchmark")
    resnet = _first("ResNet-50 v1.5", "lambdal/deeplearning-benchmark")
    assert bert.profile.half_activations and not resnet.profile.half_activations


def test_lambda_runs_exchange_gradients_through_host_memory() -> None:
    """benchmark_pytorch.sh exports NCCL_P2P_DISABLE=1; DLE's DGX rows keep NVLink."""
    lam = _first("BERT-large SQuAD v1.1 fine-tune", "lambdal/deeplearning-benchmark")
    dle = _first("BERT-large SQuAD v1.1 fine-tune", "NVIDIA/DeepLearningExamples")
    assert (lam.interconnect, dle.interconnect) == ("host", "nvlink")


def test_each_source_runs_convnets_in_the_layout_it_used() -> None:
    """DLE PyTorch ConvNets: NHWC for AMP only; DLE SSD300: channels-last at every
    precision; DLE MXNet: NHWC for float16; Lambda and DLE TensorFlow: NCHW."""
    catalog = load_catalog()
    from core.validation.calibration import resolve

    seen: dict[tuple[str, str, str], set[bool]] = {}
    for row in load_rows():
        if row.model not in ("ResNet-50 v1.5", "SSD300 v1.1 (ResNet-50 backbone)"):
            continue
        resolved = resolve(row, catalog)
        assert not isinstance(resolved, str)
        key = (row.source.split("|")[1].split("/")[0], row.model[:3], row.precision)
        seen.setdefault(key, set()).add(resolved.profile.channels_last)
    assert seen[("PyTorch", "Res", "fp16-amp")] == {True}
    assert seen[("PyTorch", "Res", "fp32")] == {False}
    assert seen[("PyTorch", "SSD", "fp16-amp")] == {True}
    assert seen[("MxNet", "Res", "fp16-amp")] == {True}
    assert seen[("MxNet", "Res", "fp32")] == {False}
    assert seen[("TensorFlow", "Res", "fp16-amp")] == {False}
    assert seen[("pytorch", "Res", "fp16-amp")] == {False}  # Lambda's summary tables
    assert seen[("pytorch", "SSD", "fp16-amp")] == {False}


def test_rows_from_containers_before_2022_run_the_older_kernels() -> None:
    """Lambda's first table ran NGC 20.01-21.07, its v1/v2 tables 22.09 and later; DLE
    rows name their container in the notes, in several spellings, for three frameworks:
    19.07, 20.06, 20.12, 21.03 and 21.11 are older, 22.10 current, an unnamed one
    current."""
    catalog = load_catalog()
    from core.validation.calibration import resolve

    seen: dict[str, set[bool]] = {}
    for row in load_rows():
        resolved = resolve(row, catalog)
        assert not isinstance(resolved, str)
        if row.source_repo.startswith("lambdal/"):
            key = row.notes.split(";")[2].split("summary")[0].strip()
        else:
            found = [p for p in row.notes.split(";") if p.strip().startswith("container")]
            key = found[0].strip() if found else "unnamed"
        seen.setdefault(key, set()).add(resolved.profile.older_kernels)
    assert seen == {
        "Lambda v0": {True},
        "Lambda v1": {False},
        "Lambda v2": {False},
        "container pytorch-20.06-py3": {True},
        "container PyTorch-20.06-py3": {True},
        "container pytorch-21.03 (per README)": {True},
        "container pytorch:21.11-py3": {True},
        "container pytorch-22.10-py3": {False},
        "container mxnet-20.12-py3": {True},
        "container mxnet-22.10-py3": {False},
        "container tensorflow-19.07-py3": {True},
        "container tensorflow-20.06-tf1-py3": {True},
        "container TensorFlow 20.06-tf1-py3": {True},
        "container given as '[framework-container-name]' in README (unspecified)": {False},
    }


def test_older_kernel_speed_is_the_median_of_lambdas_paired_one_gpu_runs() -> None:
    """Lambda measured the same GPU, model, precision and batch in both container
    generations; the constant is the median older/newer throughput over the one-GPU pairs
    (two pairs worked by hand: RTX 3090 ResNet-50 AMP at batch 448, 801 vs 905 images/s;
    RTX A6000 ResNet-50 FP32 at 496, 437 vs 514)."""
    runs: dict[tuple[str, str, str, str, int | None], dict[bool, float]] = {}
    for row in load_rows():
        if row.source_repo != "lambdal/deeplearning-benchmark" or row.gpu_count != 1:
            continue
        if "Lambda v2" in row.notes or row.flagged:
            continue
        key = (row.gpu_model, row.model, row.precision, row.note("family") or "", row.batch)
        runs.setdefault(key, {})["Lambda v0" in row.notes] = row.throughput
    pairs = sorted(d[True] / d[False] for d in runs.values() if len(d) == 2)
    assert len(pairs) == 41
    assert any(abs(p - 801 / 905) < 1e-9 for p in pairs)
    assert any(abs(p - 437 / 514) < 1e-9 for p in pairs)
    mid = len(pairs) // 2
    median = pairs[mid] if len(pairs) % 2 else (pairs[mid - 1] + pairs[mid]) / 2
    assert FITTED.older_kernels_speed == pytest.approx(median, abs=1e-4)


def test_each_row_is_predicted_as_if_alone() -> None:
    """The report predicts each distinct run once and reuses it for rows that repeat it;
    every row still gets its own run's prediction (rows that differ only in GPU count,
    batch or notes never share one)."""
    from core.validation.calibration import resolve
    from core.validation.report import predict_row

    catalog = load_catalog()
    rows = load_rows()
    doubled = build_report(rows + rows, catalog, FITTED)
    by_line = {d["line"]: d for d in doubled["details"]}
    for row in rows:
        resolved = resolve(row, catalog)
        assert not isinstance(resolved, str)
        assert by_line[row.index]["predicted"] == predict_row(resolved, FITTED)
    assert len(doubled["details"]) == 2 * len(rows)
