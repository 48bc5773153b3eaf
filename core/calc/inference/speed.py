"""Prefill, time to first token and generation speed of a decoder LLM on a build.

**Decode** (one step makes one token for each of S streams) is memory-bound: it reads the
active weights once and each stream's KV cache at its context, over the achievable
bandwidth, plus a fixed cost per layer (kernel launches) and per step; when S is large
the products become compute-bound (Pope et al. 2022 §2; Kwon et al. 2023, vLLM §2.2).
Achievable bandwidth is the DRAM peak times an efficiency, and at most what the GPU's
streaming multiprocessors keep in flight (Little's law: bytes in flight per SM over the
memory latency), so a card with few SMs for its bandwidth cannot use all of it.

**Prefill** of P tokens is compute-bound: its FLOPs (``model.LlmShape.prefill_flops``)
at the format's tensor rate times an efficiency, plus one read of the weights per
micro-batch.

**Several GPUs.** ``layer``: the layers run in sequence on the cards, so one stream sees
one card's bandwidth over the whole model plus a hop per card boundary; prompts longer
than one micro-batch pipeline over the cards (llama.cpp's pipeline parallelism: k
micro-batches take (k + N − 1) stage times). ``tensor``: every card reads 1/N of every
layer at once, and each layer ends with the engine's collective operations on the hidden
state over the build's link (NVLink, PCIe peer-to-peer, or through host memory when the
driver blocks peer-to-peer), a latency plus bytes over the link's bandwidth: two
all-reduces of 16-bit values for Megatron-style engines, more and wider transfers for
llama.cpp's row split (``EngineConstants.tensor_syncs_per_layer``).

**Offload**: weights kept in host RAM are read by the CPU at the host DRAM bandwidth
(channels × transfer rate × 8 bytes, times a fitted efficiency), and copied over PCIe for
each prompt micro-batch (llama.cpp moves host weights to the GPU for batches of 32 tokens
or more). MoE experts kept on the host (``--n-cpu-moe``) cost only the experts the step's
tokens touch, read by the CPU, and the CPU's multiply-adds on them
(``CPU_GFLOPS_PER_CORE``).

**MoE prompts**: a micro-batch of U tokens gives each of E experts about U × k / E rows,
too few to run its products at the dense rate: the experts' share of the FLOPs runs at
m / (m + ``moe_half_rows``) of it, m the rows per expert.

**Speculative decoding** (Leviathan et al. 2023, "Fast Inference from Transformers via
Speculative Decoding", Eq. 1): with K drafted tokens each accepted with probability α, one
verify step of K + 1 tokens yields (1 − α^(K+1)) / (1 − α) tokens on average; a round
costs K draft steps (a draft model's decode step; an MTP head one layer of the target
plus its output head; n-gram lookup nothing on the GPU) plus the verify step, which reads
the weights once and multiplies K + 1 tokens, each extra token costing
``verify_token_share`` of a plain step (the engine's small-batch kernels). llama.cpp
stops drafting once the draft is unsure (``--draft-p-min``), so it drafts about as many
tokens as get accepted, plus one.

**Many streams** (continuous batching): at most ``min(streams, KV-cache capacity)``
run at once, the rest queue; each request's prompt is processed
between decode steps, so the server's output rate is R / (step(R) + R × prefill / L) for
R running streams that each generate L tokens; time to first token adds the wait for a
free slot (Little's law: response time = users / request rate).

**Time to first token**: the prompt's pass gives the first token's logits, so an idle engine
spends the prefill and the step's fixed cost (sampling, host round trip); among running
streams a new request also waits for the decode step under way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.calc.inference.constants import (
    FITTED,
    SPECULATIVE_DEFAULTS,
    EngineConstants,
    InferenceConstants,
)
from core.calc.inference.formats import FORMATS, matmul_tflops, native
from core.calc.inference.model import LlmShape
from core.calc.sms import sm_count
from core.models.inference import Bottleneck, CurvePoint, InferenceSpeed
from core.models.parts import GPU
from core.models.workload import Serving, WeightsFormat, Workload

CPU_GFLOPS_PER_CORE = 50.0
"""Multiply-adds a desktop/server core sustains on quantised expert weights, GFLOP/s
(AVX2/AVX-512 integer dot products at ~3-4 GHz: 16-32 int8 multiply-adds per cycle,
about half reached in llama.cpp's CPU kernels). An assumption, stated in
docs/inference-model.md; it binds only for batched MoE steps with experts on the host."""
ASSUMED_CPU_CORES = 8
"""Cores assumed where a machine's CPU is not known (``rigforge predict --gpu``)."""


def sustained_clock_share(gpu: GPU) -> float:
    """Base over boost clock (1 when either is not sourced)."""
    if not gpu.base_clock_mhz or not gpu.boost_clock_mhz:
        return 1.0
    return min(1.0, gpu.base_clock_mhz / gpu.boost_clock_mhz)


@dataclass(frozen=True)
class Link:
    """What joins the GPUs for a tensor split: kind and GB/s per direction
    (``core.calc.rig.serving_link``)."""

    kind: str
    gb_s: float
    latency_s: float = 0.0
    """A network between machines: one message's latency (a PCIe or NVLink hop's is in
    the engine's ``hop_s``)."""


def achievable_gb_s(gpu: GPU, c: EngineConstants) -> float:
    peak = c.bandwidth_efficiency * gpu.memory_bandwidth_gb_s
    sms = sm_count(gpu)
    if sms is None:
        return peak
    return min(peak, c.per_sm_gb_s * sms)


def inference_speed(
    workload: Workload,
    serving: Serving,
    gpu: GPU,
    gpu_count: int,
    *,
    link: Link,
    host_gb_s: float,
    pcie_gb_s: float,
    cpu_cores: int | None = None,
    max_streams: int = 0,
    constants: InferenceConstants = FITTED,
    curves: bool = True,
    draft: Workload | None = None,
) -> InferenceSpeed:
    """``draft``: the draft model of ``serving.speculative == "draft"`` (``None``: a
    model about a tenth of the target's size, llama.cpp's usual pairing)."""
    shape = LlmShape.of(workload.architecture, serving.engine)
    c = constants.engine(serving.engine, gpu.vendor, serving.backend, serving.engine_build)
    args = (serving, gpu, gpu_count, link, host_gb_s, pcie_gb_s, cpu_cores, c, constants)
    model = _Model(shape, *args)
    spec = _Speculation.of(serving, model, draft, args)
    prefill_s = model.prefill_seconds(serving.prompt_len)
    mid = serving.prompt_len + serving.gen_len / 2.0
    limit = _running_limit(max_streams)
    running = min(serving.streams, limit)
    step, parts, compute_share = spec.step(mid, running)
    # The prompt's pass ends with the first token's logits: on an idle engine the first
    # token costs the prefill and the step's fixed cost (sampling, host round trip); among
    # running streams it also waits for the decode step under way.
    first = c.token_overhead_s
    if running > 1:
        first = spec.step(float(serving.prompt_len), running)[0]
    per_request = model.prefill_seconds(serving.prompt_len, amortised=running > 1)
    aggregate = _served(running, step, per_request, serving.gen_len)
    # all the running streams' prompts in one batch: the weights are read once
    together = prefill_s + (running - 1) * per_request + c.token_overhead_s
    ttft = prefill_s + first
    if serving.streams > running:
        # the rest wait for a slot: response time = users / request rate (Little's law)
        rate = aggregate / serving.gen_len
        service = prefill_s + serving.gen_len * step
        ttft += max(0.0, serving.streams / rate - service)
    result = InferenceSpeed(
        prefill_tokens_s=serving.prompt_len / prefill_s if prefill_s > 0 else 0.0,
        ttft_s=ttft,
        ttft_together_s=together,
        decode_tokens_s_per_stream=1.0 / step,
        aggregate_decode_tokens_s=aggregate,
        streams=serving.streams,
        running_streams=running,
        max_streams=max_streams,
        bottleneck=_bottleneck(parts),
        step_ms={k: v * 1e3 for k, v in parts.items()},
        speculative_speedup=spec.speedup(mid, running),
        decode_power_w=_power(gpu, gpu_count, _decode_fraction(constants, compute_share)),
        prefill_power_w=_power(gpu, gpu_count, constants.prefill_power_fraction),
    )
    if not curves:
        return result
    top = max(serving.context, 1024)
    contexts = sorted({int(top * k / 8) for k in range(9)} | {serving.context})
    by_context = tuple(
        CurvePoint(x=float(ctx), tokens_s=1.0 / spec.step(float(ctx), 1)[0]) for ctx in contexts
    )
    most = max(max_streams, serving.streams, 1)
    if limit < most:
        most = max(serving.streams, min(2 * limit, 4096))
    counts = sorted({1, 2, 4, 8, 16, 32, 64, 128, 256, 512, most, serving.streams, limit})
    points = []
    for s_ in counts:
        if s_ > most:
            continue
        r = min(s_, limit)
        t = spec.step(mid, r)[0]
        pre = model.prefill_seconds(serving.prompt_len, amortised=r > 1)
        points.append(CurvePoint(x=float(s_), tokens_s=_served(r, t, pre, serving.gen_len)))
    return result.model_copy(update={"by_context": by_context, "by_streams": tuple(points)})


def _running_limit(max_streams: int) -> int:
    """Streams that decode together: what the KV cache holds (``max_streams`` > 0; the
    launch command sets the engine's own limit, ``-np`` / ``--max-num-seqs``, to the
    streams asked for)."""
    return max(max_streams, 1) if max_streams > 0 else 1_000_000


def _served(running: int, step: float, prefill_s: float, gen_len: int) -> float:
    """Output tokens/s of ``running`` streams with each request's prompt interleaved."""
    return running / (step + running * prefill_s / gen_len)


def _decode_fraction(constants: InferenceConstants, compute_share: float) -> float:
    """GPU draw while generating: the memory-bound draw, rising toward the prompt's full
    draw with the share of the step the tensor cores are busy (speculative verify steps,
    large batches)."""
    low, high = constants.decode_power_fraction, constants.prefill_power_fraction
    return low + (high - low) * min(max(compute_share, 0.0), 1.0)


class _Speculation:
    """Decode steps with or without speculation: seconds per generated token."""

    def __init__(
        self, model: _Model, tokens: int, alpha: float, draft_s: Callable[[float, int], float]
    ) -> None:
        self.model, self.k, self.alpha, self.draft_s = model, tokens, alpha, draft_s

    @classmethod
    def of(
        cls, serving: Serving, model: _Model, draft: Workload | None, args: tuple[Any, ...]
    ) -> _Speculation:
        if serving.speculative == "none":
            return cls(model, 0, 0.0, lambda ctx, s: 0.0)
        defaults = SPECULATIVE_DEFAULTS[serving.speculative]
        k = serving.draft_tokens or defaults.draft_tokens
        alpha = serving.acceptance if serving.acceptance is not None else defaults.acceptance
        if serving.speculative == "draft":
            shape = (
                LlmShape.of(draft.architecture, serving.engine)
                if draft is not None
                else model.shape.scaled(DRAFT_SIZE_SHARE)
            )
            plain = serving.model_copy(
                update={"speculative": "none", "n_cpu_moe": 0, "offload_gib": 0.0}
            )
            drafter = _Model(shape, plain, *args[1:])
            return cls(model, k, alpha, lambda ctx, s: drafter.decode_step(ctx, s)[0])
        if serving.speculative == "mtp":
            # each drafted token runs the MTP module (one transformer layer) and the
            # shared output head: that share of a step's weights
            shape = model.shape
            head = float(shape.vocab * shape.hidden)
            share = 1.0 / shape.layers + head / max(shape.params_active, head)
            return cls(model, k, alpha, lambda ctx, s: model.decode_step(ctx, s)[0] * share)
        return cls(model, k, alpha, lambda ctx, s: 0.0)

    def drafted(self) -> float:
        """Tokens drafted per round: all K (vLLM, MTP), or about the accepted run plus
        one where the engine stops at an unsure draft (llama.cpp's ``--draft-p-min``)."""
        if self.model.serving.engine == "llama.cpp" and self.model.serving.speculative == "draft":
            return min(float(self.k), self.accepted_of(float(self.k)) + 1.0)
        return float(self.k)

    def step(self, context: float, streams: int) -> tuple[float, dict[str, float], float]:
        """Seconds per generated token of each stream, the parts of a step, and the
        share of the step the GPU computes."""
        if not self.k:
            step, parts = self.model.decode_step(context, streams)
            busy = parts.pop("compute_busy")
            return step, parts, busy / step
        drafted = self.drafted()
        verify, parts = self.model.decode_step(context, streams, 1 + round(drafted))
        busy = parts.pop("compute_busy")
        draft = drafted * self.draft_s(context, streams)
        per_round = 1.0 + self.accepted_of(drafted)
        seconds = (verify + draft) / per_round
        scaled = {k: v / per_round for k, v in parts.items()}
        scaled["draft"] = draft / per_round
        return seconds, scaled, busy / (verify + draft)

    def accepted_of(self, drafted: float) -> float:
        """Drafted tokens accepted per round on average: α(1 − α^K) / (1 − α)."""
        a = self.alpha
        return a * (1.0 - a**drafted) / (1.0 - a) if a < 1.0 else drafted

    def speedup(self, context: float, streams: int) -> float | None:
        if not self.k:
            return None
        plain = self.model.decode_step(context, streams)[0]
        return plain / self.step(context, streams)[0]


DRAFT_SIZE_SHARE = 0.1
"""A draft model is typically about a tenth of its target (Llama 3.2 1B for 8B, 3B or 1B
for 70B; Qwen3 0.6-1.7B for 8-32B) where none is named."""


def _power(gpu: GPU, count: int, fraction: float) -> float | None:
    return None if gpu.board_power_w is None else fraction * gpu.board_power_w * count


class _Model:
    def __init__(
        self,
        shape: LlmShape,
        serving: Serving,
        gpu: GPU,
        count: int,
        link: Link,
        host_gb_s: float,
        pcie_gb_s: float,
        cpu_cores: int | None,
        c: EngineConstants,
        constants: InferenceConstants,
    ) -> None:
        self.shape, self.serving, self.gpu, self.count = shape, serving, gpu, count
        self.link, self.c, self.constants = link, c, constants
        self.pcie = pcie_gb_s * 1e9
        self.bw = achievable_gb_s(gpu, c) * 1e9
        self.n_cpu_moe = serving.n_cpu_moe
        self.host_experts = shape.host_expert_bytes(serving.weights, serving.n_cpu_moe)
        on_gpu = shape.weight_bytes(serving.weights) - self.host_experts
        offload = serving.offload_gib * 2**30
        self.offload_share = min(offload / on_gpu, 1.0) if on_gpu > 0 else 0.0
        self.host_bytes = self.host_experts + self.offload_share * max(on_gpu, 0.0)
        self.host = host_gb_s * 1e9 * c.host_bandwidth_efficiency
        self.cpu_flops = (cpu_cores or ASSUMED_CPU_CORES) * CPU_GFLOPS_PER_CORE * 1e9
        self.tensor = serving.split == "tensor" and count > 1
        # weight bytes one token reads, to count the weights a step dequantises
        self.token_read = sum(shape.read_bytes(serving.weights, 1.0, 0))
        self.sustained = math.pow(sustained_clock_share(gpu), constants.clock_exponent)

    def decode_step(
        self, context: float, streams: int, tokens_per_stream: int = 1
    ) -> tuple[float, dict[str, float]]:
        """One step that decodes ``tokens_per_stream`` tokens of each of ``streams``
        streams (more than one: a speculative verify); ``parts["compute_busy"]`` is the
        time the GPU's products take (leaves the step's parts before display)."""
        s, c = self.shape, self.c
        tokens = float(streams * tokens_per_stream)
        gpu_read, host_read = s.read_bytes(self.serving.weights, tokens, self.n_cpu_moe)
        on_gpu = gpu_read * (1.0 - self.offload_share)
        kv = streams * s.kv_read_bytes(context, self.serving.kv_cache)
        # unfused attention (and some fused kernels, one block per query head) re-read
        # each KV head for the query heads sharing it
        reread = c.gqa_reread_share if self.serving.flash_attention else c.kv_reread_share
        kv *= 1.0 + (s.query_heads_per_kv_head() - 1.0) * reread
        ways = self.count if self.tensor else 1
        t_weights = on_gpu / (self.bw * ways)
        t_kv = kv / (self.bw * ways)
        host_params = s.host_active_params(self.n_cpu_moe)
        flops = tokens * (s.decode_flops(context) - 2.0 * host_params)
        rate = matmul_tflops(self.gpu, self.serving.weights, fp16_accumulate=c.fp16_accumulate)
        rate *= 1e12 * c.prefill_efficiency
        t_compute = flops / (rate * ways)
        t_overhead = s.layers * c.layer_overhead_s + c.token_overhead_s
        t_links = 0.0
        if self.tensor:
            message = tokens * s.hidden * c.tensor_message_bytes
            t_links = c.tensor_syncs_per_layer * s.layers * self._allreduce(message)
        elif self.count > 1:
            t_links = (self.count - 1) * c.hop_s
            if self.link.kind == "network":  # each boundary sends the step's activations
                message = tokens * s.hidden * 2.0
                t_links += (self.count - 1) * (
                    self.link.latency_s + message / (self.link.gb_s * 1e9)
                )
        host_bytes = host_read + gpu_read * self.offload_share
        t_host = 0.0
        if host_bytes:
            cpu = tokens * 2.0 * (host_params + s.params_active * self.offload_share)
            t_host = max(host_bytes / self.host, cpu / self.cpu_flops)
        t_dequant = 0.0
        if FORMATS[self.serving.weights].family == "ggml" and self.gpu.fp32_tflops:
            read = self.token_read
            quantised = s.params_active * on_gpu / read if read else 0.0
            t_dequant = quantised * c.dequant_ops_per_weight / (self.gpu.fp32_tflops * 1e12)
            t_dequant /= ways
        memory = t_weights + t_kv + t_dequant
        if tokens_per_stream > 1:
            # a verify step runs the small-batch kernels, slower per token than the
            # single-token path: each extra token costs a share of the memory-bound step
            memory += (tokens_per_stream - 1) * c.verify_token_share * memory
        step = max(memory, t_compute) + t_overhead + t_links + t_host
        parts = {
            "weights": t_weights + t_dequant,
            "kv_cache": t_kv,
            "compute": max(0.0, t_compute - memory),
            "overhead": t_overhead,
            "links": t_links,
            "host": t_host,
            "compute_busy": t_compute,
        }
        return step, parts

    def _allreduce(self, message: float) -> float:
        n = self.count
        latency = max(
            self.constants.allreduce_latency_s.get(self.link.kind, 30e-6), self.c.tensor_sync_s
        )
        return 2.0 * (n - 1) / n * message / (self.link.gb_s * 1e9) + latency * 2 * (n - 1) / n

    def prefill_seconds(self, prompt: int, *, amortised: bool = False) -> float:
        """A format the GPU has no tensor cores for is dequantised to 16 bit for the
        prompt's products, so its prompt is never faster than the 16-bit weights' (its
        smaller reads do not make up for the unpacking). ``amortised``: one prompt among
        many a server batches together, sharing their weight reads and copies."""
        weights = self.serving.weights
        fmt = FORMATS[weights]
        seconds = self._prefill_seconds(prompt, weights, amortised)
        if fmt.bits < 16 and not (fmt.compute != "fp16" and native(self.gpu, fmt.compute)):
            seconds = max(seconds, self._prefill_seconds(prompt, "f16", amortised))
        return seconds

    def _prefill_seconds(self, prompt: int, format_: WeightsFormat, amortised: bool) -> float:
        s, c, serving = self.shape, self.c, self.serving
        quant = FORMATS[format_].family != "float"
        efficiency = c.prefill_quant_efficiency if quant else c.prefill_efficiency
        rate = matmul_tflops(self.gpu, format_, fp16_accumulate=c.fp16_accumulate)
        rate *= 1e12 * efficiency * self.sustained
        batches = max(1, math.ceil(prompt / c.ubatch))
        flops = s.prefill_flops(prompt)
        if s.experts:
            # few rows per expert in a micro-batch: the experts' products run below the
            # dense rate
            rows = min(prompt, c.ubatch) * s.top_k / s.experts
            expert = 2.0 * s.expert_active_params * prompt
            flops += expert * c.moe_half_rows / max(rows, 1e-9)
        compute = flops / rate
        # A micro-batch of hundreds of tokens routes to nearly every expert: it reads all
        # the weights once (a dense model: the same as one token's read).
        # the GPU reads its own weights (in the format its kernels use); the host's are
        # copied in the format they are stored in (ggml copies the quantised blocks)
        weights = s.weight_bytes(format_)
        on_gpu = s.weight_bytes(serving.weights) - self.host_bytes
        share = on_gpu / max(s.weight_bytes(serving.weights), 1.0)
        reads = batches * weights * share / self.bw
        copies = batches * self.host_bytes / self.pcie
        if amortised:
            reads = copies = 0.0
        overhead = batches * s.layers * c.layer_overhead_s
        passes = 0.0 if serving.flash_attention else c.attention_matrix_passes
        scores = passes * 4.0 * s.attention_matrix_elements(prompt) / self.bw
        work = compute + reads + overhead + scores
        if self.tensor:
            message = prompt * s.hidden * c.tensor_message_bytes / batches
            per_layer = c.tensor_syncs_per_layer * self._allreduce(message)
            return work / self.count + batches * s.layers * per_layer + copies
        if self.count > 1:
            # Pipeline over the cards within each logical batch of ``pipeline_depth``
            # micro-batches (llama.cpp: n_batch 2048 / n_ubatch 512): k micro-batches take
            # (k + N − 1) stages of 1/N of a micro-batch, plus a hop per boundary.
            stage = work / batches / self.count
            left, stages = batches, 0
            while left > 0:
                k = min(left, c.pipeline_depth)
                stages += k + self.count - 1
                left -= k
            hop_bytes = prompt / batches * s.hidden * 2.0
            if self.link.kind == "network":
                per_hop = c.hop_s + self.link.latency_s + hop_bytes / (self.link.gb_s * 1e9)
            else:
                per_hop = c.hop_s + hop_bytes / self.pcie
            hops = batches * (self.count - 1) * per_hop
            return stages * stage + hops + copies
        return work + copies


def _bottleneck(parts: dict[str, float]) -> Bottleneck:
    names: dict[str, Bottleneck] = {
        "weights": "weights_bandwidth",
        "kv_cache": "kv_cache_bandwidth",
        "compute": "compute",
        "overhead": "per_token_overhead",
        "links": "gpu_links",
        "host": "host_memory",
    }
    return names[max((k for k in parts if k in names), key=lambda k: parts[k])]
