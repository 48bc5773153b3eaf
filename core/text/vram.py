"""Text for the VRAM model's results and fixes."""

from __future__ import annotations

from core.models.memory import VramResult
from core.text.fixes import fix_text


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
