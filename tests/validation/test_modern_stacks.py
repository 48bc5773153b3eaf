"""Today's software stacks against published measurements (``rigforge validate FILE``):
the three shared calibration files are read as they are, each row as its source ran it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.calc.memory.vram import vram_breakdown
from core.catalog import load_catalog
from core.validation.modern import (
    Row,
    accumulation_steps,
    memory_format_of,
    memory_workload,
    predict_throughput,
    read_rows,
    report,
    row_workload,
    stack_of,
)
from gui.main import main as rigforge
from tools.fit import fit_stacks

BENCHMARKS = Path(__file__).resolve().parents[2] / "resources" / "benchmarks"
# the bundled copies of ../shared/data's files (test_bundled_copies.py keeps them equal)
FILES = {
    "training": BENCHMARKS / "training_modern_calibration.csv",
    "vision_inference": BENCHMARKS / "vision_inference_calibration.csv",
    "memory": BENCHMARKS / "llm_finetune_memory_calibration.csv",
}


@pytest.mark.parametrize("kind", list(FILES))
def test_validate_reads_each_file_with_its_keys(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert rigforge(["validate", str(FILES[kind]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == kind
    for key in ("rows", "resolved", "median_abs_pct_error", "median_ratio", "by_source"):
        assert key in data, key
    assert data["resolved"] >= 0.8 * data["rows"]
    for summary in data["by_source"].values():
        assert {"rows", "resolved", "median_abs_pct_error", "median_ratio"} <= set(summary)
        assert summary["resolved"] <= summary["rows"]
    assert sum(s["rows"] for s in data["by_source"].values()) == data["rows"]
    # issue targets: training and vision-inference rows median <= 15 %, memory <= 10 %;
    # each file's median ratio within 0.85-1.15, each publisher's within 0.8-1.2 (timm's
    # RTX 3090 training rows read 0.84: docs/performance-model.md section 5)
    assert data["median_abs_pct_error"] <= (10.0 if kind == "memory" else 15.0)
    assert 0.85 <= data["median_ratio"] <= 1.15
    for summary in data["by_source"].values():
        if summary["median_ratio"] is not None:
            assert 0.8 <= summary["median_ratio"] <= 1.2, summary
    if kind == "memory":
        assert "fit_agreement" in data
        # Unsloth's context-length rows carry only a fit verdict (13 "max-context-fit"
        # rows in the file): the source is reported with its own agreement
        unsloth = next(s for name, s in data["by_source"].items() if "Unsloth" in name)
        assert unsloth["rows"] == unsloth["fit_rows"] == 13
        assert unsloth["compared"] == 0 and unsloth["median_abs_pct_error"] is None
        assert unsloth["fit_agreement"] is not None


def _row(**fields: str) -> Row:
    return Row(2, dict(fields))


def test_stack_is_what_the_source_ran() -> None:
    assert stack_of(_row(source="timm results, RTX 3090, PyTorch 1.12 + CUDA 11.3")) == (
        "pytorch-eager"
    )
    assert stack_of(_row(source="NVIDIA NeMo performance summary")) == "transformer-engine"
    assert stack_of(_row(notes="torch.compile (dynamo) results file")) == "pytorch-compile"
    assert stack_of(_row(notes="eager (non-dynamo file), PyTorch 1.13")) == "pytorch-eager"
    assert stack_of(_row(source="x", stack="unsloth")) == "unsloth"
    assert stack_of(_row(source="torchtitan, PyTorch 2.4")) == "pytorch"
    assert stack_of(_row(method="full pretraining (torchtitan, no torch.compile)")) == "pytorch"
    assert stack_of(_row(method="full pretraining (torchtitan, torch.compile)")) == (
        "pytorch-compile"
    )


def test_layout_is_what_the_source_file_names() -> None:
    """timm names its result files ...-nchw-... and ...-nhwc-...; rows that say nothing
    keep their stack's default. Under torch.compile both layouts run channels-last
    (Inductor's layout optimisation), so an NCHW file is predicted as fast as an NHWC one;
    eager PyTorch 2 pays the transposes (6 passes x 2 B over ResNet-50's 21,776,384
    convolution values per image)."""
    nchw = "results/benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv"
    assert memory_format_of(_row(source_ref=nchw)) == "nchw"
    assert memory_format_of(_row(notes="layout NHWC (channels_last)")) == "nhwc"
    assert memory_format_of(_row(source_ref="results/x.csv")) is None
    catalog = load_catalog()

    def images_s(ref: str, stack: str) -> float:
        row = _row(
            source="timm benchmark.py results (Ross Wightman)",
            source_ref=ref,
            gpu="RTX 4090",
            gpu_count="1",
            model="resnet50",
            precision="fp16 AMP",
            batch="256",
            image_size="224",
            measured_images_s="1",
            stack=stack,
        )
        result = predict_throughput(row, "vision_inference", catalog)
        assert not isinstance(result, str)
        return result[0]

    nhwc = nchw.replace("nchw", "nhwc")
    assert images_s(nchw, "pytorch") < images_s(nhwc, "pytorch")
    assert images_s(nchw, "pytorch-compile") == images_s(nhwc, "pytorch-compile")


def test_long_context_fine_tuning_fits_where_published() -> None:
    """Unsloth's README: the longest Llama 3.1 8B QLoRA context that fits each GPU size
    (Unsloth with offloaded checkpoints; Hugging Face + FlashAttention 2). At that
    context the model must say it fits, and use most of the card (> 60 %) — not a
    trivially optimistic verdict."""
    result = report(FILES["memory"].read_text(encoding="utf-8"), load_catalog())
    rows = [d for d in result["details"] if "fits" in d]
    assert len(rows) == 13
    assert result["fit_agreement"] == 1.0
    shares = [d["predicted_total_gib"] / d["capacity_gib"] for d in rows]
    assert min(shares) > 0.6, shares


def test_fine_tuning_memory_median_within_ten_percent() -> None:
    """LitGPT's measured peaks (max_memory_allocated, no CUDA context): median error
    5.4 % (docs/memory-model.md), within the 10 % target; LoRA under FSDP (4 rows,
    0.26-0.54) stays low, QLoRA within 0.9-1.0."""
    result = report(FILES["memory"].read_text(encoding="utf-8"), load_catalog())
    assert result["compared"] == 18
    assert result["median_abs_pct_error"] <= 10.0
    qlora = [d["ratio"] for d in result["details"] if d["method"].startswith("qlora (litgpt")]
    assert len(qlora) == 4 and all(0.9 <= r <= 1.0 for r in qlora), qlora


def test_published_memory_rows_median_within_ten_percent() -> None:
    """torchtitan's Llama 3.1 8B FSDP peaks (per-op checkpointing), the Trainy H200 runs
    and LLaMA-Factory's LoRA/QLoRA rows (resources/benchmarks): median 8.9 %."""
    text = (BENCHMARKS / "llm_finetune_memory_published.csv").read_text(encoding="utf-8")
    result = report(text, load_catalog())
    assert result["compared"] == 14
    assert result["median_abs_pct_error"] <= 10.0
    titan = result["by_source"][
        "PyTorch torchtitan team benchmark, Llama 3.1 on H100 (end of 2024)"
    ]
    assert 0.9 <= titan["median_ratio"] <= 1.15


def test_unsloth_70b_context_rows_held_out_fit_where_they_ran() -> None:
    """Unsloth's Llama 3.3 70B QLoRA context-length rows (held out, never fitted): each ran
    at its context on its card (12,106 tokens in 48 GB; 89,389 and, for Hugging Face +
    FlashAttention 2, 6,916 in 80 GB), so each must be predicted to fit there."""
    text = (BENCHMARKS / "llm_finetune_memory_heldout.csv").read_text(encoding="utf-8")
    result = report(text, load_catalog())
    assert result["resolved"] == 3
    assert result["fit_agreement"] == 1.0
    assert [d["context"] for d in result["details"]] == [12_106, 89_389, 6_916]


def _memory_row(**fields: str) -> Row:
    base = {
        "kind": "measured",
        "model": "Llama-2 7B",
        "precision": "bf16",
        "batch": "1",
        "seq_len": "56",
        "gpu_count": "1",
        "measured_gib": "4",
        "quant": "None",
        "lora_rank": "",
    }
    return Row(2, base | fields)


def test_nf4_inference_counts_its_scales() -> None:
    """bitsandbytes NF4 stores one fp32 absmax per 64 weights (4.5 bits); with double
    quantization 4.127 bits (Dettmers et al. 2023 §3). Llama-2 7B has 6,476,005,376
    weights outside its embeddings (32 x (4 x 4096^2 + 3 x 4096 x 11008)); the two
    differ by 6.476e9 x 0.373 / 8 bytes = 0.28 GiB, as LitGPT measured (4.57 against
    4.26 GB, 0.29 GiB)."""
    weights = {}
    for quant in ("bnb.nf4", "bnb.nf4-dq"):
        row = _memory_row(method="inference (litgpt generate/base.py)", quant=quant)
        workload = memory_workload(row)
        assert not isinstance(workload, str)
        weights[quant] = vram_breakdown(workload, 1).weights_gib
    dense = 32 * (4 * 4096**2 + 3 * 4096 * 11008)
    gap = dense * (4.5 - 4.127) / 8 / 2**30
    assert weights["bnb.nf4"] - weights["bnb.nf4-dq"] == pytest.approx(gap, rel=1e-3)


def test_memory_rows_read_their_parallelism_and_checkpointing() -> None:
    row = _memory_row(
        method="full pretraining (torchtitan, no torch.compile)",
        model="Llama 3.1 8B",
        optimizer="adamw",
        parallelism="fsdp",
        checkpointing="op",
        seq_len="8192",
        gpu_count="8",
    )
    workload = memory_workload(row)
    assert not isinstance(workload, str)
    assert (workload.parallelism, workload.checkpointing, workload.stack) == (
        "fsdp",
        "op",
        "pytorch",
    )


def _training_row(section: str, notes: str = "", count: str = "8", model: str = "LLAMA2-7B") -> Row:
    return Row(
        2,
        {
            "source": "NVIDIA NeMo performance summary",
            "table_section": section,
            "notes": notes,
            "gpu": "H100 (DGX-H100, SXM)",
            "gpu_count": count,
            "model": model,
            "task": "training",
            "precision": "fp8",
            "batch_per_gpu": "1",
            "seq_len_or_image": "4096",
            "measured": "1000",
            "unit": "tokens/s",
            "measured_basis": "per GPU",
        },
    )


@pytest.mark.parametrize(
    ("section", "notes", "count", "steps"),
    [
        ("row 'LLAMA2-7B SFT' (8 GPUs, GBS 32, MBS 1, seq 4096, TP1 PP1)", "", "8", 4),
        ("GBS 128, MBS 1, seq 4096", "GBS 128 = 16 accumulation steps of MBS 1 x 8", "8", 16),
        ("GBS 128, MBS 2, FSDP 0, TP1 PP1 CP1, GA 8", "", "8", 8),
        ("GBS 100, MBS 1", "", "8", 1),  # not a whole number of micro-batches: unknown, 1
        ("no batch sizes given", "", "8", 1),
        # model parallel: data-parallel width 32 / (TP4 x PP4) = 2, so 32 / (1 x 2) = 16
        ("SFT, TP4 PP4 CP1 VP5", "GBS 32, MBS 1, seq 4096", "32", 16),
        ("", "TP4 PP4 VP5 DP2, MBS 1, GBS 32, seq 4096", "32", 16),  # either order
        # a stated GA is per data-parallel rank; CP2 runs as data parallel: 64 / 2 = 32
        ("", "TP4 PP4 CP2 DP2 VP5; GA 64", "64", 32),
    ],
)
def test_accumulation_is_read_from_the_row(
    section: str, notes: str, count: str, steps: int
) -> None:
    """Micro-batches per optimizer step: as stated, else global batch / (micro-batch x GPUs)."""
    assert accumulation_steps(_training_row(section, notes, count)) == steps


def test_megatron_layout_is_read_from_the_row() -> None:
    """NeMo's "TP4 PP4 CP1 VP5" becomes the workload's tensor- and pipeline-parallel
    degrees and virtual stages; "VP n/a" and absent names stay 1."""
    row = _training_row(
        "LLAMA2-70B, TP4 PP4 CP1 VP5, GBS 32, MBS 1", count="32", model="LLAMA2-70B"
    )
    workload = row_workload(row, "training")
    assert not isinstance(workload, str), workload
    assert (workload.tp_degree, workload.pp_degree, workload.pp_virtual_stages) == (4, 4, 5)
    assert workload.grad_accum_steps == 16
    plain = row_workload(_training_row("TP1 PP1 CP1 VP n/a, GBS 128, MBS 2"), "training")
    assert not isinstance(plain, str)
    assert (plain.tp_degree, plain.pp_degree, plain.pp_virtual_stages) == (1, 1, 1)


def test_fine_tuning_rows_keep_the_precision_their_table_states() -> None:
    """NeMo 24.07's fine-tuning table runs SFT and LoRA "at FP8 precision"."""
    row = _training_row("GBS 32, MBS 1", model="LLAMA2-7B LoRA")
    outcome = predict_throughput(row, "training", load_catalog())
    assert not isinstance(outcome, str), outcome
    workload = outcome[1]
    assert (workload.task, workload.precision, workload.grad_accum_steps) == ("lora", "fp8", 4)


def test_held_out_blackwell_vision_rows_resolve_and_stay_out_of_the_fit() -> None:
    """timm's RTX 5090 / RTX PRO 6000 rows check the model only: every row resolves on the
    GPU it names, and the stack fit never reads that file."""
    path = Path(__file__).resolve().parents[2] / "resources/benchmarks/vision_inference_heldout.csv"
    data = report(path.read_text(encoding="utf-8"), load_catalog())
    assert data["kind"] == "vision_inference"
    assert data["resolved"] == data["rows"] == 80
    assert {d["gpu"] for d in data["details"]} == {"rtx-5090", "rtx-pro-6000-blackwell-max-q"}
    assert path not in fit_stacks.FILES
    assert {"5090", "RTX PRO 6000"} <= set(fit_stacks.HELD_OUT)


def test_published_vision_inference_reads_each_rows_image_size() -> None:
    """The published rows give an image size: ViT-B/16, DeiT-B and ViT-L/16 at 224 px
    (197 tokens, not 224) and ResNet-50 also at 160, 176 and 288 px. Read as a resolution,
    the 112 rows (timm, DLE) sit at a median error under 25 % (18.9 %,
    docs/performance-model.md §5); read as a token count or ignored, they were at 31 %."""
    path = (
        Path(__file__).resolve().parents[2] / "resources/benchmarks/vision_inference_published.csv"
    )
    data = report(path.read_text(encoding="utf-8"), load_catalog())
    assert data["compared"] == 112
    assert data["median_abs_pct_error"] <= 25.0


@pytest.mark.parametrize(
    ("name", "kind"),
    [("torchtune_training_heldout.csv", "training"), ("torchtune_memory_heldout.csv", "memory")],
)
def test_torchtune_readme_tables_resolve_as_they_ran(name: str, kind: str) -> None:
    """torchtune's README tables (held out, never fitted): the eight Llama 3.1 rows of
    'Memory and training speed' and the nine packed Llama 3.2 3B rows of 'Optimization
    flags' are each read with the recipe their config and the table state."""
    data = report((BENCHMARKS / name).read_text(encoding="utf-8"), load_catalog())
    assert data["kind"] == kind
    assert data["resolved"] == data["rows"] == 17
    assert len(data["by_source"]) == 2
    assert not any("torchtune" in str(path) for path in fit_stacks.FILES)
    if kind == "memory":
        return
    rows = read_rows((BENCHMARKS / name).read_text(encoding="utf-8"))
    recipes = [row_workload(row, "training") for row in rows]
    assert all(not isinstance(w, str) for w in recipes)
    # the 4090 full fine-tune: paged 8-bit AdamW stepped in the backward, bf16 weights,
    # full checkpointing, chunked loss, torch.compile
    first = recipes[0]
    assert not isinstance(first, str)
    assert (first.optimizer, first.optimizer_in_backward, first.master_weights) == (
        "paged-adamw8bit",
        True,
        "none",
    )
    assert (first.checkpointing, first.chunked_loss, first.stack) == (
        "full",
        True,
        "pytorch-compile",
    )
    # 70B LoRA: rank 16 on q, k and v, FSDP over 8 GPUs
    seventy = recipes[6]
    assert not isinstance(seventy, str) and seventy.lora is not None
    assert (seventy.lora.rank, seventy.lora.targets, seventy.parallelism) == (
        16,
        ("q", "k", "v"),
        "fsdp",
    )


def test_published_vision_inference_sources_each_within_the_issue_band() -> None:
    """Every publisher of vision_inference_published.csv within 0.85-1.15 of its
    measurements. DeepLearningExamples' batch-1 and batch-8 rows are host-bound (a V100
    and a T4 both run ResNet-50 at about 96 images/s at batch 1): with the forward
    charged a third of a training step's host time they read 2-2.5x fast and the SSD300
    table's median 1.20."""
    from core.catalog import load_catalog
    from core.validation.modern import report

    text = (BENCHMARKS / "vision_inference_published.csv").read_text("utf-8")
    data = report(text, load_catalog())
    assert data["median_abs_pct_error"] <= 15.0
    for name, summary in data["by_source"].items():
        assert 0.85 <= summary["median_ratio"] <= 1.15, (name, summary["median_ratio"])
