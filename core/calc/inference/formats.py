"""Weights and KV-cache formats: bits per value and which GPUs run them natively.

Bits per weight (``resources/benchmarks/llm_formats.csv`` cites each; a test keeps the two
in step):

- ggml block layouts (ggml-org/llama.cpp ``ggml/src/ggml-common.h``): ``block_q8_0`` 34
  bytes per 32 weights = 8.5; ``block_q4_0`` 18 / 32 = 4.5; ``block_q6_K`` 210 / 256 =
  6.5625; ``block_iq4_xs`` 136 / 256 = 4.25. The K-quant mixes keep some tensors at a
  higher type, so their bits are the effective figure llama.cpp publishes for a model.
- GPTQ / AWQ with group size 128: 4 bits + an fp16 scale and a packed 4-bit zero per
  group = 4 + 20 / 128. MLC's q4f16_1: 4 bits + fp16 scale per 32 = 4.5.
- bitsandbytes NF4: 4 bits + an fp32 absmax per 64 = 4.5; with double quantization the
  QLoRA paper (arXiv:2305.14314 §3) gives 0.127 bits of constants per parameter.
- OCP MX v1.0: MXFP4 = 32 FP4 values + one 8-bit E8M0 scale = 4.25; NVIDIA NVFP4 = 16
  FP4 values + one FP8 E4M3 scale = 4.5 (the per-tensor FP32 scale is negligible).

llama.cpp's block formats are dequantised to 16 bits for the prompt's large products
(ggml-cuda dequantises to FP16 and calls cuBLAS above a batch of 32 tokens); their cost
is in the engine's quantised prefill efficiency.

Native kernels: FP8 tensor cores from compute capability 8.9 (Ada, Hopper) on; FP4
(MXFP4/NVFP4) tensor cores on Blackwell; INT8 tensor cores from Turing. A format the GPU
cannot run natively is dequantised to 16 bits before its matrix products: decode still
reads the small weights, prefill runs at the 16-bit rate (NVIDIA Transformer Engine and
TensorRT-LLM support matrices; vLLM's "Supported hardware for quantization kernels").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.models.parts import GPU
from core.models.workload import ENGINE_WEIGHTS, KvFormat, WeightsFormat

Compute = Literal["fp16", "fp8", "int8", "fp4"]


@dataclass(frozen=True)
class Format:
    bits: float
    compute: Compute
    """Math the format's matrix products use where the GPU runs it natively."""
    family: Literal["float", "ggml", "group-int4", "bnb", "microscaled"]


FORMATS: dict[WeightsFormat, Format] = {
    "f16": Format(16.0, "fp16", "float"),
    "bf16": Format(16.0, "fp16", "float"),
    "fp8": Format(8.0, "fp8", "float"),
    "int8": Format(8.0, "int8", "float"),
    "q8_0": Format(8.5, "fp16", "ggml"),
    "q6_k": Format(6.5625, "fp16", "ggml"),
    "q5_k_m": Format(5.7036, "fp16", "ggml"),
    "q4_k_m": Format(4.8944, "fp16", "ggml"),
    "q4_0": Format(4.5, "fp16", "ggml"),
    "iq4_xs": Format(4.25, "fp16", "ggml"),
    "gptq-int4": Format(4.0 + 20.0 / 128.0, "fp16", "group-int4"),
    "awq-int4": Format(4.0 + 20.0 / 128.0, "fp16", "group-int4"),
    "q4f16_1": Format(4.5, "fp16", "group-int4"),
    "nf4": Format(4.5, "fp16", "bnb"),
    "nf4-dq": Format(4.127, "fp16", "bnb"),
    "mxfp4": Format(4.25, "fp4", "microscaled"),
    "nvfp4": Format(4.5, "fp4", "microscaled"),
}

KV_BYTES: dict[KvFormat, float] = {
    "f16": 2.0,
    "fp8": 1.0,
    "q8_0": 34.0 / 32.0,  # block_q8_0
    "q4_0": 18.0 / 32.0,  # block_q4_0
}

LOWER_PRECISION: tuple[WeightsFormat, ...] = ("q8_0", "q6_k", "q5_k_m", "q4_k_m", "iq4_xs")
"""Formats a memory fix tries, least quality lost first (llama.cpp's own ordering of its
quantisations by perplexity)."""


def compute_capability(gpu: GPU) -> float | None:
    """NVIDIA compute capability by architecture (CUDA C Programming Guide, Table 21)."""
    if gpu.vendor != "NVIDIA":
        return None
    return {
        "pascal": 6.1,
        "volta": 7.0,
        "turing": 7.5,
        "ampere": 8.6 if gpu.is_geforce else 8.0,
        "ada": 8.9,
        "hopper": 9.0,
        "blackwell": 12.0 if gpu.is_geforce or "PRO" in gpu.name else 10.0,
    }.get(gpu.architecture)


def native(gpu: GPU, compute: Compute) -> bool:
    """Whether ``gpu`` has tensor cores for ``compute`` (else it dequantises to 16 bit)."""
    if compute == "fp16":
        return True
    cc = compute_capability(gpu)
    if compute == "int8":
        return gpu.tensor_tflops.int8_tops is not None
    if compute == "fp8":
        return gpu.tensor_tflops.fp8 is not None and (cc is None or cc >= 8.9)
    return gpu.architecture == "blackwell"  # fp4


def matmul_tflops(gpu: GPU, weights: WeightsFormat, *, fp16_accumulate: bool = True) -> float:
    """Tensor-core peak the prompt's matrix products run at with ``weights`` on ``gpu``.

    16-bit products use the FP16-accumulate rate where the card has one when
    ``fp16_accumulate``: llama.cpp's cuBLAS path computes in FP16 (ggml-cuda,
    ``CUBLAS_COMPUTE_16F``). PyTorch-based engines (vLLM, SGLang, transformers) and
    TensorRT-LLM accumulate in FP32, which GeForce cards run at half their FP16-accumulate
    rate (NVIDIA's Ada and RTX Blackwell whitepapers). INT8 and FP8 peaks are used where
    the GPU runs the format natively; otherwise the 16-bit rate.
    """
    t = gpu.tensor_tflops
    half = (t.fp16_acc16 if fp16_accumulate else None) or t.fp16 or t.bf16
    half = half or gpu.fp32_tflops or 1.0
    compute = FORMATS[weights].compute
    if compute == "int8" and native(gpu, "int8") and t.int8_tops:
        return t.int8_tops
    if compute == "fp8" and native(gpu, "fp8") and t.fp8:
        return t.fp8
    if compute == "fp4" and native(gpu, "fp4") and (t.fp4 or t.fp8):
        # the maker's FP4 rate, else twice the FP8 rate (Blackwell's FP4 tensor cores)
        return t.fp4 or 2.0 * (t.fp8 or 0.0)
    return half


_PREFERRED: tuple[WeightsFormat, ...] = (
    "f16",
    "bf16",
    "q8_0",
    "fp8",
    "int8",
    "q6_k",
    "q5_k_m",
    "q4_k_m",
    "awq-int4",
    "gptq-int4",
    "q4_0",
    "iq4_xs",
    "q4f16_1",
    "nf4",
    "nf4-dq",
    "mxfp4",
    "nvfp4",
)
"""Among formats of about the same size, the one an engine's users most often run."""


def nearest_weights(engine: str, weights: WeightsFormat) -> WeightsFormat:
    """``weights`` if ``engine`` loads it, else the engine's format of about the same size
    (within a bit per weight: int8 on llama.cpp is q8_0, q4_k_m on vLLM awq-int4), or
    failing that the largest smaller one (q6_k on vLLM: awq-int4), or the smallest."""
    loads = ENGINE_WEIGHTS.get(engine)
    if loads is None or weights in loads:
        return weights
    bits = FORMATS[weights].bits
    known = [f for f in _PREFERRED if f in loads]

    def pick(chosen: list[WeightsFormat]) -> WeightsFormat:
        best = max(round(FORMATS[f].bits) for f in chosen)
        return next(f for f in chosen if round(FORMATS[f].bits) == best)

    near = [f for f in known if abs(FORMATS[f].bits - bits) <= 1.0]
    if near:
        return near[0]
    smaller = [f for f in known if FORMATS[f].bits < bits]
    return pick(smaller) if smaller else min(known, key=lambda f: FORMATS[f].bits)
