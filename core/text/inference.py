"""Words and card figures for LLM serving (``core.calc.inference``), for GUI, CLI and PDF."""

from __future__ import annotations

from core.models.analysis import Analysis
from core.models.inference import Bottleneck, InferenceMemory, InferenceSpeed
from core.text.format import use_of
from core.text.money import Money
from core.validation.bands import band_text, serving_bands

BOTTLENECK_TEXT: dict[Bottleneck, str] = {
    "weights_bandwidth": "memory bandwidth (reading the weights for every token)",
    "kv_cache_bandwidth": "memory bandwidth (reading the KV cache of every stream)",
    "per_token_overhead": "fixed cost per token (kernel launches, synchronisation)",
    "compute": "GPU compute (many streams decode together)",
    "gpu_links": "GPU-to-GPU transfers (the split's all-reduces or hops)",
    "host_memory": "host memory bandwidth (offloaded weights run on the CPU)",
}


DECODE_PARTS: tuple[tuple[str, str], ...] = (
    ("weights", "weights read"),
    ("kv_cache", "KV cache read"),
    ("compute", "compute"),
    ("overhead", "fixed cost"),
    ("links", "GPU links"),
    ("host", "CPU (offload)"),
    ("draft", "drafting (speculative)"),
)
"""The parts of one decode step (``InferenceSpeed.step_ms``) in a user's words."""


def decode_rows(speed: InferenceSpeed) -> list[tuple[str, str, str]]:
    """(part, ms, share) of one decode step (one token for every stream), then the step
    and the time to first token: the Breakdowns table of a served LLM."""
    step = sum(speed.step_ms.values())
    rows = [
        (label, f"{speed.step_ms.get(key, 0.0):.2f}", f"{speed.step_ms.get(key, 0.0) / step:.0%}")
        for key, label in DECODE_PARTS
        if step > 0
    ]
    rows.append(("decode step", f"{step:.2f}", "100%"))
    rows.append(("first token", f"{speed.ttft_s * 1e3:.2f}", "prompt + 1 step"))
    return rows


def serving_memory_rows(memory: InferenceMemory) -> list[tuple[str, str, str]]:
    """(part, GiB, share) of the fullest GPU's memory when serving (the engine's CUDA
    context, compute buffers and graphs as "engine"), then the total."""
    total = memory.total_gib or 1.0
    rows = [
        (label, f"{value:.2f}", f"{value / total:.0%}")
        for label, value in (
            ("weights", memory.weights_gib),
            ("KV cache", memory.kv_cache_gib),
            ("engine", memory.engine_gib),
        )
    ]
    rows.append(("total", f"{memory.total_gib:.2f}", f"of {memory.usable_gib:.1f} GiB usable"))
    return rows


def rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def seconds(value: float) -> str:
    return f"{value * 1000:,.0f} ms" if value < 1 else f"{value:,.2f} s"


def speed_lines(speed: InferenceSpeed, memory: InferenceMemory) -> list[str]:
    lines = [
        f"Prompt processing: {rate(speed.prefill_tokens_s)} tokens/s",
        f"Time to first token: {seconds(speed.ttft_s)}",
        f"Generation: {rate(speed.decode_tokens_s_per_stream)} tokens/s per stream, "
        f"{rate(speed.aggregate_decode_tokens_s)} tokens/s for {speed.streams} stream(s)",
        f"Streams that fit at this context: {memory.max_streams}"
        + (
            f" ({speed.streams - speed.running_streams} of {speed.streams} wait for a slot)"
            if speed.running_streams and speed.streams > speed.running_streams
            else ""
        ),
        f"Bottleneck: {BOTTLENECK_TEXT[speed.bottleneck]}",
        *(
            [f"Speculative decoding: ×{speed.speculative_speedup:.2f} over plain decode"]
            if speed.speculative_speedup is not None
            else []
        ),
        f"GPU memory: {memory.total_gib:.1f} GiB on the fullest GPU of the {memory.usable_gib:.1f}"
        f" GiB the engine may use ({'fits' if memory.fits else 'does not fit'})",
        f"Host RAM: {memory.host_ram_gib:.1f} GiB"
        + (
            f" ({memory.offloaded_gib:.1f} GiB of weights offloaded)"
            if memory.offloaded_gib
            else ""
        ),
    ]
    return lines


def api_break_even_text(a: Analysis, money: Money) -> str:
    """Owning against an API priced per million tokens (the settings' price)."""
    cost = a.inference.cost if a.inference else None
    api = a.settings.api_usd_per_million_tokens
    if cost is None or api is None:
        return "no API price set (Settings)"
    if cost.electricity_usd_per_million_tokens is None:
        return "unknown: GPU board power unknown"
    if cost.electricity_usd_per_million_tokens >= api:
        return (
            f"never: electricity alone costs {money(cost.electricity_usd_per_million_tokens, 2)}"
            f" per million tokens, the API {money(api, 2)}"
        )
    if cost.break_even_months is None:
        return "unknown: a part has no price"
    return f"after {cost.break_even_months:,.0f} months of use against {money(api, 2)} per million"


def serving_figures(a: Analysis, money: Money) -> dict[str, tuple[str, str, str, str]]:
    """(title, value, detail, why) for the cards that change meaning when serving an LLM."""
    assert a.inference is not None and a.workload is not None
    inf, speed, memory = a.inference, a.inference.speed, a.inference.memory
    serving = a.workload.serving_settings  # the file's, or the defaults the estimate used
    context, engine = serving.context, serving.engine
    step = ", ".join(f"{k} {v:.2f} ms" for k, v in speed.step_ms.items() if v > 0.005)
    bands = serving_bands(a.workload, a.build.gpu_count)
    figures = {
        "vram": (
            "Fits in VRAM",
            "Yes" if memory.fits else "No",
            f"{use_of(memory.total_gib, memory.usable_gib)} per GPU",
            "Per GPU (the fullest): its share of the weights + its share of the KV cache of "
            f"every stream at {context:,} tokens + the engine's buffers\n"
            f"= {memory.weights_gib:.1f} + {memory.kv_cache_gib:.1f} + "
            f"{memory.engine_gib:.1f} = {memory.total_gib:.1f} GiB of {memory.usable_gib:.1f} "
            f"GiB the engine may use ({engine}). Several GPUs split the model; never one copy "
            "per GPU. See docs/inference-model.md.",
        ),
        "throughput": (
            "Generation",
            f"{rate(speed.decode_tokens_s_per_stream)} tokens/s",
            f"per stream · {memory.max_streams} users at {context:,} tokens"
            + (
                f" · ×{speed.speculative_speedup:.2f} speculative"
                if speed.speculative_speedup is not None
                else ""
            ),
            f"Mean speed of one stream over the generated tokens = 1 / decode step; "
            f"one step: {step}.\n{speed.streams} stream(s) together: "
            f"{rate(speed.aggregate_decode_tokens_s)} tokens/s. Users served: streams whose "
            f"KV cache fits beside the weights at the full context ({memory.max_streams})."
            + (f"\nEngine constants: {inf.engine_basis}." if inf.engine_basis else "")
            + f"\nExpected error: {band_text(bands['decode_tokens_s_per_stream'])}."
            + (f"\nLaunch: {inf.launch_command}" if inf.launch_command else ""),
        ),
        "time": (
            "Time to first token",
            seconds(speed.ttft_s),
            f"prompt {rate(speed.prefill_tokens_s)} tokens/s",
            "Prefill of the prompt (compute-bound: its FLOPs at the tensor rate the weights' "
            "format runs at) plus the first decode step"
            + (" plus the wait for a free slot" if speed.streams > speed.running_streams else "")
            + f".\nExpected error: {band_text(bands['ttft_s'])}.",
        ),
    }
    cost = inf.cost
    if cost is not None:
        per = cost.usd_per_million_tokens
        detail = f"over {cost.lifetime_years} years"
        if a.settings.api_usd_per_million_tokens is not None:
            detail += f" · API break-even {api_break_even_text(a, money).split(':')[0]}"
        figures["per_unit"] = (
            "Cost / 1M tokens",
            money(per, 2)
            if per is not None
            else "unknown: GPU board power unknown"
            if cost.electricity_usd_per_million_tokens is None
            else "unknown: a part has no price",
            detail,
            "(parts cost over the lifetime + electricity) / tokens generated, at the "
            "settings' utilization and tariff; "
            + (
                "the GPUs' board power is unknown, so is their electricity"
                if speed.decode_power_w is None
                else f"the GPUs draw {speed.decode_power_w:,.0f} W while generating (below "
                "board power: decode waits on memory)"
            )
            + ". Set an API price in Settings for the break-even.",
        )
    figures["bottleneck"] = (
        "Bottleneck",
        BOTTLENECK_TEXT[speed.bottleneck].split(" (")[0],
        BOTTLENECK_TEXT[speed.bottleneck],
        f"The largest part of one decode step: {step}.",
    )
    return figures
