"""GPU and host memory of serving a decoder LLM, and the fixes that make it fit.

Per GPU (the fullest one): its share of the weights (layer split: its layers; tensor
split: its slice of every layer; the two divide the same total over identical cards),
its share of the KV cache of every stream at the full context, and the engine's own
memory (CUDA context, compute buffers, CUDA graphs: ``constants``). Engines that claim a
share of the GPU at start (vLLM's ``gpu_memory_utilization``, 0.9 by default; SGLang's
``mem_fraction_static``) must fit in that share. Weights offloaded to host RAM leave the
GPUs; host RAM holds them plus the process's own working set. Several GPUs always split
the model: never one copy per card.
"""

from __future__ import annotations

import math

from core.calc.inference.constants import FITTED, EngineConstants, InferenceConstants
from core.calc.inference.formats import FORMATS, LOWER_PRECISION
from core.calc.inference.model import GIB, LlmShape
from core.models.checks import BuildField, Fix, FixValue, WorkloadField
from core.models.inference import InferenceMemory
from core.models.workload import ENGINE_WEIGHTS, Serving, Workload

HOST_WORKING_GIB = 2.0
"""Host RAM of the serving process besides offloaded weights (runtime, tokenizer, pinned
staging buffers): llama.cpp memory-maps the weights, so they are not copied to the host."""


def engine_gib(shape: LlmShape, serving: Serving, c: EngineConstants, gpu_count: int = 1) -> float:
    """Engine memory per GPU: context + graphs + the prefill micro-batch's buffers
    (hidden-sized fp32 activations of its tokens) + fp32 logits of one token per stream
    (engines compute logits only for the tokens they sample from) + for engines without
    fused attention the fp32 scores of the micro-batch against the whole context, every
    head at once (llama.cpp without flash attention: 512 tokens × 8,192 × 32 heads × 4 B
    = 512 MiB of the 560 MiB compute buffer it logs for Llama 3 8B; 1,024 of 1,216 MiB
    for 70B; llm_engine_overheads.csv). A tensor split divides the heads. Flash attention
    keeps the scores on chip: none of that buffer."""
    tokens = min(c.ubatch, serving.prompt_len)
    buffers = tokens * 16.0 * shape.hidden + serving.streams * 4.0 * shape.vocab
    if c.attention_matrix_passes > 0 and not serving.flash_attention:
        heads = shape.heads / (gpu_count if serving.split == "tensor" else 1)
        buffers += tokens * serving.context * heads * 4.0
    return c.context_gib + c.graphs_gib + buffers / GIB


def inference_memory(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    gpu_count: int,
    constants: InferenceConstants = FITTED,
    *,
    with_fixes: bool = True,
) -> InferenceMemory:
    shape = LlmShape.of(workload.architecture, serving.engine)
    c = constants.engines[serving.engine]
    weights = shape.weight_bytes(serving.weights) / GIB
    experts = shape.host_expert_bytes(serving.weights, serving.n_cpu_moe) / GIB
    offloaded = min(serving.offload_gib, weights - experts) + experts
    per_gpu_weights = (weights - offloaded) / gpu_count
    kv_stream = shape.kv_bytes(serving.context, serving.kv_cache) / GIB / gpu_count
    kv = kv_stream * serving.streams
    engine = engine_gib(shape, serving, c, gpu_count)
    total = per_gpu_weights + kv + engine
    usable = capacity_gib * (c.reserve_fraction or 1.0)
    fits = total <= usable
    room = usable - per_gpu_weights - engine
    max_streams = max(0, math.floor(room / kv_stream)) if kv_stream > 0 else 0
    result = InferenceMemory(
        weights_gib=per_gpu_weights,
        kv_cache_gib=kv,
        engine_gib=engine,
        total_gib=total,
        capacity_gib=capacity_gib,
        usable_gib=usable,
        fits=fits,
        gpu_count=gpu_count,
        host_ram_gib=offloaded + HOST_WORKING_GIB,
        offloaded_gib=offloaded,
        kv_per_stream_gib=kv_stream,
        max_streams=min(max_streams, 100_000),
    )
    if fits or not with_fixes:
        return result
    return result.model_copy(
        update={"fixes": memory_fixes(workload, serving, capacity_gib, gpu_count, constants)}
    )


def smaller_kv(serving: Serving) -> Serving:
    """``serving`` with its engine's 8-bit KV cache: llama.cpp's q8_0 (it quantises the V
    cache only with flash attention on, so that goes on too), FP8 on the other engines."""
    if serving.engine == "llama.cpp":
        return serving.model_copy(update={"kv_cache": "q8_0", "flash_attention": True})
    return serving.model_copy(update={"kv_cache": "fp8"})


def memory_fixes(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    gpu_count: int,
    constants: InferenceConstants = FITTED,
    *,
    gpu_options: tuple[int, ...] = (),
) -> tuple[Fix, ...]:
    """Changes that fit, each possibly combining a smaller format, a split over more GPUs,
    an FP8 KV cache, flash attention (llama.cpp with it off: no score matrix in the compute
    buffer), fewer streams and offload, least disruptive first.

    Cost order: keep the weights' format if any change fits without it; then the
    highest-precision format that fits; changes on the GPUs the build has before any
    that needs more (``gpu_options`` above ``gpu_count``: a purchase), at most two of each
    so both kinds are offered; offload last (it is slow).
    """
    formats = [serving.weights] + [
        f
        for f in LOWER_PRECISION
        if FORMATS[f].bits < FORMATS[serving.weights].bits and f in ENGINE_WEIGHTS[serving.engine]
    ]
    counts = sorted({gpu_count, *gpu_options})
    # Turning llama.cpp's flash attention on costs nothing (it is also faster).
    attention = (True,) if serving.flash_attention else (False, True)
    fixes: list[tuple[tuple[float, ...], Fix]] = []
    for rank, fmt in enumerate(formats):
        for count in counts:
            best: tuple[tuple[float, ...], Fix] | None = None
            for fa in attention:
                base = serving.model_copy(update={"weights": fmt, "flash_attention": fa})
                for candidate in (base, smaller_kv(base)):
                    kv, fa_kv = candidate.kv_cache, candidate.flash_attention
                    memory = inference_memory(
                        workload, candidate, capacity_gib, count, constants, with_fixes=False
                    )
                    if memory.fits:  # a smaller KV cache only when the weights alone do not
                        # Another GPU costs more than a step down in format (a purchase).
                        cost = (
                            float(count > gpu_count),
                            rank
                            + 4.0 * abs(count - gpu_count)
                            + 0.5 * (kv != serving.kv_cache)
                            + 0.25 * (fa_kv != serving.flash_attention),
                        )
                        if best is None or cost < best[0]:
                            best = (cost, _fix(serving, candidate, count, gpu_count, memory))
                        break
            if best is not None:
                fixes.append(best)
    if not fixes or not any(order[0] == 0.0 for order, _ in fixes):
        fixes += _experts_fix(workload, serving, capacity_gib, gpu_count, constants)
    if not fixes:
        fixes += _offload_fix(workload, serving, capacity_gib, gpu_count, constants)
        if serving.streams > 1:
            fewer = _fewer_streams(workload, serving, capacity_gib, gpu_count, constants)
            if fewer is not None:
                fixes.append(((2.0, 9.0), fewer))
    fixes.sort(key=lambda item: item[0])
    seen: set[tuple[object, ...]] = set()
    kept: list[tuple[tuple[float, ...], Fix]] = []
    for order, fix in fixes:
        key = tuple(sorted(fix.workload.items())) + tuple(sorted(fix.build.items()))
        if key not in seen:
            seen.add(key)
            kept.append((order, fix))
    # two of each kind first (on these GPUs, with more GPUs, offload), then the rest
    first = [
        item for i, item in enumerate(kept) if sum(k[0][0] == item[0][0] for k in kept[:i]) < 2
    ]
    rest = [item for item in kept if item not in first]
    return tuple(fix for _cost, fix in (first + rest)[:4])


def _fix(
    serving: Serving, candidate: Serving, count: int, current: int, memory: InferenceMemory
) -> Fix:
    changes: dict[WorkloadField, FixValue] = {}
    parts: list[str] = []
    if candidate.weights != serving.weights:
        changes["serving.weights"] = candidate.weights
        parts.append(f"{candidate.weights} weights")
    if candidate.kv_cache != serving.kv_cache:
        changes["serving.kv_cache"] = candidate.kv_cache
        parts.append(f"{candidate.kv_cache} KV cache")
    if candidate.flash_attention != serving.flash_attention:
        changes["serving.flash_attention"] = candidate.flash_attention
        parts.append("flash attention on")
    build: dict[BuildField, FixValue] = {}
    if count != current:
        build["gpu_count"] = count
    if count > 1:
        parts.append(f"{candidate.split} split over {count} GPUs")
    return Fix(
        code="serve_smaller",
        workload=changes,
        build=build,
        numbers={
            "changes": " + ".join(parts) or "as it is",
            "total_gib": round(memory.total_gib, 1),
            "usable_gib": round(memory.usable_gib, 1),
            "max_streams": memory.max_streams,
        },
    )


def experts_to_fit(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    gpu_count: int,
    constants: InferenceConstants = FITTED,
) -> int | None:
    """The fewest layers whose experts go to host RAM (``--n-cpu-moe``) for ``serving``
    to fit, or ``None`` (not an MoE model, not llama.cpp, or not even all of them)."""
    shape = LlmShape.of(workload.architecture, serving.engine)
    if not shape.experts or serving.engine != "llama.cpp":
        return None

    def fits(n: int) -> bool:
        candidate = serving.model_copy(update={"n_cpu_moe": n})
        return inference_memory(
            workload, candidate, capacity_gib, gpu_count, constants, with_fixes=False
        ).fits

    low, high = serving.n_cpu_moe, shape.layers
    if not fits(high):
        return None
    while low < high:  # fits(high) holds; find the smallest
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle + 1
    return high


def _experts_fix(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    gpu_count: int,
    constants: InferenceConstants,
) -> list[tuple[tuple[float, ...], Fix]]:
    n = experts_to_fit(workload, serving, capacity_gib, gpu_count, constants)
    if n is None or n == serving.n_cpu_moe:
        return []
    candidate = serving.model_copy(update={"n_cpu_moe": n})
    memory = inference_memory(
        workload, candidate, capacity_gib, gpu_count, constants, with_fixes=False
    )
    return [
        (
            (1.0, 7.0),
            Fix(
                code="serve_experts_to_ram",
                workload={"serving.n_cpu_moe": n},
                numbers={
                    "n_cpu_moe": n,
                    "experts_gib": round(memory.offloaded_gib, 1),
                    "total_gib": round(memory.total_gib, 1),
                    "host_ram_gib": round(memory.host_ram_gib, 1),
                },
            ),
        )
    ]


def _offload_fix(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    gpu_count: int,
    constants: InferenceConstants,
) -> list[tuple[tuple[float, ...], Fix]]:
    lowest = LOWER_PRECISION[-2]  # q4_k_m
    candidate = serving.model_copy(update={"weights": lowest, "offload_gib": 0.0})
    memory = inference_memory(
        workload, candidate, capacity_gib, gpu_count, constants, with_fixes=False
    )
    excess = memory.total_gib - memory.usable_gib
    if excess <= 0:
        return []
    offload = math.ceil((excess + 0.5) * gpu_count)
    candidate = candidate.model_copy(update={"offload_gib": float(offload)})
    memory = inference_memory(
        workload, candidate, capacity_gib, gpu_count, constants, with_fixes=False
    )
    if not memory.fits or memory.offloaded_gib <= 0:
        return []
    return [
        (
            (2.0, 8.0),
            Fix(
                code="serve_offload",
                workload={"serving.weights": lowest, "serving.offload_gib": float(offload)},
                numbers={
                    "weights": lowest,
                    "offload_gib": offload,
                    "total_gib": round(memory.total_gib, 1),
                    "host_ram_gib": round(memory.host_ram_gib, 1),
                },
            ),
        )
    ]


def _fewer_streams(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    gpu_count: int,
    constants: InferenceConstants,
) -> Fix | None:
    one = serving.model_copy(update={"streams": 1})
    memory = inference_memory(workload, one, capacity_gib, gpu_count, constants, with_fixes=False)
    if not memory.fits or memory.max_streams < 1:
        return None
    streams = min(memory.max_streams, serving.streams - 1)
    return Fix(
        code="serve_fewer_streams",
        workload={"serving.streams": streams},
        numbers={"streams": streams, "context": serving.context},
    )
