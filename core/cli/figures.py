"""The figures ``predict --json`` and ``check --json`` print for one machine and workload:
the same keys from the same results, so the two commands agree number for number."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.calc.rig import Rig
    from core.models.analysis import Analysis
    from core.models.inference import InferenceResult
    from core.models.memory import VramResult
    from core.models.throughput import ThroughputResult
    from core.models.workload import Workload

SERVING_KEYS = (
    "prefill_tokens_s",
    "ttft_s",
    "ttft_together_s",
    "decode_tokens_s_per_stream",
    "aggregate_decode_tokens_s",
    "max_streams",
)
"""What a served LLM is judged by (``InferenceSpeed``)."""


def serving_figures(served: InferenceResult, workload: Workload, rig: Rig) -> dict[str, Any]:
    from core.calc.inference.constants import default_backend
    from core.calc.inference.launch import launch_command
    from core.validation.bands import serving_bands

    speed = served.speed
    bands = serving_bands(workload, rig.count)
    return {
        "workload": workload.name,
        "gpu": rig.gpu.id,
        "count": rig.count,
        "serving": workload.serving_settings.model_dump(),
        **{key: getattr(speed, key) for key in SERVING_KEYS},
        "bottleneck": speed.bottleneck,
        "step_ms": speed.step_ms,
        "fits": served.memory.fits,
        "power_limit_w": rig.power_limit_w,
        "decode_power_w": speed.decode_power_w,
        "host_memory_gb_s": rig.host_memory_gb_s,
        "host_memory_assumed": rig.host_memory_assumed,
        "engine_basis": served.engine_basis,
        "running_streams": speed.running_streams,
        "speculative_speedup": speed.speculative_speedup,
        "host_ram_gib": served.memory.host_ram_gib,
        "offloaded_to_fit": served.offloaded_to_fit,
        "launch_command": served.launch_command
        or launch_command(workload, rig.count, backend=default_backend(rig.gpu.vendor)),
        "expected_error_pct": bands["decode_tokens_s_per_stream"].pct,
        "expected_error_pct_by_figure": {k: b.pct for k, b in bands.items()},
        "expected_error_basis": {k: b.basis for k, b in bands.items()},
    }


def training_figures(
    result: ThroughputResult, workload: Workload, rig: Rig, vram: VramResult | None = None
) -> dict[str, Any]:
    from core.calc.memory import estimate_vram
    from core.calc.performance.stacks import stack_basis
    from core.text.throughput import bottleneck_text, precision_text

    if vram is None:
        vram = estimate_vram(workload, rig.gpu.vram_gib, rig.count, with_fixes=False)
    offloaded = workload.trains and workload.offloads_optimizer
    return {
        "workload": workload.name,
        "gpu": rig.gpu.id,
        **result.model_dump(),
        "fits": vram.fits,
        "vram_gib": vram.total_gib,
        "vram_capacity_gib": rig.gpu.vram_gib,
        "bottleneck_text": bottleneck_text(result.bottleneck),
        "precision_text": precision_text(result.precision_note),
        "stack_basis": stack_basis(workload),
        "host_optimizer_timed": True if offloaded else None,
        "host_memory_gb_s": rig.host_memory_gb_s if offloaded else None,
        "host_memory_assumed": bool(offloaded and rig.host_memory_assumed),
    }


def analysis_figures(a: Analysis) -> dict[str, Any]:
    """The analysis figures ``check --json`` adds to each build: a served LLM's speeds, or
    the training throughput (``None`` where not estimated)."""
    if a.inference is not None:
        return {key: getattr(a.inference.speed, key) for key in SERVING_KEYS}
    if a.throughput is not None:
        return {"total_throughput": a.throughput.total_throughput}
    return {}


def system_figures(served: Any, workload: Workload) -> dict[str, Any]:
    """``predict --system --json``: the serving figures, the system and its memory share."""
    from core.calc.inference.launch import launch_command
    from core.text.checks import render_reason
    from core.text.fixes import fix_text
    from core.text.systems import memory_share_note
    from core.text.verdict import checks_verdict
    from core.validation.bands import serving_bands

    speed, memory, system = served.speed, served.memory, served.system
    bands = serving_bands(workload, served.nodes)
    cost = served.cost
    return {
        "workload": workload.name,
        "system": system.id,
        "system_name": system.name,
        "nodes": served.nodes,
        "verdict": served.verdict,
        "verdict_text": checks_verdict(served.checks, served.verdict).text,
        "checks": [
            c.model_dump()
            | {"text": render_reason(c), "fix_text": fix_text(c.fix) if c.fix else None}
            for c in served.checks
        ],
        "backend": served.backend,
        "serving": workload.serving_settings.model_dump(),
        **{key: getattr(speed, key) for key in SERVING_KEYS},
        "running_streams": speed.running_streams,
        "speculative_speedup": speed.speculative_speedup,
        "bottleneck": speed.bottleneck,
        "step_ms": speed.step_ms,
        "fits": memory.fits,
        "total_gib": memory.total_gib,
        "gpu_memory_gib": served.gpu_gib,
        "gpu_memory_default_gib": served.default_gib,
        "memory_share_note": memory_share_note(system, memory.total_gib, memory.fits),
        "link_gb_s": served.link_gb_s,
        "price_usd": served.parts_usd,
        "price_as_of": system.price.as_of.isoformat() if system.price.as_of else None,
        "wall_w": served.wall_w,
        "usd_per_million_tokens": cost.usd_per_million_tokens if cost else None,
        "engine_basis": served.engine_basis,
        "launch_command": launch_command(workload, 1, nodes=served.nodes, backend=served.backend),
        "expected_error_pct": bands["decode_tokens_s_per_stream"].pct,
        "expected_error_pct_by_figure": {k: b.pct for k, b in bands.items()},
        "sources": list(system.sources),
    }
