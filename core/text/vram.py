"""Text for the VRAM model's results and fixes."""

from __future__ import annotations

from core.models.memory import VramResult
from core.text.fixes import fix_text

VRAM_PARTS: tuple[tuple[str, str], ...] = (
    ("weights_gib", "weights"),
    ("gradients_gib", "gradients"),
    ("optimizer_gib", "optimizer state"),
    ("activations_gib", "activations"),
    ("kv_cache_gib", "KV cache"),
    ("framework_gib", "CUDA/framework"),
    ("workspace_gib", "workspace"),
)
"""What training memory holds on each GPU (``VramBreakdown``), in the user's words: the
chart's legend, the results table, the build sheet and ``rigforge memory``."""

SERVING_PARTS: tuple[tuple[str, str], ...] = (
    ("weights_gib", "weights"),
    ("kv_cache_gib", "KV cache"),
    ("framework_gib", "engine"),
)
"""What a served LLM holds on a GPU (the engine's CUDA context, buffers and graphs)."""


def render(result: VramResult, name: str, gpu: str) -> str:
    b = result.breakdown
    rows = [(label, getattr(b, key)) for key, label in VRAM_PARTS]
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
