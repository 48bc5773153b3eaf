"""Results of the LLM serving model (``core.calc.inference``): memory, speed, cost."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from core.models.checks import Fix
from core.models.common import Frozen

NonNeg = Annotated[float, Field(ge=0)]

Bottleneck = Literal[
    "weights_bandwidth",
    "kv_cache_bandwidth",
    "per_token_overhead",
    "compute",
    "gpu_links",
    "host_memory",
]


class InferenceMemory(Frozen):
    """Per-GPU memory of serving a decoder LLM (the fullest GPU), and host RAM."""

    weights_gib: NonNeg
    kv_cache_gib: NonNeg
    """KV cache of ``streams`` sequences at the full context, on this GPU."""
    engine_gib: NonNeg
    """CUDA context, compute buffers and CUDA graphs of the engine."""
    total_gib: NonNeg
    capacity_gib: NonNeg
    usable_gib: NonNeg
    """What the engine lets itself use (vLLM: gpu_memory_utilization × capacity)."""
    fits: bool
    gpu_count: Annotated[int, Field(ge=1)]
    host_ram_gib: NonNeg
    offloaded_gib: NonNeg
    kv_per_stream_gib: NonNeg
    max_streams: Annotated[int, Field(ge=0)]
    """Streams whose KV cache fits beside the weights at the full context."""
    fixes: tuple[Fix, ...] = ()
    """Changes that make it fit (each may combine several), least disruptive first."""

    @property
    def free_gib(self) -> float:
        return self.usable_gib - self.total_gib


class CurvePoint(Frozen):
    x: float
    tokens_s: float


class InferenceSpeed(Frozen):
    """Prefill, time to first token and generation speed of one serving configuration."""

    prefill_tokens_s: NonNeg
    ttft_s: NonNeg
    ttft_together_s: NonNeg | None = None
    """Time to the first tokens when every stream's prompt arrives at once and the engine
    prefills them in one batch (a static-batch benchmark; ``ttft_s`` is one new request
    joining the streams already running)."""
    decode_tokens_s_per_stream: NonNeg
    """Mean over the generated tokens after the prompt."""
    aggregate_decode_tokens_s: NonNeg
    streams: Annotated[int, Field(ge=1)]
    max_streams: Annotated[int, Field(ge=0)]
    running_streams: Annotated[int, Field(ge=0)] = 0
    """Streams decoded together: ``streams`` capped by the KV cache and the engine's
    scheduler; the rest queue (their wait is in ``ttft_s``)."""
    speculative_speedup: NonNeg | None = None
    """Generation speed with speculative decoding over the same rig's plain decode."""
    bottleneck: Bottleneck
    step_ms: dict[str, float] = {}
    """One decode step's time by part (ms): weights, kv_cache, overhead, links, host."""
    by_context: tuple[CurvePoint, ...] = ()
    """Single-stream generation speed against the context length."""
    by_streams: tuple[CurvePoint, ...] = ()
    """Aggregate generation speed against the number of streams."""
    decode_power_w: NonNeg | None = None
    """Draw of the GPUs while generating (below board power: decode waits on memory)."""
    prefill_power_w: NonNeg | None = None


class InferenceCost(Frozen):
    """Cost per million generated tokens over the build's lifetime."""

    usd_per_million_tokens: NonNeg | None
    """Parts over the lifetime plus electricity, per million tokens at the aggregate rate
    and the settings' utilization; ``None`` when the parts total is unknown."""
    electricity_usd_per_million_tokens: NonNeg | None
    lifetime_years: Annotated[int, Field(ge=1)]
    break_even_months: NonNeg | None = None
    """Months until the parts cost less than buying the same tokens from an API at the
    settings' price (``None``: no API price set, unknown parts, or never)."""


class InferenceResult(Frozen):
    memory: InferenceMemory
    speed: InferenceSpeed
    cost: InferenceCost | None = None
    engine_basis: str = ""
    """What the engine's constants were fitted on, in a user's words."""
    launch_command: str | None = None
    """The engine command line the plan assumes (``core.calc.inference.launch``)."""
    offloaded_to_fit: dict[str, float] = {}
    """What ``offload_to_fit`` kept in host RAM on this machine: ``n_cpu_moe`` layers or
    ``offload_gib`` (empty when everything fits on the GPUs)."""
