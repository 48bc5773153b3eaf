"""Inputs and results of the build optimizer (``core.calc.suggest.search``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from core.models.build import Build
from core.models.checks import Number, Verdict
from core.models.common import Frozen, NonEmptyStr, PartId
from core.models.settings import CircuitId
from core.models.workload import Workload

PlatformFamily = Literal["any", "consumer", "workstation", "server"]
MAX_BUDGET_USD = 100_000_000
MAX_SUGGEST_GPUS = 8
"""Limits of a search, shared by the command line and the Suggest tab's editors."""


class SuggestRequest(Frozen):
    budget_usd: Annotated[float, Field(gt=0, le=MAX_BUDGET_USD)]
    max_gpus: Annotated[int, Field(ge=1, le=MAX_SUGGEST_GPUS)] = MAX_SUGGEST_GPUS
    circuit: CircuitId | None = None
    """Wall circuit the build must stay within; ``None`` uses the settings' circuit."""
    max_wall_w: Annotated[float, Field(gt=0)] | None = None
    platform: PlatformFamily = "any"
    """CPU segment to search (consumer desktop, workstation, server)."""
    require_vram_fit: bool = True
    max_psus: Annotated[int, Field(ge=1, le=4)] = 2
    drive_id: PartId | None = None
    """Drive every suggestion gets; ``None`` picks the cheapest priced NVMe M.2 drive."""
    front_size: Annotated[int, Field(ge=1, le=100)] = 12
    """Most Pareto builds returned (spread evenly over the front)."""
    allow_used: bool = False
    """Also consider GPUs at their dated used price (the build then names them as used)."""
    min_decode_tokens_s: Annotated[float, Field(gt=0, le=1e6)] | None = None
    """Serving: generation speed every stream must reach, tokens/s."""
    max_ttft_s: Annotated[float, Field(gt=0, le=1e6)] | None = None
    """Serving: longest time to first token allowed, seconds."""
    smaller_kv_cache: bool = True
    """Serving: where the 16-bit KV cache asked for does not fit, try the engine's 8-bit one
    (llama.cpp q8_0 with flash attention, FP8 elsewhere) before keeping a mixture-of-experts
    model's experts in host RAM (the suggestion says so); off when the request names its
    KV cache."""
    allow_checkpointing: bool = True
    """For training, try selective then full activation checkpointing when the workload as
    given does not fit in VRAM (the suggestion says so)."""


class Reason(Frozen):
    """Why a suggestion wins: a code ``core.text.cost`` renders with its numbers."""

    code: NonEmptyStr
    numbers: dict[str, Number] = {}


class Suggestion(Frozen):
    build: Build
    cost_usd: float
    throughput: float
    unit: str
    usd_per_unit: float
    wall_w: float
    verdict: Verdict
    """Worst severity of the full analysis' checks (never "fail" on the returned front)."""
    warnings: tuple[str, ...] = ()
    """Ids of checks that warn."""
    reasons: tuple[Reason, ...] = ()
    workload: Workload | None = None
    """The workload as this build runs it: the request's with checkpointing switched on
    when that is what makes it fit."""


class SkipCounts(Frozen):
    """Configurations left out before the full model, by cause."""

    unpriced: int = 0
    over_budget: int = 0
    vram: int = 0
    power: int = 0
    impossible: int = 0
    """GPU count the workload or the board cannot take."""
    failed_checks: int = 0
    unknown_fit: int = 0
    """A part whose physical facts no source gives (GPU cooler, length or width; a board's
    slot positions for more than one GPU): never "check the manual" in a suggestion."""
    precision: int = 0
    """A GPU whose architecture lacks the workload's number format (bf16, fp8)."""
    too_slow: int = 0
    """Serving: slower per stream than the request's minimum, or a longer time to first
    token than its maximum."""
    cooling: int = 0
    """Open-air cards packed without a free slot between them, or three and more of them."""


class SystemPick(Frozen):
    """A prebuilt system that serves the request within the budget, or holds a LoRA/QLoRA
    fine-tuning whose speed on it is not estimated (``suggest``)."""

    system_id: str
    name: str
    price_usd: float
    price_as_of: str
    price_stale: bool
    decode_tokens_s: float | None = None
    """Serving: generation per stream (``None`` for a fine-tuning pick)."""
    ttft_s: float | None = None
    aggregate_tokens_s: float | None = None
    usd_per_million_tokens: float | None = None
    memory_gib: float | None = None
    """Fine-tuning: the memory it needs of the most the system's GPU can be given."""
    gpu_gib: float | None = None


class SuggestResult(Frozen):
    front: tuple[Suggestion, ...]
    """Pareto front of cost vs throughput, cheapest first."""
    best: Suggestion | None
    """Lowest cost per unit of throughput."""
    considered: int
    """Configurations searched: GPU (new, or used) × count × CPU-board platform × mounting
    (in a case, or on an open frame with risers). Each gets the cheapest memory, case and
    PSU that fit it: dearer ones cost more for the same throughput."""
    evaluated: int
    """(Configuration, PSU option) pairs whose power was checked."""
    skipped: SkipCounts
    unpriced_part_ids: tuple[PartId, ...] = ()
    """Parts without a price that made configurations unrankable."""
    unknown_fit_part_ids: tuple[PartId, ...] = ()
    """Parts left out because no source gives a physical fact a suggestion needs."""
    drive_id: PartId | None = None
    cancelled: bool = False
    systems: tuple[SystemPick, ...] = ()
    """Serving: prebuilt unified-memory systems that meet the request within the budget,
    fastest first (one system each; a linked pair's cable is not priced)."""
    fastest_too_slow: dict[str, float | str] | None = None
    """Serving with no build on the front for speed: the fastest configuration within
    budget that missed ``min_decode_tokens_s`` or ``max_ttft_s`` (gpu, count,
    decode_tokens_s, ttft_s), so the user sees how far the request is."""
