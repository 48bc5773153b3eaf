"""Per-GPU step time as a roofline over the workload's operation mix.

Each operation class is limited by peak compute at the precision the GPU really
runs (tensor cores where the architecture has them) or by memory bandwidth,
scaled by achievable-fraction-of-peak constants that depend on the operation
class and the architecture generation (``core.calc.performance.constants``).

Sources:
- Training FLOPs = 3 x forward (forward, backward w.r.t. activations and w.r.t.
  weights). Source: Kaplan et al. 2020, "Scaling Laws for Neural Language
  Models", sec. 2.1; Narayanan et al. 2021, "Efficient Large-Scale Language
  Model Training on GPU Clusters", sec. 5.1.
- Roofline: time = max(FLOPs / peak, bytes / bandwidth). Source: Williams,
  Waterman, Patterson 2009, "Roofline", CACM 52(4).
- Recurrent cells re-read their weight matrices every timestep, so their
  arithmetic intensity is about 2 x batch / bytes-per-weight. Source: Appleyard
  et al. 2016, "Optimizing Performance of Recurrent Neural Networks on GPUs"
  (arXiv:1604.01946), sec. 2.
- TF32 is on by default for matmuls and convolutions in the NGC PyTorch
  containers the calibration rows were run in. Source: NVIDIA, "Accelerating AI
  Training with NVIDIA TF32 Tensor Cores" (2021); PyTorch docs "TensorFloat-32
  (TF32) on Ampere devices".
"""

from __future__ import annotations

from typing import NamedTuple

from core.calc.performance.constants import ThroughputConstants
from core.calc.performance.stacks import STACKS
from core.calc.sms import sm_count
from core.models.parts import GPU
from core.models.throughput import ComputePrecision, PrecisionNote, WorkProfile

_TF32_ARCHS = frozenset({"ampere", "ada", "hopper", "blackwell", "cdna3"})
_BF16_ARCHS = frozenset(
    {"ampere", "ada", "hopper", "blackwell", "cdna2", "cdna3", "rdna3", "rdna4", "xe2"}
)
_FP8_ARCHS = frozenset({"ada", "hopper", "blackwell", "cdna3"})
_TENSOR_ARCHS = frozenset(
    {"volta", "turing", "ampere", "ada", "hopper", "blackwell", "cdna2", "cdna3", "rdna3"}
    | {"rdna4", "xe2"}  # AMD's WMMA/AI accelerators, Intel's XMX engines
)


class ComputeMode(NamedTuple):
    precision: ComputePrecision
    note: PrecisionNote
    peak_flops: float
    """Matmul peak in FLOP/s at this precision (tensor cores where used)."""
    tensor_cores: bool
    activation_bytes: float
    weight_bytes: float


class GpuStep(NamedTuple):
    """Seconds per step on one GPU, by class; ``gpu_s`` = device work + exposed host time.

    The CPU dispatches every kernel and runs ahead of the GPU: dispatch costs time only
    where launches take longer than the kernels they start. With host time *h* and
    device time *d* per step, the GPU waits ``h² / (h + d)``: nothing when kernels are
    long (large batches), about ``h − d`` when they are short, and in between the share
    of kernels that finish before the next is launched (``h / (h + d)``) exposes its
    launches.
    """

    matmul_s: float
    attention_s: float
    recurrent_s: float
    elementwise_s: float
    optimizer_s: float
    launch_s: float
    gpu_s: float
    step_flops: float
    mode: ComputeMode
    recompute_s: float = 0.0
    host_s: float = 0.0


def fp16_tensor_peak(gpu: GPU) -> float | None:
    """Dense FP16 tensor TFLOPS with FP32 accumulate (what AMP training uses).

    When the catalog lacks it: GeForce boards run FP32-accumulate at half the
    FP16-accumulate rate, and Turing INT8 runs at twice the FP16-accumulate rate;
    a full-rate Volta/Turing board without any tensor figure gets 8 x FP32.
    Source: NVIDIA Turing architecture whitepaper (2018), Table 1 footnotes;
    NVIDIA GA102 whitepaper Appendix A (FP16 tensor with FP16 vs FP32 accumulate).
    """
    tensor = gpu.tensor_tflops
    if tensor.fp16:
        return tensor.fp16
    halve = 0.5 if gpu.is_geforce else 1.0
    if tensor.fp16_acc16:
        return tensor.fp16_acc16 * halve
    if gpu.architecture == "turing" and tensor.int8_tops:
        return tensor.int8_tops / 2.0 * halve
    if gpu.architecture in ("volta", "turing") and gpu.fp32_tflops:
        return gpu.fp32_tflops * 8.0 * halve
    return None


TENSOR_CEILING = 0.9
"""Highest fraction of the tensor peak a stack's faster kernels are credited with: large
cuBLAS GEMMs reach about 90 % of it at best, so a stack's ``tensor_factor`` never lifts
the efficiency past this (nor lowers the eager stack's fitted one)."""

_NARROW_TENSOR_PRECISIONS = frozenset({"fp16", "bf16", "fp8", "int8"})


def mma_halving(gpu: GPU, mode: ComputeMode) -> float:
    """How many times slower the tensor cores' multiply-accumulate issue is than the
    full-rate chip's, for what training runs (FP32 accumulate): 2 on GeForce boards,
    whose FP16/BF16 and TF32 tensor rates with FP32 accumulate are half the
    FP16-accumulate rate; 1 elsewhere.

    Source: NVIDIA GA102 whitepaper (2020) Appendix A and Ada (AD102) whitepaper (2022):
    RTX 3090 71 vs 142 TFLOPS FP16 tensor with FP32 vs FP16 accumulate, RTX A6000 (the
    same GA102) 154.8 for both; Turing whitepaper (2018) Table 1 for the RTX 2080 Ti.
    """
    tensor = gpu.tensor_tflops
    if not (mode.tensor_cores and gpu.is_geforce) or mode.precision not in ("fp16", "bf16", "tf32"):
        return 1.0
    if tensor.fp16:
        return max(1.0, tensor.fp16_acc16 / tensor.fp16) if tensor.fp16_acc16 else 1.0
    return 2.0  # ``fp16_tensor_peak`` halved the FP16-accumulate rate it derived


def issue_limited(efficiency: float, halving: float) -> float:
    """Share of the (halved) tensor peak a kernel reaches on a chip whose MMA issue rate
    is ``halving`` times slower than its full-rate sibling's.

    A kernel that reaches ``efficiency`` of a full-rate chip's peak spends the rest of its
    time feeding the tensor cores (loading and staging operand tiles, epilogues), work
    the MMA rate does not set; a half-rate MMA adds time only where issuing the products
    becomes the longer of the two: time = max(FLOPs / (full peak x efficiency), FLOPs /
    (halved peak x ceiling)). So the halved peak is reached at ``halving x efficiency``,
    never above ``TENSOR_CEILING``, never below ``efficiency``. Measured alike: Lambda's
    RTX 3090 and RTX A6000 (both GA102) train ResNet-50 at 513 and 514 images/s in TF32,
    where a fully MMA-bound 3090 would be half as fast.
    """
    if halving <= 1.0:
        return efficiency
    return min(efficiency * halving, max(efficiency, TENSOR_CEILING))


_HALF_TO_FP32_RATE = {
    "GV100": 2.0,
    "TU1": 2.0,
    "GA100": 4.0,
    "GA10": 1.0,
    "AD10": 1.0,
    "GH100": 2.0,
}
"""Non-tensor FP16 rate over the FP32 rate, by chip (prefix match). Sources: NVIDIA
Tesla V100 whitepaper (2017) and Turing architecture whitepaper (2018): packed FP16
at twice FP32; NVIDIA A100 whitepaper (2020) Table 1: FP16 78 vs FP32 19.5 TFLOPS;
NVIDIA GA102 whitepaper (2020) Appendix A and Ada (AD102) whitepaper (2022):
non-tensor FP16 at the FP32 rate; NVIDIA H100 whitepaper (2022): FP16 (non-tensor)
133.8 vs FP32 66.9 TFLOPS (SXM5). Other chips (not read): the FP32 rate, which every
GPU reaches because 16-bit math can always run in fp32."""
_CHIP_PREFIXES = tuple(sorted(_HALF_TO_FP32_RATE, key=len, reverse=True))
"""Longest prefix first, so "GA100" wins over "GA10"."""


def half_simt_peak(gpu: GPU) -> float | None:
    """Non-tensor 16-bit FLOP/s, where an unaligned low-precision GEMM runs (see OpMix);
    ``None`` when the catalog has no FP32 figure."""
    if not gpu.fp32_tflops:
        return None
    chip = gpu.chip or ""
    ratio = next((_HALF_TO_FP32_RATE[p] for p in _CHIP_PREFIXES if chip.startswith(p)), 1.0)
    return gpu.fp32_tflops * 1e12 * ratio


def compute_mode(gpu: GPU, requested: str, allow_tf32: bool = True) -> ComputeMode:
    """What the matmul units run for a requested precision on this architecture.

    fp32 on Ampere or newer runs TF32 tensor cores when ``allow_tf32`` (NGC and
    PyTorch-for-convolutions default); bf16 needs Ampere, fp8 needs Ada/Hopper.
    Mixed precision ("fp16", "fp16-amp", "bf16") keeps 16-bit activations.
    """
    arch = gpu.architecture
    tensor = gpu.tensor_tflops
    fp32_peak = (gpu.fp32_tflops or 0.0) * 1e12
    req = requested.lower().replace("-amp", "").replace("amp", "fp16")

    def half(note: PrecisionNote, prec: ComputePrecision = "fp16") -> ComputeMode:
        peak = (tensor.bf16 if prec == "bf16" else None) or fp16_tensor_peak(gpu)
        if arch in _TENSOR_ARCHS and peak:
            return ComputeMode(prec, note, peak * 1e12, True, 2.0, 2.0)
        if arch in _TENSOR_ARCHS:  # matrix units whose 16-bit rate no source gives
            return ComputeMode("fp32", "tensor_rate_unknown_fp32", fp32_peak, False, 2.0, 4.0)
        return ComputeMode("fp32", "no_tensor_cores_fp32", fp32_peak, False, 2.0, 4.0)

    if req in ("fp32", "tf32"):
        if arch in _TF32_ARCHS and tensor.tf32 and (req == "tf32" or allow_tf32):
            note: PrecisionNote = "as_requested" if req == "tf32" else "tf32_assumed"
            return ComputeMode("tf32", note, tensor.tf32 * 1e12, True, 4.0, 4.0)
        note = "tf32_disabled" if arch in _TF32_ARCHS else "as_requested"
        if req == "tf32" and arch not in _TF32_ARCHS:
            note = "no_tensor_cores_fp32"
        return ComputeMode("fp32", note, fp32_peak, False, 4.0, 4.0)
    if req == "bf16":
        if arch in _BF16_ARCHS:
            return half("as_requested", "bf16")
        return half("bf16_unsupported_fp16_used")
    if req == "fp8":
        if arch in _FP8_ARCHS and tensor.fp8:
            return ComputeMode("fp8", "as_requested", tensor.fp8 * 1e12, True, 1.0, 1.0)
        if arch in _FP8_ARCHS:  # the architecture has fp8; no source gives this card's rate
            return half("fp8_rate_unknown_fp16_used")
        return half("fp8_unsupported_fp16_used")
    if req in ("int8", "int4"):
        if tensor.int8_tops and arch in _TENSOR_ARCHS:
            return ComputeMode("int8", "as_requested", tensor.int8_tops * 1e12, True, 2.0, 1.0)
        return half("int8_unsupported_fp16_used")
    return half("as_requested")


def tensor_efficiency(gpu: GPU, mode: ComputeMode, c: ThroughputConstants) -> float:
    """Achievable fraction of matmul peak for this generation and unit type."""
    if not mode.tensor_cores:
        return c.eta_simt_fp32
    if gpu.architecture in ("volta", "turing"):
        return c.eta_tensor_volta_turing
    if gpu.architecture in ("hopper", "blackwell"):
        return c.eta_tensor_hopper_blackwell
    return c.eta_tensor_ampere_ada


def gemm_shape_factor(profile: WorkProfile, rows: float, c: ThroughputConstants) -> float:
    """Fraction of the large-GEMM efficiency a narrow GEMM reaches: d / (d + d0).

    d is the smallest GEMM dimension (the model's inner width, or the rows of the
    batch when fewer); tile quantisation and the fixed prologue/epilogue of each tile
    cost about d0 rows' worth of work. Source: NVIDIA "Matrix Multiplication
    Background User's Guide" (Deep Learning Performance docs, 2023), sections on
    arithmetic intensity and tile/wave quantisation.
    """
    if profile.gemm_width is None or c.gemm_half_width <= 0:
        return 1.0
    d = min(float(profile.gemm_width), rows)
    return d / (d + c.gemm_half_width)


GEMM_TILE_ROWS = 128
"""Rows of the output tile of cuBLAS's large tensor-core GEMM kernels (128 or 256 on
Volta and later): a GEMM whose rows are not a multiple wastes on average half a tile
(NVIDIA "Matrix Multiplication Background User's Guide", tile quantisation)."""


def pass_shape_factor(
    profile: WorkProfile, rows: float, passes: float, c: ThroughputConstants
) -> float:
    """Mean GEMM-shape factor over a step's passes (harmonic: time-weighted).

    The forward and input-gradient products write ``rows`` x width outputs: thousands of
    tiles at any real batch, so only a part-filled last tile row is lost, rows / (rows +
    half a tile). The weight-gradient products (training only: LoRA's frozen base and
    inference have none) write width x width outputs from a reduction over all the rows:
    a narrow layer gives the GPU few tiles, d / (d + d0) (``gemm_shape_factor``).
    """
    if profile.gemm_width is None or c.gemm_half_width <= 0:
        return 1.0
    weight_passes = max(0.0, passes - 2.0)
    io_passes = passes - weight_passes
    io = rows / (rows + GEMM_TILE_ROWS / 2.0)
    weight = gemm_shape_factor(profile, rows, c)
    return passes / (io_passes / io + weight_passes / weight)


def gpu_step_time(
    profile: WorkProfile,
    gpu: GPU,
    c: ThroughputConstants,
    *,
    allow_tf32: bool = True,
    clock_factor: float = 1.0,
) -> GpuStep:
    """Device time of one step of ``profile.batch_per_gpu`` samples on one GPU.

    ``clock_factor`` scales compute peaks (a power limit below the board power,
    from ``core.calc.platform.power.power_limit_throughput_factor``); memory bandwidth is
    not scaled.
    """
    mode = compute_mode(gpu, profile.requested_precision, allow_tf32)
    act_bytes = mode.activation_bytes
    if act_bytes == 2.0 and not profile.half_activations:
        act_bytes = c.amp_activation_bytes
    batch = profile.batch_per_gpu
    passes = profile.pass_factor
    peak = max(mode.peak_flops * clock_factor, 1.0)
    bw = gpu.memory_bandwidth_gb_s * 1e9 * c.eta_memory
    sms = sm_count(gpu) if c.per_sm_gb_s else None

    def elementwise_bw(element_bytes: float) -> float:
        if not sms:
            return bw
        return min(bw, c.per_sm_gb_s * 1e9 * sms * element_bytes / 4.0)

    stack = STACKS[profile.stack]
    base_eta = tensor_efficiency(gpu, mode, c)
    eta = min(base_eta * stack.tensor_factor, max(base_eta, TENSOR_CEILING))
    halving = mma_halving(gpu, mode)

    shape = pass_shape_factor(profile, float(batch) * profile.tokens_per_sample, passes, c)
    # 16- and 8-bit tensor-core GEMMs need 16-byte aligned rows (8 or 16 elements); an
    # odd dimension leaves cuBLAS the non-tensor path. TF32's 4-byte elements keep rows
    # word-aligned, and its tensor kernels still run there.
    unaligned, simt = 0.0, None
    if (
        profile.unaligned_matmul_flops
        and mode.tensor_cores
        and mode.precision in _NARROW_TENSOR_PRECISIONS
        and gpu.vendor == "NVIDIA"
    ):
        simt = half_simt_peak(gpu)
        unaligned = profile.unaligned_matmul_flops if simt else 0.0
    # Dilated convolutions have no tensor-core kernel: at 16-bit precision they run on
    # the CUDA cores, at the non-tensor 16-bit rate (as unaligned GEMMs do). TF32 is left
    # on the tensor path: no source says whether cuDNN 8 runs dilated TF32 there.
    dilated = 0.0
    if mode.tensor_cores and mode.precision in _NARROW_TENSOR_PRECISIONS:
        dilated_simt = half_simt_peak(gpu) if gpu.vendor == "NVIDIA" else None
        dilated = profile.dilated_conv_flops if dilated_simt else 0.0
    plain = profile.matmul_flops - unaligned - dilated
    # Implicit-GEMM convolutions gather their tiles from the image as they go and reach a
    # lower share of the tensor peak than linear layers (``conv_rel``); the dilated ones
    # already left for the CUDA cores above. FP32 CUDA-core convolutions keep the plain
    # efficiency (cuDNN's Winograd kernels even do fewer multiplies than counted).
    # Depthwise convolutions leave the tensor path for the FP32 CUDA cores at any
    # precision: one input channel per output has no reduction dimension for an MMA.
    depthwise = 0.0
    if profile.depthwise_conv_flops and gpu.fp32_tflops:
        depthwise = min(profile.depthwise_conv_flops, plain)
        plain -= depthwise
    conv = min(max(profile.conv_flops - dilated - depthwise, 0.0), plain)
    conv = conv if mode.tensor_cores else 0.0
    matmul_s = passes * batch * (plain - conv) / (peak * issue_limited(eta * shape, halving))
    if conv:
        conv_eta = issue_limited(eta * shape * c.conv_rel, halving)
        matmul_s += passes * batch * conv / (peak * conv_eta)
    if simt and unaligned:
        matmul_s += passes * batch * unaligned / (simt * clock_factor * c.eta_simt_fp32)
    if depthwise and gpu.fp32_tflops:
        lanes = gpu.fp32_tflops * 1e12 * clock_factor * c.eta_depthwise
        matmul_s += passes * batch * depthwise / lanes
    if dilated and dilated_simt:
        simt_eta = min(1.0, c.eta_simt_fp32 * stack.tensor_factor)
        matmul_s += passes * batch * dilated / (dilated_simt * clock_factor * simt_eta * shape)
    attention_eta = issue_limited(eta * c.attention_rel, halving)
    attention_s = passes * batch * profile.attention_flops / (peak * attention_eta)
    # Score tensors (softmax, mask, dropout over queries x keys x heads) stream through
    # DRAM whatever the matmul speed: unfused attention is memory bound there.
    if not stack.flash_attention:
        attention_s += (
            (passes / 3.0) * batch * profile.attention_score_elements * c.score_bytes / bw
        )
    recurrent_s = 0.0
    if profile.recurrent_flops > 0:
        # Per-timestep cell GEMMs have only ``batch`` rows.
        rec_eta = issue_limited(
            eta * c.recurrent_rel * gemm_shape_factor(profile, float(batch), c), halving
        )
        rec_compute = passes * batch * profile.recurrent_flops / (peak * rec_eta)
        steps = max(profile.recurrent_steps, 1.0)
        weights_per_step = profile.recurrent_flops / (2.0 * steps)
        rec_stream = passes * steps * weights_per_step * mode.weight_bytes / bw
        recurrent_s = max(rec_compute, rec_stream)
    elementwise_s = (
        (passes / 3.0)
        * batch
        * profile.activation_elements
        * c.elementwise_bytes_per_activation
        * stack.elementwise_factor
        * act_bytes
        / elementwise_bw(act_bytes)
    )
    if (
        c.nchw_transpose_passes > 0
        and profile.conv_io_elements
        and not profile.channels_last
        and mode.tensor_cores
        and mode.precision in ("fp16", "bf16")
        and gpu.vendor == "NVIDIA"
    ):
        # cuDNN's 16-bit tensor-core convolutions work in NHWC: an NCHW tensor is
        # transposed before each and back after it, forward and backward (MosaicML
        # Composer "Channels Last" method card, with NVIDIA's diagram).
        elementwise_s += (
            (passes / 3.0)
            * batch
            * profile.conv_io_elements
            * c.nchw_transpose_passes
            * 2.0
            / elementwise_bw(2.0)
        )
    if c.elementwise_alu_flops > 0 and gpu.fp32_tflops:
        # PyTorch's elementwise kernels compute in fp32 whatever the storage type
        # (opmath), so their math (exp, erf, tanh, dropout's Philox RNG) runs on the
        # FP32 CUDA cores, next to the DRAM traffic above.
        elementwise_s += (
            (passes / 3.0)
            * batch
            * profile.activation_elements
            * c.elementwise_alu_flops
            / (gpu.fp32_tflops * 1e12 * clock_factor)
        )
    if profile.dequant_bytes_per_pass > 0 and passes > 1.0:
        # a 4- or 8-bit frozen base is unpacked to 16-bit before every product that uses
        # it, in the forward and again in the backward (bitsandbytes MatMul4Bit: one
        # dequantize_4bit in forward, one in backward); full or per-op checkpointing
        # repeats the forward's with the rest of the forward (recompute below)
        elementwise_s += passes * profile.dequant_bytes_per_pass / bw
    optimizer_s = (
        profile.params_trainable * profile.optimizer_bytes_per_param / bw
        if passes > 1.0 and not profile.host_optimizer
        else 0.0
    )
    # the optimizer steps once per grad_accum_steps micro-batches
    optimizer_s /= profile.grad_accum_steps
    if profile.older_kernels:
        # the same kernels from an older cuDNN/cuBLAS release (NGC containers before
        # 2022): every device kernel runs slower by one measured factor
        slow = 1.0 / c.older_kernels_speed
        matmul_s *= slow
        attention_s *= slow
        recurrent_s *= slow
        elementwise_s *= slow
        optimizer_s *= slow
    # A training step's host time per layer is one unit: the forward's share, launched
    # module by module from Python, and the backward's (C++ autograd engine), scaled by
    # the backward's passes (LoRA's frozen base has no weight gradients: half of them).
    host_unit = (
        profile.layers * c.launch_s_per_layer * stack.host_factor
        + profile.host_loop_steps * c.launch_s_per_loop_step
    )
    forward_host = c.forward_host_share * host_unit
    host_s = forward_host + max(passes - 1.0, 0.0) / 2.0 * (1.0 - c.forward_host_share) * host_unit
    recompute_s = 0.0
    if passes > 1.0 and profile.recompute == "full":
        # the backward runs the whole forward again (Chen et al. 2016, arXiv:1604.06174)
        recompute_s = (matmul_s + attention_s + recurrent_s + elementwise_s) / passes
        host_s += forward_host
    elif passes > 1.0 and profile.recompute == "op":
        # every second matrix product and every elementwise op of the forward run again;
        # the attention kernel's output is kept (core.calc.checkpoint)
        recompute_s = (matmul_s * profile.op_recompute_matmul_share + elementwise_s) / passes
        host_s += forward_host
    elif passes > 1.0 and profile.recompute == "selective":
        # only the attention core is recomputed (Korthikanti et al. 2022, §5)
        recompute_s = attention_s / passes
    device_s = matmul_s + attention_s + recurrent_s + elementwise_s + optimizer_s + recompute_s
    launch_s = host_s * host_s / (host_s + device_s) if host_s > 0 else 0.0
    step_flops = passes * batch * profile.forward_flops
    return GpuStep(
        matmul_s,
        attention_s,
        recurrent_s,
        elementwise_s,
        optimizer_s,
        launch_s,
        device_s + launch_s,
        step_flops,
        mode,
        recompute_s,
        host_s,
    )
