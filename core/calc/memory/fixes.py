"""Ranked fixes for a workload that does not fit: each a typed change and the memory it leads to.

Every candidate is re-evaluated with ``vram_breakdown`` (same formulas, same sources);
fixes that fit come first, then by the order of ``_CANDIDATES`` (least disruptive
first: training recipe changes before model changes before hardware changes), then by
memory.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from core.calc.memory.vram import max_batch_size, vram_breakdown
from core.errors import InvalidWorkload
from core.models.checks import Fix
from core.models.workload import LoraSettings, Workload


def _candidates(w: Workload, gpu_count: int) -> list[tuple[str, dict[str, Any], int]]:
    """(code, changes, gpu_count) in preference order; only those that differ from ``w``."""
    out: list[tuple[str, dict[str, Any], int]] = []
    arch = w.architecture
    if w.trains and arch.is_transformer:
        if w.checkpointing == "none" and arch.attention_impl == "eager":
            out.append(("checkpointing_selective", {"checkpointing": "selective"}, gpu_count))
        if w.checkpointing in ("none", "selective"):
            out.append(("checkpointing_op", {"checkpointing": "op"}, gpu_count))
        if w.checkpointing != "full":
            out.append(("checkpointing_full", {"checkpointing": "full"}, gpu_count))
    if w.trains and w.precision in ("fp32", "tf32"):
        out.append(("mixed_precision", {"precision": "bf16"}, gpu_count))
    if w.trains and w.optimizer in ("adam", "adamw", "sgd", "adafactor"):
        out.append(("optimizer_8bit", {"optimizer": "adam8bit"}, gpu_count))
    # ZeRO-2/3 do not run under a pipeline: those fixes drop it; ZeRO-1 keeps it
    unpiped: dict[str, Any] = {"pp_degree": 1, "pp_virtual_stages": 1} if w.pp_degree > 1 else {}
    if gpu_count > 1 and w.trains and w.pp_degree > 1 and w.parallelism == "data":
        out.append(("zero1", {"parallelism": "zero1"}, gpu_count))
    if gpu_count > 1 and w.parallelism in ("data", "independent", "zero1", "zero2") and w.trains:
        for stage in ("zero2", "zero3"):
            if stage != w.parallelism:
                out.append((stage, {"parallelism": stage, **unpiped}, gpu_count))
    if gpu_count > 1 and arch.is_transformer and w.tp_degree == 1 and arch.heads:
        group = gpu_count // w.pp_degree  # the GPUs of one pipeline stage
        tp = group if group > 1 and arch.heads % group == 0 else 1
        if tp > 1:
            parallel = "data" if w.parallelism == "independent" else w.parallelism
            out.append(("tensor_parallel", {"tp_degree": tp, "parallelism": parallel}, gpu_count))
    if gpu_count > 1 and w.trains and arch.is_transformer and arch.layers:
        stages = _pipeline_stages(arch.layers, gpu_count // w.tp_degree)
        if stages > w.pp_degree:
            # a pipeline needs micro-batches to fill it: at least two per stage per step
            parallel = "zero1" if w.parallelism not in ("data", "zero1") else w.parallelism
            changes: dict[str, Any] = {"pp_degree": stages, "parallelism": parallel}
            if w.pp_virtual_stages > 1:
                changes["pp_virtual_stages"] = 1
            changes["grad_accum_steps"] = max(w.grad_accum_steps, 2 * stages)
            out.append(("pipeline_parallel", changes, gpu_count))
    if w.task == "training" and arch.is_transformer:
        out.append(("lora", {"task": "lora", "lora": LoraSettings(rank=16)}, gpu_count))
    if w.task in ("training", "lora") and arch.is_transformer:
        precision: str = w.precision if w.precision in ("fp16", "bf16") else "bf16"
        out.append(
            (
                "qlora",
                {"task": "qlora", "precision": precision, "lora": None, "optimizer": "adamw"},
                gpu_count,
            )
        )
    if w.task == "inference":
        for precision in ("int8", "int4"):
            if w.precision not in ("int4", precision):
                out.append((f"quantize_{precision}", {"precision": precision}, gpu_count))
    if w.trains and w.parallelism in ("zero2", "zero3", "fsdp") and not w.cpu_offload:
        out.append(("cpu_offload", {"cpu_offload": True}, gpu_count))
    if w.trains and w.parallelism != "independent":
        for more in (2, 4, 8):
            if more > gpu_count:
                grow = {"gpu_count": more, "parallelism": "zero3", **unpiped}
                out.append(("add_gpus_zero3", grow, more))
                break
    return out


def _pipeline_stages(layers: int, gpus: int) -> int:
    """The most stages the GPUs of one tensor-parallel group split into, each with the
    same whole number of layers (1: no pipeline)."""
    return max((p for p in range(1, gpus + 1) if gpus % p == 0 and layers % p == 0), default=1)


def _as_fix(
    code: str, changes: dict[str, Any], gpus: int, gpu_count: int, total: float, capacity_gib: float
) -> Fix:
    """A ranked candidate as a typed fix: workload fields, plus the GPU count when it grows."""
    workload: dict[str, Any] = {}
    for key, value in changes.items():
        if key == "lora":
            if isinstance(value, LoraSettings):
                workload["lora_rank"] = value.rank
        elif key != "gpu_count":
            workload[key] = value
    build: dict[str, Any] = {"gpu_count": gpus} if gpus != gpu_count else {}
    return Fix(
        code=code,
        build=build,
        workload=workload,
        numbers={"total_gib": round(total, 1), "fits": 1 if total <= capacity_gib else 0},
    )


def suggest_fixes(workload: Workload, capacity_gib: float, gpu_count: int) -> tuple[Fix, ...]:
    """Ranked fixes; the first entry may be ``reduce_batch`` when a smaller batch fits."""
    current = vram_breakdown(workload, gpu_count).total_gib
    fixes: list[tuple[int, float, Fix]] = []
    best_batch = max_batch_size(workload, gpu_count, capacity_gib)
    if 1 <= best_batch < workload.batch_size:
        total = vram_breakdown(
            workload.model_copy(update={"batch_size": best_batch}), gpu_count
        ).total_gib
        fix = _as_fix(
            "reduce_batch", {"batch_size": best_batch}, gpu_count, gpu_count, total, capacity_gib
        )
        fixes.append((-1, total, fix))
    for rank, (code, changes, gpus) in enumerate(_candidates(workload, gpu_count)):
        update = {k: v for k, v in changes.items() if k != "gpu_count"}
        try:
            candidate = Workload.model_validate(workload.model_dump() | update)
            total = vram_breakdown(candidate, gpus).total_gib
        except (ValidationError, InvalidWorkload):
            continue
        if total >= current:
            continue
        fixes.append((rank, total, _as_fix(code, changes, gpus, gpu_count, total, capacity_gib)))
    fixes.sort(key=lambda item: (item[2].numbers["fits"] != 1, item[0], item[1]))
    return tuple(fix for _, _, fix in fixes)
