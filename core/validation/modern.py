"""Training and vision-inference measurements of today's software stacks, and LLM
fine-tuning memory, against the model (``rigforge validate FILE``).

Reads, as they are, files with the header of
``../shared/data/benchmarks/training_modern_calibration.csv`` (training),
``vision_inference_calibration.csv`` (vision inference) and
``../shared/data/memory/llm_finetune_memory_calibration.csv`` (memory), and the sourced
files of the same shape in ``resources/benchmarks/`` (which add a ``stack`` column).
Each row is predicted as its source ran it: its software stack (the ``stack`` column, or
what the source names: PyTorch 1.x → ``pytorch-eager``, PyTorch 2 → ``pytorch``, a
dynamo/compile file → ``pytorch-compile``, NeMo/Megatron → ``transformer-engine``,
Unsloth → ``unsloth``), precision, batch, sequence length or image size and GPU count.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

from core.calc.memory.components import FRAMEWORK_GIB
from core.calc.memory.vram import vram_breakdown
from core.calc.performance.constants import FITTED, ThroughputConstants
from core.calc.performance.profile import profile_from_workload
from core.calc.performance.scaling import estimate_throughput
from core.catalog import Catalog
from core.errors import FileFormatError, RigForgeError
from core.models.memory import VramBreakdown
from core.models.parts import GPU
from core.models.workload import (
    Checkpointing,
    MasterWeights,
    Offload,
    Optimizer,
    Parallelism,
    Stack,
    Workload,
)
from core.validation.csv_rows import (
    MAX_ROW_BATCH,
    bounded_whole,
    csv_rows,
    first_line,
    gpu_count,
    measurement,
    stated_whole,
)
from core.validation.report import PROGRESS_EVERY, Progress
from core.workloads import find_preset, make_workload

Kind = Literal["training", "vision_inference", "memory"]

TRAINING_HEADER = ("model", "task", "precision", "batch_per_gpu", "seq_len_or_image", "measured")
VISION_HEADER = ("model", "precision", "batch", "image_size", "measured_images_s")
MEMORY_HEADER = ("kind", "method", "quant", "measured_gib", "lora_rank")

MODEL_ALIASES = {
    "resnet50": "resnet50-v1.5",
    "vgg16": "vgg16",
    "vit_base_patch16_224": "vit-b16",
    "llama2-7b": "llama-2-7b",
    "llama2-13b": "llama-2-13b",
    "llama2-70b": "llama-2-70b",
    "llama3-8b": "llama-3-8b",
    "llama3_8b": "llama-3-8b",
    "llama3 8b": "llama-3-8b",
    "llama3-70b": "llama-3-70b",
    "llama3_70b": "llama-3-70b",
    "llama3 70b": "llama-3-70b",
    "llama 3 8b": "llama-3-8b",
    "llama 3.1 8b": "llama-3.1-8b",
    "llama-3.1 8b": "llama-3.1-8b",
    "llama 3.1 70b": "llama-3.1-70b",
    "llama 3.1 405b": "llama-3.1-405b",
    "llama3.1_405b": "llama-3.1-405b",
    "llama 2 13b": "llama-2-13b",
    "llama-2 7b": "llama-2-7b",
    "llama-2 13b": "llama-2-13b",
    "llama-2 70b": "llama-2-70b",
}
GPU_ALIASES = {
    "H100 (DGX-H100, SXM)": "H100 SXM5 80GB",
    "H100 (SXM, DGX Cloud)": "H100 SXM5 80GB",
    "A100-SXM4-80G": "A100 SXM4 80GB",
    "A100 80GB (DGX A100)": "A100 SXM4 80GB",
    "A100 80GB": "A100 SXM4 80GB",
    "1x A100-SXM4-40GB": "A100 SXM4 40GB",
    "2x A100 (40GB)": "A100 SXM4 40GB",
    "4x A100 (40GB)": "A100 SXM4 40GB",
    "B200 (DGX-B200)": "B200 SXM",
    "V100 16GB (DGX-1)": "V100 SXM2 16GB",
}
PRECISIONS = {"fp16 amp": "fp16", "fp16": "fp16", "amp": "fp16", "bf16": "bf16", "fp8": "fp8"}
PRECISIONS |= {"fp32": "fp32", "tf32": "tf32", "bf16 amp": "bf16", "bf16-true": "bf16"}


@dataclass(frozen=True)
class Row:
    line: int
    raw: dict[str, str]

    def get(self, name: str) -> str:
        return (self.raw.get(name) or "").strip()


def file_kind(text: str) -> Kind | None:
    first = first_line(text).split(",")
    names = {n.strip() for n in first}
    if all(n in names for n in MEMORY_HEADER):
        return "memory"
    if all(n in names for n in VISION_HEADER):
        return "vision_inference"
    if all(n in names for n in TRAINING_HEADER):
        return "training"
    return None


def read_rows(text: str) -> list[Row]:
    _header, rows = csv_rows(text)
    return [Row(number, raw) for number, raw in rows]


def stack_of(row: Row) -> Stack:
    """The software stack a source ran (its ``stack`` column, else what it names)."""
    given = row.get("stack")
    if given in ("pytorch-eager", "pytorch", "pytorch-compile", "transformer-engine", "unsloth"):
        return given  # type: ignore[return-value]
    text = " ".join((row.get("source"), row.get("source_ref"), row.get("notes"), row.get("method")))
    low = text.lower()
    if "unsloth" in low:
        return "unsloth"
    if "nemo" in low or "megatron" in low:
        return "transformer-engine"
    uncompiled = re.search(r"\b(?:no|without) torch\.compile|torch\.compile not", low)
    if ("dynamo" in low and "non-dynamo" not in low) or ("compile" in low and not uncompiled):
        return "pytorch-compile"
    if re.search(r"pytorch 1\.|pt1\d|-pt1|pt 1\.", low):
        return "pytorch-eager"
    return "pytorch"


def memory_format_of(row: Row) -> str | None:
    """The memory layout a row's source names, ``"nhwc"`` or ``"nchw"`` (timm's result
    files are named ``…-nchw-…`` and ``…-nhwc-…``), else ``None`` (the stack's default)."""
    text = " ".join((row.get("source_ref"), row.get("notes"))).lower()
    if "nhwc" in text or "channels_last" in text or "channels-last" in text:
        return "nhwc"
    if "nchw" in text:
        return "nchw"
    return None


def _gpu(catalog: Catalog, name: str) -> GPU | str:
    for candidate in (GPU_ALIASES.get(name), name, re.sub(r"^\d+x\s*", "", name)):
        if not candidate:
            continue
        try:
            return catalog.gpu(candidate)
        except RigForgeError:
            continue
    return f"GPU {name!r} is not in the catalog"


def _preset_and_task(model: str) -> tuple[str, str | None]:
    name, task = model.strip(), None
    for suffix, t in ((" lora", "lora"), (" sft", "training")):
        if name.lower().endswith(suffix):
            name, task = name[: -len(suffix)], t
    return MODEL_ALIASES.get(name.lower(), name), task


def _count(row: Row) -> int | str:
    """The row's GPU count (1 when the cell is empty), or why it cannot be used."""
    cell = row.get("gpu_count")
    if not (cell or "").strip():
        return 1
    try:
        return gpu_count(cell)
    except ValueError as error:
        return str(error)


MAX_ROW_TOKENS = 10_000_000
"""Longest sequence (or image side) a row may name: the longest context published
(Llama 4 Scout, 10 M tokens)."""
MAX_STATED = 1_000_000
"""Largest parallel degree, accumulation count or batch a row's notes may state."""


def _cell(row: Row, column: str, high: int) -> int | None:
    """A whole number from 1 to ``high`` in an optional cell (``None`` when empty);
    ``ValueError`` naming the column when the cell holds anything else."""
    text = row.get(column)
    return bounded_whole(text, column, 1, high) if text else None


class ModelParallel(NamedTuple):
    tp: int = 1
    pp: int = 1
    vp: int = 1
    cp: int = 1


def model_parallel_of(row: Row) -> ModelParallel:
    """Megatron's parallel layout as a NeMo / Megatron-Bridge / DGX Cloud row states it
    ("TP4 PP4 CP1 VP5"; "n/a" or absent = 1)."""
    text = f"{row.get('notes')} {row.get('table_section')}"
    found: dict[str, int] = {}
    for name, value in re.findall(r"\b(TP|PP|VP|CP)\s?(\d+)\b", text):
        if value.strip("0"):  # "TP0" reads as 1, as before
            found.setdefault(name.lower(), stated_whole(value, name, MAX_STATED))
    return ModelParallel(**found)


def accumulation_steps(row: Row) -> int:
    """Micro-batches per optimizer step that each GPU's pipeline runs: as the row states
    it (``N accumulation steps``, ``GA N``), else the global over the micro-batch size
    times the data-parallel width, e.g. NeMo's "GBS 32, MBS 1" on 8 GPUs = 4, and with
    "TP4 PP4" on 32 GPUs (data-parallel 2) = 16.

    Context parallelism (``CP``) splits each sequence over its ranks; the model runs
    those ranks as data parallel, so a step's sequences per GPU stay right with the
    micro-batches divided by CP."""
    text = f"{row.get('notes')} {row.get('table_section')}".lower()
    layout = model_parallel_of(row)
    stated = re.search(
        r"(\d+) accumulation steps|\bga (\d+)\b|gradient_accumulation_steps (\d+)", text
    )
    if stated:
        steps = stated_whole(
            next(g for g in stated.groups() if g), "accumulation steps", MAX_STATED
        )
        return max(1, steps // layout.cp)
    gbs, mbs = re.search(r"\bgbs (\d+)\b", text), re.search(r"\bmbs (\d+)\b", text)
    count = _count(row)
    count = count if isinstance(count, int) else 1
    if gbs and mbs:
        global_batch = stated_whole(gbs.group(1), "GBS", MAX_STATED)
        per_step = stated_whole(mbs.group(1), "MBS", MAX_STATED) * (
            count // (layout.tp * layout.pp) or 1
        )
        if global_batch % per_step == 0:
            return max(1, global_batch // per_step)
    return 1


_YES = ("yes", "true", "1", "on")
_LORA_TARGETS = ("q", "k", "v", "o", "gate", "up", "down")


def recipe_columns(row: Row, task: str) -> dict[str, Any]:
    """Workload fields from the optional recipe columns of a file in
    ``resources/benchmarks/`` (absent or empty: the reader's defaults): ``checkpointing``,
    ``optimizer``, ``master_weights``, ``optimizer_in_backward``, ``chunked_loss``,
    ``offload``, ``cpu_offload``, ``parallelism``, ``lora_rank`` and ``lora_targets``
    (comma- or space-separated projection names)."""
    fields: dict[str, Any] = {}
    if task == "inference":
        return fields
    choices = {
        "checkpointing": get_args(Checkpointing),
        "optimizer": get_args(Optimizer),
        "master_weights": get_args(MasterWeights),
        "offload": get_args(Offload),
        "parallelism": get_args(Parallelism),
    }
    for name, allowed in choices.items():
        if row.get(name).lower() in allowed:
            fields[name] = row.get(name).lower()
    for name in ("optimizer_in_backward", "chunked_loss", "cpu_offload"):
        if row.get(name):
            fields[name] = row.get(name).lower() in _YES
    targets = tuple(t for t in re.split(r"[,\s]+", row.get("lora_targets").lower()) if t)
    if task in ("lora", "qlora") and (targets or row.get("lora_rank")):
        lora: dict[str, Any] = {"rank": _cell(row, "lora_rank", 65_536) or 8}
        lora["base_bits"] = 4 if task == "qlora" else 16
        if targets:
            lora["targets"] = tuple(t for t in _LORA_TARGETS if t in targets)
        elif task == "lora":
            lora["targets"] = ("q", "v")
        fields["lora"] = lora
    return fields


def row_workload(row: Row, kind: Kind) -> Workload | str:
    """The workload a training or vision-inference row ran, or why it cannot be built."""
    preset_name, task = _preset_and_task(row.get("model"))
    try:
        preset = find_preset(preset_name)
    except RigForgeError as error:
        return str(error)
    precision = PRECISIONS.get(row.get("precision").lower())
    if precision is None:
        return f"precision {row.get('precision')!r} is not modelled"
    arch = preset.architecture
    settings: dict[str, Any] = {"precision": precision, "stack": stack_of(row)}
    if kind == "vision_inference":
        settings |= {"task": "inference", "batch_size": _cell(row, "batch", MAX_ROW_BATCH) or 1}
        size = _cell(row, "image_size", MAX_ROW_TOKENS)
    else:
        settings["task"] = task or row.get("task") or "training"
        settings["batch_size"] = _cell(row, "batch_per_gpu", MAX_ROW_BATCH) or 1
        size = _cell(row, "seq_len_or_image", MAX_ROW_TOKENS)
    if size and (arch.input_kind != "image" or arch.image_resolution_px):
        settings["seq_len"] = size
    notes = row.get("notes").lower()
    if "zero1" in notes:
        settings["parallelism"] = "zero1"
    if settings["task"] != "inference":
        steps = accumulation_steps(row)
        if steps > 1:
            settings["grad_accum_steps"] = steps
        layout = model_parallel_of(row)
        if layout.tp > 1:
            settings["tp_degree"] = layout.tp
        if layout.pp > 1:
            settings["pp_degree"] = layout.pp
            settings["pp_virtual_stages"] = layout.vp
    settings |= recipe_columns(row, settings["task"])
    try:
        return make_workload(preset, **settings)
    except RigForgeError as error:
        return str(error)


def predict_throughput(
    row: Row, kind: Kind, catalog: Catalog, c: ThroughputConstants = FITTED
) -> tuple[float, Workload, GPU] | str:
    gpu = _gpu(catalog, row.get("gpu"))
    if isinstance(gpu, str):
        return gpu
    count = _count(row)
    if isinstance(count, str):
        return count
    workload = row_workload(row, kind)
    if isinstance(workload, str):
        return workload
    profile = profile_from_workload(workload)
    layout = memory_format_of(row)
    # Inductor lays convolutions out channels-last itself whatever the input's format
    # (torch._inductor.config.layout_optimization, on by default), so a compiled NCHW run
    # pays no transposes.
    if layout is not None and workload.stack != "pytorch-compile":
        profile = profile.model_copy(update={"channels_last": layout == "nhwc"})
    try:
        result = estimate_throughput(profile, gpu, count, c, curve=False)
    except RigForgeError as error:
        return str(error)
    value = result.total_throughput
    if row.get("unit") in ("samples/s", "sequences/s") and result.unit == "tokens/s":
        value /= workload.tokens_per_sequence
    if row.get("measured_basis") == "per GPU":
        value /= count
    return value, workload, gpu


def _measured(row: Row, kind: Kind) -> float | None:
    """The measured value (``None`` when the cell is empty; ``ValueError`` in words when it
    holds no measurement)."""
    column = "measured_images_s" if kind == "vision_inference" else "measured"
    text = row.get(column)
    return measurement(text, column) if text else None


def _summary(items: list[dict[str, Any]]) -> dict[str, Any]:
    errors = [abs(i["ratio"] - 1.0) * 100.0 for i in items]
    ratios = [i["ratio"] for i in items]
    return {
        "rows": len(items),
        "median_abs_pct_error": statistics.median(errors) if errors else None,
        "median_ratio": statistics.median(ratios) if ratios else None,
    }


def _run(row: Row, measured: str) -> tuple[str, ...]:
    """What a row ran: every cell but its measurement (rows with equal runs predict alike)."""
    return tuple(v for k, v in row.raw.items() if k != measured)


def throughput_report(
    rows: list[Row],
    kind: Kind,
    catalog: Catalog,
    c: ThroughputConstants = FITTED,
    progress: Progress | None = None,
) -> dict[str, Any]:
    details: list[dict[str, Any]] = []
    unresolved: dict[str, int] = {}
    known: dict[tuple[str, ...], tuple[float, Workload, GPU] | str] = {}
    column = "measured_images_s" if kind == "vision_inference" else "measured"
    for number, row in enumerate(rows, start=1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(number, len(rows))
        try:
            measured = _measured(row, kind)
            if not measured:
                outcome: tuple[float, Workload, GPU] | str = "no measured value"
            elif (outcome_known := known.get(run := _run(row, column))) is not None:
                outcome = outcome_known
            else:
                outcome = known[run] = predict_throughput(row, kind, catalog, c)
        except ValueError as error:  # a cell or a note that states no usable number
            outcome = f"line {row.line}: {error}"
        if isinstance(outcome, str):
            unresolved[outcome] = unresolved.get(outcome, 0) + 1
            continue
        predicted, workload, gpu = outcome
        assert measured is not None
        details.append(
            {
                "line": row.line,
                "source": row.get("source"),
                "model": row.get("model"),
                "workload": workload.preset_id,
                "stack": workload.stack,
                "gpu": gpu.id,
                "gpu_count": count if isinstance(count := _count(row), int) else 1,
                "measured": measured,
                "predicted": predicted,
                "ratio": predicted / measured,
            }
        )
    return _report(rows, details, unresolved)


def _totals(rows: int, details: list[dict[str, Any]]) -> dict[str, Any]:
    """One file's or one source's figures: ``rows`` read, ``resolved`` (predicted),
    ``compared`` (with a measured value), their median error and ratio and, where any
    row has a fit verdict, ``fit_rows`` and ``fit_agreement``."""
    measured = [d for d in details if "ratio" in d]
    verdicts = [d["fits"] for d in details if "fits" in d]
    return {
        **_summary(measured),
        "rows": rows,
        "resolved": len(details),
        "compared": len(measured),
        "fit_rows": len(verdicts),
        "fit_agreement": sum(verdicts) / len(verdicts) if verdicts else None,
    }


def _report(
    rows: list[Row], details: list[dict[str, Any]], unresolved: dict[str, int]
) -> dict[str, Any]:
    """The file's figures and the same for each source it names (every source with a
    row, resolved or not)."""
    read: dict[str, int] = {}
    for row in rows:
        read[row.get("source")] = read.get(row.get("source"), 0) + 1
    by_source: dict[str, list[dict[str, Any]]] = {source: [] for source in read}
    for d in details:
        by_source.setdefault(d["source"], []).append(d)
    return {
        **_totals(len(rows), details),
        "by_source": {s: _totals(read.get(s, 0), items) for s, items in by_source.items()},
        "unresolved": unresolved,
        "details": details,
    }


def memory_workload(row: Row) -> Workload | str:
    """The workload a memory row describes (its model, method, quantisation, lengths,
    checkpointing and parallelism), or why it cannot be built."""
    preset_name, _task = _preset_and_task(row.get("model"))
    try:
        preset = find_preset(preset_name)
    except RigForgeError as error:
        return str(error)
    method = row.get("method").lower()
    quant = row.get("quant").lower()
    task = (
        "inference"
        if method.startswith("inference")
        else "qlora"
        if method.startswith("qlora") or "nf4" in quant
        else "lora"
        if method.startswith("lora")
        else "training"
    )
    precision = PRECISIONS.get(row.get("precision").lower(), "bf16")
    settings: dict[str, Any] = {
        "task": task,
        "precision": precision,
        "batch_size": _cell(row, "batch", MAX_ROW_BATCH) or 1,
        "stack": stack_of(row),
    }
    seq = _cell(row, "seq_len", MAX_ROW_TOKENS)
    if seq:
        if task == "inference":
            settings |= {"prompt_len": seq, "generated_len": 0}
        else:
            settings["seq_len"] = seq
    if task in ("lora", "qlora"):
        rank = _cell(row, "lora_rank", 65_536) or 8
        lora: dict[str, Any] = {"rank": rank, "base_bits": 4 if task == "qlora" else 16}
        if task == "lora":
            lora["targets"] = ("q", "v")
        settings["lora"] = lora
    if task == "inference" and "nf4" in quant:
        # bitsandbytes NF4 (fp32 absmax per 64 weights) or NF4 with double quantization
        settings["precision"] = "int4"
        weights = "nf4-dq" if "nf4-dq" in quant else "nf4"
        settings["serving"] = {"engine": "transformers", "weights": weights}
    if "offloaded gradient checkpointing" in method:
        settings["offload"] = "activations"
    if "unsloth" in method:
        settings["stack"] = "unsloth"
    elif "hugging face" in method or "litgpt" in method:
        settings["stack"] = "pytorch"  # PyTorch 2 with scaled_dot_product_attention
    if "fsdp" in method:
        settings["parallelism"] = "fsdp"
    # checkpointing, parallelism, optimizer and the rest from the row's recipe columns
    settings |= recipe_columns(row, task)
    try:
        return make_workload(preset, **settings)
    except RigForgeError as error:
        return str(error)


def _memory_prediction(row: Row) -> tuple[Workload, int, VramBreakdown] | str:
    """The workload, GPU count and predicted memory of a row, or why there are none."""
    try:
        workload = memory_workload(row)
    except ValueError as error:  # a cell that states no usable number
        return f"line {row.line}: {error}"
    if isinstance(workload, str):
        return workload
    count = _count(row)
    if isinstance(count, str):
        return count
    try:
        return workload, count, vram_breakdown(workload, count)
    except RigForgeError as error:
        return str(error)


def memory_report(
    rows: list[Row], catalog: Catalog, progress: Progress | None = None
) -> dict[str, Any]:
    """``measured`` rows: predicted GiB (allocated, so without the CUDA context) against
    the measured peak; ``max-context-fit`` rows: does the published longest context fit
    on a GPU of that size (``fit_agreement``)."""
    del catalog  # GPU sizes are given in the rows
    details: list[dict[str, Any]] = []
    unresolved: dict[str, int] = {}
    known: dict[tuple[str, ...], tuple[Workload, int, VramBreakdown] | str] = {}
    for number, row in enumerate(rows, start=1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(number, len(rows))
        outcome = known.get(run := _run(row, "measured_gib"))
        if outcome is None:
            outcome = known[run] = _memory_prediction(row)
        if isinstance(outcome, str):
            unresolved[outcome] = unresolved.get(outcome, 0) + 1
            continue
        workload, count, breakdown = outcome
        try:
            if not row.get("measured_gib"):
                raise ValueError
            measured = measurement(row.get("measured_gib"), "measured_gib")
        except ValueError as error:
            reason = f"line {row.line}: {error}" if str(error) else "the row gives no measured GiB"
        else:
            reason = ""
        if reason:
            unresolved[reason] = unresolved.get(reason, 0) + 1
            continue
        row_info = {
            "line": row.line,
            "source": row.get("source"),
            "model": row.get("model"),
            "method": row.get("method"),
            "gpu_count": count,
        }
        if row.get("kind") == "max-context-fit":
            fits = breakdown.total_gib <= measured
            details.append(
                row_info
                | {
                    "capacity_gib": measured,
                    "context": workload.seq_len,
                    "predicted_total_gib": breakdown.total_gib,
                    "fits": fits,
                }
            )
            continue
        predicted = breakdown.total_gib - FRAMEWORK_GIB
        details.append(
            row_info | {"measured": measured, "predicted": predicted, "ratio": predicted / measured}
        )
    return _report(rows, details, unresolved)


def report(text: str, catalog: Catalog, progress: Progress | None = None) -> dict[str, Any]:
    kind = file_kind(text)
    if kind is None:
        raise FileFormatError("the CSV has none of the known headers")
    rows = read_rows(text)
    if kind == "memory":
        result = memory_report(rows, catalog, progress)
    else:
        result = throughput_report(rows, kind, catalog, progress=progress)
    return {"kind": kind, **result}
