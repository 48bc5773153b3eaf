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
layer at once, and each layer ends with two all-reduces of the hidden state over the
build's link (NVLink, PCIe peer-to-peer, or through host memory when the driver blocks
peer-to-peer), a latency plus bytes over the link's bandwidth.

**Offload**: weights kept in host RAM are read by the CPU at the host DRAM bandwidth
(channels × transfer rate × 8 bytes), and copied over PCIe for each prompt micro-batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.calc.inference.constants import FITTED, EngineConstants, InferenceConstants
from core.calc.inference.formats import FORMATS, matmul_tflops, native
from core.calc.inference.model import LlmShape
from core.calc.sms import sm_count
from core.models.inference import Bottleneck, CurvePoint, InferenceSpeed
from core.models.parts import GPU
from core.models.workload import Serving, WeightsFormat, Workload


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
    max_streams: int = 0,
    constants: InferenceConstants = FITTED,
    curves: bool = True,
) -> InferenceSpeed:
    shape = LlmShape.of(workload.architecture)
    c = constants.engine(serving.engine, gpu.vendor)
    model = _Model(shape, serving, gpu, gpu_count, link, host_gb_s, pcie_gb_s, c, constants)
    prefill_s = model.prefill_seconds(serving.prompt_len)
    mid = serving.prompt_len + serving.gen_len / 2.0
    step, parts = model.decode_step(mid, serving.streams)
    first, _ = model.decode_step(float(serving.prompt_len), serving.streams)
    result = InferenceSpeed(
        prefill_tokens_s=serving.prompt_len / prefill_s if prefill_s > 0 else 0.0,
        ttft_s=prefill_s + first,
        decode_tokens_s_per_stream=1.0 / step,
        aggregate_decode_tokens_s=serving.streams / step,
        streams=serving.streams,
        max_streams=max_streams,
        bottleneck=_bottleneck(parts),
        step_ms={k: v * 1e3 for k, v in parts.items()},
        decode_power_w=_power(gpu, gpu_count, constants.decode_power_fraction),
        prefill_power_w=_power(gpu, gpu_count, constants.prefill_power_fraction),
    )
    if not curves:
        return result
    top = max(serving.context, 1024)
    contexts = sorted({int(top * k / 8) for k in range(9)} | {serving.context})
    by_context = tuple(
        CurvePoint(x=float(ctx), tokens_s=1.0 / model.decode_step(float(ctx), 1)[0])
        for ctx in contexts
    )
    most = max(max_streams, serving.streams, 1)
    counts = sorted({1, 2, 4, 8, 16, 32, 64, 128, 256, most, serving.streams})
    by_streams = tuple(
        CurvePoint(x=float(s), tokens_s=s / model.decode_step(mid, s)[0])
        for s in counts
        if s <= most
    )
    return result.model_copy(update={"by_context": by_context, "by_streams": by_streams})


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
        c: EngineConstants,
        constants: InferenceConstants,
    ) -> None:
        self.shape, self.serving, self.gpu, self.count = shape, serving, gpu, count
        self.link, self.c, self.constants = link, c, constants
        self.pcie = pcie_gb_s * 1e9
        self.bw = achievable_gb_s(gpu, c) * 1e9
        total = shape.weight_bytes(serving.weights)
        self.offload_share = min(serving.offload_gib * 2**30 / total, 1.0) if total else 0.0
        self.host = host_gb_s * 1e9 * c.host_bandwidth_efficiency
        self.tensor = serving.split == "tensor" and count > 1
        self.sustained = math.pow(sustained_clock_share(gpu), constants.clock_exponent)

    def decode_step(self, context: float, streams: int) -> tuple[float, dict[str, float]]:
        s, c = self.shape, self.c
        weights = s.read_bytes_per_token(self.serving.weights)
        on_gpu = weights * (1.0 - self.offload_share)
        kv = streams * s.kv_read_bytes(context, self.serving.kv_cache)
        if not self.serving.flash_attention:
            # unfused attention re-reads each KV head for the query heads sharing it
            kv *= 1.0 + (s.query_heads_per_kv_head() - 1.0) * c.kv_reread_share
        ways = self.count if self.tensor else 1
        t_weights = on_gpu / (self.bw * ways)
        t_kv = kv / (self.bw * ways)
        flops = streams * s.decode_flops(context)
        rate = matmul_tflops(self.gpu, self.serving.weights) * 1e12 * c.prefill_efficiency
        t_compute = flops / (rate * ways)
        t_overhead = s.layers * c.layer_overhead_s + c.token_overhead_s
        t_links = 0.0
        if self.tensor:
            message = streams * s.hidden * 2.0
            per = self._allreduce(message)
            t_links = 2.0 * s.layers * per
        elif self.count > 1:
            t_links = (self.count - 1) * c.hop_s
        t_host = weights * self.offload_share / self.host if self.offload_share else 0.0
        t_dequant = 0.0
        if FORMATS[self.serving.weights].family == "ggml" and self.gpu.fp32_tflops:
            quantised = s.params_active * (1.0 - self.offload_share)
            t_dequant = quantised * c.dequant_ops_per_weight / (self.gpu.fp32_tflops * 1e12)
            t_dequant /= ways
        memory = t_weights + t_kv + t_dequant
        step = max(memory, t_compute) + t_overhead + t_links + t_host
        parts = {
            "weights": t_weights + t_dequant,
            "kv_cache": t_kv,
            "compute": max(0.0, t_compute - memory),
            "overhead": t_overhead,
            "links": t_links,
            "host": t_host,
        }
        return step, parts

    def _allreduce(self, message: float) -> float:
        n = self.count
        latency = self.constants.allreduce_latency_s.get(self.link.kind, 30e-6)
        return 2.0 * (n - 1) / n * message / (self.link.gb_s * 1e9) + latency * 2 * (n - 1) / n

    def prefill_seconds(self, prompt: int) -> float:
        """A format the GPU has no tensor cores for is dequantised to 16 bit for the
        prompt's products, so its prompt is never faster than the 16-bit weights' (its
        smaller reads do not make up for the unpacking)."""
        weights = self.serving.weights
        fmt = FORMATS[weights]
        seconds = self._prefill_seconds(prompt, weights)
        if fmt.bits < 16 and not (fmt.compute != "fp16" and native(self.gpu, fmt.compute)):
            seconds = max(seconds, self._prefill_seconds(prompt, "f16"))
        return seconds

    def _prefill_seconds(self, prompt: int, format_: WeightsFormat) -> float:
        s, c, serving = self.shape, self.c, self.serving
        quant = FORMATS[format_].family != "float"
        efficiency = c.prefill_quant_efficiency if quant else c.prefill_efficiency
        rate = matmul_tflops(self.gpu, format_) * 1e12 * efficiency * self.sustained
        batches = max(1, math.ceil(prompt / c.ubatch))
        compute = s.prefill_flops(prompt) / rate
        # A micro-batch of hundreds of tokens routes to nearly every expert: it reads all
        # the weights once (a dense model: the same as one token's read).
        weights = s.weight_bytes(format_)
        reads = batches * weights * (1.0 - self.offload_share) / self.bw
        copies = batches * weights * self.offload_share / self.pcie
        overhead = batches * s.layers * c.layer_overhead_s
        passes = 0.0 if serving.flash_attention else c.attention_matrix_passes
        scores = passes * 4.0 * s.attention_matrix_elements(prompt) / self.bw
        work = compute + reads + overhead + scores
        if self.tensor:
            per_layer = 2.0 * self._allreduce(prompt * s.hidden * 2.0 / batches)
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
            hops = batches * (self.count - 1) * (c.hop_s + hop_bytes / self.pcie)
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
    return names[max(parts, key=lambda k: parts[k])]
