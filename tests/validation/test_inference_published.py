"""The LLM serving model against published facts it was not fitted on: the bits per
weight each format's source gives, and which model/GPU/context cells of a published
llama.cpp table ran and which ran out of memory (XiongjieDai, LLaMA 3, May 2024)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from core.calc.inference.constants import FITTED
from core.calc.inference.formats import FORMATS
from core.catalog import load_catalog
from core.cli import main
from core.validation.inference import (
    InferenceRow,
    constants_for,
    fit_verdict_report,
    load_inference_rows,
    predict,
    release_key,
    report,
    resolve,
)

BENCHMARKS = Path(__file__).resolve().parents[2] / "resources" / "benchmarks"


def _rows(name: str) -> list[dict[str, str]]:
    with (BENCHMARKS / name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _pp_row(source: str, **fields: Any) -> InferenceRow:
    """A prompt-processing query row: Llama-2 7B F16 on one RTX 4090 unless ``fields`` say
    otherwise (the measured value is a placeholder)."""
    values: dict[str, Any] = {
        "engine": "llama.cpp",
        "gpu_model": "RTX 4090",
        "gpu_count": 1,
        "split": "none",
        "model": "Llama-2 7B",
        "weights": "f16",
        "batch": 1,
        "prompt": 512,
        "gen": 0,
        "metric": "pp",
        "measured": 1.0,
        "basis": "total",
    } | fields
    return InferenceRow(source=source, **values)


@pytest.mark.parametrize("row", _rows("llm_formats.csv"), ids=lambda r: r["format"])
def test_format_bits_match_their_source(row: dict[str, str]) -> None:
    assert FORMATS[row["format"]].bits == pytest.approx(float(row["bits_per_weight"]), abs=0.001)


def test_published_ran_and_oom_cells_are_predicted() -> None:
    text = (BENCHMARKS / "llm_inference_fit_published.csv").read_text("utf-8")
    result = fit_verdict_report(text, load_catalog())
    # 633 cells (578 ran, 55 out of memory); at most 1 % may disagree, and none of
    # the cells that ran may be predicted not to fit.
    assert (result["rows"], result["resolved"]) == (633, 633)
    assert len(result["disagree"]) <= result["rows"] // 100, result["disagree"]
    assert result["ran_predicted_oom"] == 0


def test_validate_reads_a_fit_verdict_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three cells of XiongjieDai's LLaMA 3 tables, verdicts worked out by hand: 8B Q4_K_M
    (4.9 GB of weights) at 8,192 tokens ran on one 24 GB card; 70B F16 (141 GB) cannot fit
    on one 24 GB card; an 'oom' written for the 8B cell disagrees."""
    header = "source,source_ref,table_section,engine,gpu_model,gpu_count,model,"
    header += "weights_format,context_tokens,verdict,notes"
    cells = [
        "s,r,t,llama.cpp,RTX 4090,1,Llama 3 8B,q4_k_m,8192,ran,",
        "s,r,t,llama.cpp,RTX 4090,1,Llama 3 70B,f16,8192,oom,",
        "s,r,t,llama.cpp,RTX 4090,1,Llama 3 8B,q4_k_m,8192,oom,",
    ]
    path = tmp_path / "cells.csv"
    path.write_text("\n".join([header, *cells]) + "\n", "utf-8")
    assert main(["validate", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["rows"], result["resolved"]) == (3, 3)
    assert result["fit_agreement"] == pytest.approx(2 / 3)
    assert [(c["line"], c["published"]) for c in result["disagree"]] == [(4, "oom")]


def test_held_out_sources_generation_within_target() -> None:
    """Rows the constants never saw (llm_inference_heldout.csv): XiongjieDai's A40, L40S,
    RTX 4000/5000 Ada and A100 SXM; mlc-ai/llm-perf-bench; LitGPT's resource tables.
    Generation must meet the 10 % median target there too; prompt processing misses its
    15 % target on these GPUs (about 20 %, docs/inference-model.md) and is held at 25 %."""
    rows = load_inference_rows(BENCHMARKS / "llm_inference_heldout.csv")
    result = report(rows, load_catalog())
    assert result["rows"] == 372
    assert result["resolved"] >= 280
    tg, pp = result["by_metric"]["tg"], result["by_metric"]["pp"]
    assert tg["rows"] >= 140 and tg["median_abs_pct_error"] <= 10.0
    assert pp["rows"] >= 120 and pp["median_abs_pct_error"] <= 25.0


def test_rows_of_an_older_llama_cpp_build_use_that_builds_constants() -> None:
    """XiongjieDai's December 2023 rows ran that month's ./main: they are predicted with
    the constants fitted on them; the app's llama.cpp (and every other row) keeps the
    current build's, whose prompt kernels are faster."""
    catalog = load_catalog()
    old = resolve(_pp_row("XiongjieDai (llama.cpp ./main, RunPod, Dec 2023)"), catalog)
    new = resolve(_pp_row("XiongjieDai (llama.cpp llama-bench, RunPod, May 2024)"), catalog)
    assert not isinstance(old, str) and not isinstance(new, str)
    assert release_key(old.row, FITTED) == "llama.cpp@2023-12"
    assert release_key(new.row, FITTED) is None
    assert constants_for(new.row, FITTED) is FITTED
    swapped = constants_for(old.row, FITTED)
    assert swapped.engines["llama.cpp"] == FITTED.engines["llama.cpp@2023-12"]
    assert FITTED.engines["vllm"] == swapped.engines["vllm"]
    # same GPU, model and prompt: only the build differs, and the older one is slower
    assert predict(old) < predict(new)


@pytest.mark.parametrize(
    ("source", "notes", "engine", "expected"),
    [
        (
            "llm-tracker.info wiki, page 'RTX PRO 6000'",
            "llama-bench -fa 1; build 5xxx",
            "llama.cpp",
            True,
        ),
        ("llm-tracker.info wiki, page 'H100'", "llama-bench (no -fa)", "llama.cpp", False),
        (
            "llama.cpp GitHub pull request #19378 'tensor parallelism'",
            "4x RTX 4090",
            "llama.cpp",
            True,
        ),
        ("llama.cpp GitHub pull request #19378 'tensor parallelism'", "-fa 0", "llama.cpp", False),
        ("llama.cpp GitHub pull request #4766", "", "llama.cpp", False),
        ("XiongjieDai GPU-Benchmarks-on-LLM-Inference (May 2024)", "", "llama.cpp", False),
        ("vLLM blog", "", "vLLM", True),
    ],
)
def test_flash_attention_follows_each_rows_flags(
    source: str, notes: str, engine: str, expected: bool
) -> None:
    """A llama.cpp row ran flash attention when its flags say ``-fa 1``, or when it was
    measured on a pull request after #15434 (August 2025) made it the default; the other
    engines always fuse attention."""
    from core.validation.inference import ran_flash_attention

    row = _pp_row(source, engine=engine)
    row = InferenceRow(**{**row.__dict__, "notes": notes})
    assert ran_flash_attention(row) is expected
    resolved = resolve(row, load_catalog())
    assert not isinstance(resolved, str)
    assert resolved.serving.flash_attention is expected


def test_llama_cpp_row_split_rows_resolve_as_its_tensor_split() -> None:
    """llama.cpp's ``-sm row`` is the app's tensor split for llama.cpp: such rows resolve
    with the tensor split. The same comparison's experimental ``-sm tensor`` mode is not
    modelled and is left out with the reason; its ``-sm layer`` rows resolve as a layer
    split."""
    source = "llama.cpp GitHub pull request #19378 'tensor parallelism'"
    row = _pp_row(source, gpu_count=4, split="tensor", model="Qwen3 30B-A3B", weights="q8_0")
    row_split = InferenceRow(**{**row.__dict__, "notes": "column 't/s -sm row'"})
    resolved = resolve(row_split, load_catalog())
    assert not isinstance(resolved, str) and resolved.serving.split == "tensor"
    experimental = InferenceRow(**{**row.__dict__, "notes": "column 't/s -sm tensor'"})
    reason = resolve(experimental, load_catalog())
    assert isinstance(reason, str) and "-sm tensor" in reason
    layer = InferenceRow(**{**row.__dict__, "split": "layer", "notes": "column 't/s -sm layer'"})
    resolved = resolve(layer, load_catalog())
    assert not isinstance(resolved, str) and resolved.serving.split == "layer"


def test_llama_cpp_row_split_on_geforce_matches_its_published_runs() -> None:
    """llama.cpp pull request #19378 (comment of 2026-02-07), 4x RTX 4090 with ``-sm row``:
    a Llama 70B Q4_K_M generates 17.56 tokens/s and processes a 512-token prompt at 334
    tokens/s. Two 16-bit all-reduces per layer read 29.7 and 1,791 (69 % and 5x too fast);
    the row split's own transfers bring both within 25 %. Generation is no faster than the
    layer split's (one card's bandwidth at a time: 19 tokens/s on the same model)."""
    from core.calc.rig import rig_for, serving_speed
    from core.workloads import find_preset, make_workload

    gpu = load_catalog().gpu("RTX 4090")
    workload = make_workload(find_preset("llama-3.3-70b"), task="inference")
    speeds = {}
    for split in ("tensor", "layer"):
        serving = workload.serving_settings.model_copy(
            update={
                "engine": "llama.cpp",
                "weights": "q4_k_m",
                "split": split,
                "prompt_len": 512,
                "gen_len": 128,
                "streams": 1,
            }
        )
        served = workload.model_copy(update={"serving": serving})
        speeds[split] = serving_speed(served, serving, rig_for(gpu, 4), max_streams=0, curves=False)
    row = speeds["tensor"]
    assert row.decode_tokens_s_per_stream == pytest.approx(17.56, rel=0.25)
    assert row.prefill_tokens_s == pytest.approx(334.07, rel=0.25)
    assert row.decode_tokens_s_per_stream <= 1.05 * speeds["layer"].decode_tokens_s_per_stream


def test_llama_cpp_row_split_keeps_its_own_cost_per_transfer_on_nvlink() -> None:
    """The row split's constants were fitted through host memory only, which cannot tell
    llama.cpp's cost per transfer from the link's; NVLink must not make its 360 transfers
    per token (4.5 per layer × 80 layers) nearly free: two NVLinked RTX 3090s generate a
    Llama 3.3 70B Q4_K_M at most a quarter faster with the row split than with the layer
    split (each card then reads half the 42.5 GB of weights, but pays 360 × 60 µs = 22 ms
    per token in transfers)."""
    from core.calc.rig import rig_for, serving_speed
    from core.workloads import find_preset, make_workload

    gpu = load_catalog().gpu("RTX 3090")
    workload = make_workload(find_preset("llama-3.3-70b"), task="inference")
    rates = {}
    for split in ("tensor", "layer"):
        serving = workload.serving_settings.model_copy(
            update={"engine": "llama.cpp", "weights": "q4_k_m", "split": split}
        )
        served = workload.model_copy(update={"serving": serving})
        rig = rig_for(gpu, 2, interconnect="nvlink")
        speed = serving_speed(served, serving, rig, max_streams=0, curves=False)
        rates[split] = speed.decode_tokens_s_per_stream
    assert rates["layer"] < rates["tensor"] <= 1.25 * rates["layer"]


def test_experts_in_host_ram_on_published_runs_it_was_not_fitted_to() -> None:
    """Generation with an MoE model's routed experts in host RAM: Qwen3.5-35B-A3B on an RTX
    5080 with a two-channel DDR5-4800 host (r/LocalLLaMA, February 2026; nothing fitted on
    these rows). The issue's goal is a median error of at most 20 %; each row within 25 %."""
    from tools.fit.check_serving_2026 import moe_rows

    rows = [r for r in moe_rows() if " tg " in r[0]]
    assert len(rows) == 6
    errors = sorted(abs(pred / measured - 1) for _label, pred, measured in rows)
    assert errors[len(errors) // 2] <= 0.20
    assert errors[-1] <= 0.25


def test_a_static_batch_of_prompts_is_prefilled_together() -> None:
    """Hugging Face Optimum's prefill-only benchmark (tests/benchmark/README.md) times
    `generate()` with 1 new token on a batch of 512-token prompts, Llama 2 13B fp16 on an
    A100 SXM4 80GB: 96.38 ms for 1 prompt, 305.99 ms for 4, 1,209 ms for 16 — 5,312, 6,693
    and 6,775 prompt tokens/s. The prompts share one pass: the weights (26 GB) are read
    once, so the rate rises with the batch until the products bind. The model predicts
    the same quantity (batch x 512 / the batch's first-token time), within 25 %, and the
    same rise from 1 to 4 prompts."""
    catalog = load_catalog()
    rows = [
        r
        for r in load_inference_rows(BENCHMARKS / "llm_inference_published.csv")
        if "Optimum" in r.source and r.metric == "ttft_prefill" and r.weights == "f16"
    ]
    measured = {r.batch: r.measured for r in rows}
    assert measured[1] == pytest.approx(512 / 0.09638, rel=1e-3)
    assert measured[16] == pytest.approx(16 * 512 / 1.209, rel=2e-3)
    predicted = {}
    for row in rows:
        resolved = resolve(row, catalog)
        assert not isinstance(resolved, str)
        predicted[row.batch] = predict(resolved)
        assert predicted[row.batch] == pytest.approx(row.measured, rel=0.25), row.batch
    assert predicted[4] > 1.25 * predicted[1]  # measured: x1.26


def test_the_h20s_few_sms_bound_sglangs_generation() -> None:
    """The H20 keeps an H100's 4.0 TB/s with 78 SMs (its published device report), so
    one request's kernels cannot keep its memory busy. Qwen's speed benchmark measured
    SGLang generating 81.73 tokens/s with Qwen3 8B BF16 on one H20 (about 1.3 TB/s);
    with its SM count in the catalog the model reads within 10 % of that, where it read
    188 (2.3x) when the SMs did not bound it."""
    catalog = load_catalog()
    assert catalog.gpu("h20").sm_count == 78
    row = next(
        r
        for r in load_inference_rows(BENCHMARKS / "llm_inference_published.csv")
        if r.gpu_model.startswith("H20")
        and r.engine == "SGLang"
        and r.model == "Qwen3 8B"
        and r.weights == "bf16"
    )
    assert row.measured == 81.73
    item = resolve(row, catalog)
    assert not isinstance(item, str)
    assert predict(item, FITTED) == pytest.approx(81.73, rel=0.10)
