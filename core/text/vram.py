"""Text for the VRAM model's results and fixes."""

from __future__ import annotations

from core.calc.memory.vram import VramFix, VramResult

FIX_TEXT = {
    "reduce_batch": "batch {batch_size}",
    "checkpointing_selective": "selective activation recomputation",
    "checkpointing_full": "full gradient checkpointing",
    "mixed_precision": "bf16 mixed precision",
    "optimizer_8bit": "8-bit Adam",
    "zero2": "ZeRO-2 over the GPUs",
    "zero3": "ZeRO-3 over the GPUs",
    "tensor_parallel": "tensor parallel degree {tp_degree}",
    "lora": "LoRA r={lora_rank}",
    "qlora": "QLoRA (4-bit NF4 base)",
    "quantize_int8": "int8 weights",
    "quantize_int4": "int4 weights",
    "cpu_offload": "CPU offload of optimizer state",
    "add_gpus_zero3": "ZeRO-3 over {gpu_count} GPUs",
}


def fix_text(fix: VramFix) -> str:
    template = FIX_TEXT.get(fix.code, fix.code)
    try:
        label = template.format(**fix.changes)
    except KeyError:
        label = fix.code
    return f"{label} -> {fix.total_gib:.1f} GiB, {'fits' if fix.fits else 'does not fit'}"


def render(result: VramResult, name: str, gpu: str) -> str:
    b = result.breakdown
    rows = [
        ("weights", b.weights_gib),
        ("gradients", b.gradients_gib),
        ("optimizer state", b.optimizer_gib),
        ("activations", b.activations_gib),
        ("KV cache", b.kv_cache_gib),
        ("CUDA context/framework", b.framework_gib),
        ("workspace/fragmentation", b.workspace_gib),
    ]
    lines = [f"{name} on {result.gpu_count}x {gpu} ({result.capacity_gib:.1f} GiB each), per GPU:"]
    lines += [f"  {label:<26}{value:9.2f} GiB" for label, value in rows]
    lines.append(f"  {'total':<26}{result.total_gib:9.2f} GiB")
    verdict = "fits" if result.fits else "does NOT fit"
    lines.append(
        f"{verdict}; free {result.free_gib:.2f} GiB; "
        f"largest batch that fits: {result.max_batch_size}"
    )
    lines.append(f"host RAM needed: {result.host_ram_gib:.1f} GiB")
    if result.fixes:
        lines.append("fixes:")
        lines += [f"  {i}. {fix_text(fix)}" for i, fix in enumerate(result.fixes, 1)]
    return "\n".join(lines)
