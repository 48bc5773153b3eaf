"""Frozen inputs and results of the throughput, host-I/O and scaling models.

``WorkProfile`` is the flat set of numbers the performance model needs about one
workload run; ``core.calc.performance.profile`` builds it from a ``Workload``. Results carry
codes and numbers only; ``core.text.throughput`` renders them for people.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from core.models.common import Frozen

NonNeg = Annotated[float, Field(ge=0)]
Positive = Annotated[float, Field(gt=0)]

ComputePrecision = Literal["fp32", "tf32", "fp16", "bf16", "fp8", "int8"]
"""The arithmetic the tensor/matmul units actually run."""
RunParallelism = Literal["data", "zero1", "zero2", "zero3", "fsdp", "independent"]
InterconnectChoice = Literal["auto", "nvlink", "pcie", "host"]
"""How GPUs exchange gradients: the card's own default ("auto"), NVLink bridges, PCIe, or
"host": through host memory even where peer-to-peer works (``NCCL_P2P_DISABLE=1``)."""
LinkKind = Literal["none", "nvswitch", "nvlink_bridge", "pcie_p2p", "pcie_host"]
BottleneckCode = Literal[
    "compute_bound",
    "attention_bound",
    "memory_bound",
    "recurrent_bound",
    "launch_overhead",
    "recompute",
    "pipeline_bubble",
    "offload",
    "optimizer_step",
    "data_loading",
    "storage_read",
    "host_to_device",
    "communication",
]
Exchange = Literal["gradients", "sharded", "model_parallel", "mixed"]
"""What the GPUs exchange: gradients (data parallel, ZeRO-1/2), sharded weights and
gradients (ZeRO-3, FSDP), activations (tensor or pipeline parallel) or both kinds."""
PrecisionNote = Literal[
    "as_requested",
    "tf32_assumed",
    "tf32_disabled",
    "no_tensor_cores_fp32",
    "tensor_rate_unknown_fp32",
    "bf16_unsupported_fp16_used",
    "fp8_unsupported_fp16_used",
    "fp8_rate_unknown_fp16_used",
    "int8_unsupported_fp16_used",
]


class WorkProfile(Frozen):
    """Per-sample work of one workload run (forward FLOPs, 2 FLOPs per multiply-add)."""

    name: str
    unit: str
    """Throughput unit: "images/s", "tokens/s", "sequences/s", "mels/s", ..."""
    items_per_sample: Positive = 1.0
    """Units of ``unit`` in one sample (tokens per sequence, mel frames per utterance)."""
    params_total: Positive
    params_trainable: NonNeg
    """Parameters that receive gradients (all for training, adapters for LoRA)."""
    matmul_flops: NonNeg
    attention_flops: NonNeg = 0.0
    recurrent_flops: NonNeg = 0.0
    elementwise_flops: NonNeg = 0.0
    activation_elements: NonNeg = 0.0
    """Values produced by all non-view ops in one forward pass of one sample."""
    recurrent_steps: NonNeg = 0.0
    """Sequential timesteps of the recurrent layers per step (0 without recurrence)."""
    layers: Annotated[int, Field(ge=1)] = 1
    host_loop_steps: NonNeg = 0.0
    """Timesteps of a recurrence stepped one by one from Python (autoregressive decoder)."""
    pass_factor: Positive = 3.0
    """FLOPs of one step over forward FLOPs: 3 for training, 2 for LoRA, 1 for inference."""
    requested_precision: str = "fp16"
    conv_io_elements: NonNeg = 0.0
    """Input plus output values of the 2-D convolutions of one forward of one sample."""
    channels_last: bool = False
    """Convolutions run on NHWC (channels-last) tensors: no layout transposes."""
    half_activations: bool = False
    """Under 16-bit mixed precision, every activation is 16-bit (model cast to half, apex
    AMP O2); the default (PyTorch autocast, apex O1) keeps softmax, normalization and
    loss in fp32, so an activation averages more than 2 bytes."""
    older_kernels: bool = False
    """The run used an NGC framework container released before 2022, whose kernels run at
    ``ThroughputConstants.older_kernels_speed`` of today's (set only for calibration
    rows whose source names such a container)."""
    batch_per_gpu: Annotated[int, Field(ge=1)] = 1
    optimizer_bytes_per_param: NonNeg = 16.0
    """Bytes read and written per trainable parameter by the optimizer step."""
    grad_bytes_per_param: Positive = 4.0
    parallelism: RunParallelism = "data"
    tp_degree: Annotated[int, Field(ge=1)] = 1
    pp_degree: Annotated[int, Field(ge=1)] = 1
    """Pipeline stages (training): each GPU runs 1/``pp_degree`` of the layers."""
    pp_virtual_stages: Annotated[int, Field(ge=1)] = 1
    """Model chunks per pipeline GPU (interleaved 1F1B)."""
    hidden_size: Annotated[int, Field(ge=1)] | None = None
    gemm_width: Annotated[int, Field(ge=1)] | None = None
    """Narrowest inner (K) dimension of the model's large GEMMs: the hidden size of a
    transformer or LSTM, the channel count of a WaveNet-style conv stack; ``None`` when
    every GEMM is wide (CNN backbones), no shape penalty then."""
    tokens_per_sample: Positive = 1.0
    """Rows each sample adds to a GEMM (tokens of a sequence; 1 for images)."""
    attention_score_elements: NonNeg = 0.0
    """Score-sized tensors (queries x keys x heads x layers) one forward of one sample
    writes: attention FLOPs / (4 x head dim)."""
    unaligned_matmul_flops: NonNeg = 0.0
    """Part of ``matmul_flops`` in GEMMs with a dimension not a multiple of 8."""
    dilated_conv_flops: NonNeg = 0.0
    """Part of ``matmul_flops`` in dilated convolutions (no tensor-core kernel)."""
    conv_flops: NonNeg = 0.0
    """Part of ``matmul_flops`` in convolutions (implicit GEMM in cuDNN)."""
    depthwise_conv_flops: NonNeg = 0.0
    """Part of ``conv_flops`` in depthwise convolutions (CUDA cores, no tensor-core MMA)."""
    seq_len: Annotated[int, Field(ge=1)] | None = None
    input_kind: Literal["image", "text", "audio"] = "image"
    input_bytes_per_sample: NonNeg = 0.0
    dataset_samples: NonNeg | None = None
    target_epochs: Positive | None = None
    target_tokens: Positive | None = None
    stack: Literal[
        "pytorch-eager", "pytorch", "pytorch-compile", "transformer-engine", "unsloth"
    ] = "pytorch-eager"
    """The stack's fusions scale the base (eager) terms; ``profile_from_workload`` sets it."""
    grad_accum_steps: Annotated[int, Field(ge=1)] = 1
    """Micro-batches per optimizer step (gradient accumulation): the gradient exchange
    and the optimizer step are spread over them."""
    recompute: Literal["none", "selective", "op", "full"] = "none"
    """Activation checkpointing: what the backward recomputes (training only)."""
    op_recompute_matmul_share: Annotated[float, Field(ge=0, le=1)] = 0.5
    """Per-op checkpointing: share of the matrix-product FLOPs recomputed (every second
    product of a block, ``core.calc.checkpoint``)."""
    offload_bytes_per_step: NonNeg = 0.0
    """Bytes copied each way between GPU and host per step for offloaded activations and
    optimizer state (timed over the GPU's PCIe link)."""
    frozen_weight_bytes: NonNeg = 0.0
    """LoRA/QLoRA: bytes of the frozen base weights as stored (16-bit, or packed 4/8-bit
    for QLoRA). ZeRO-3 and FSDP shard them too, so each step all-gathers them (timed in
    ``core.calc.performance.scaling``); they receive no gradient."""
    dequant_bytes_per_pass: NonNeg = 0.0
    """QLoRA: DRAM bytes of unpacking the quantised base to 16-bit once (its packed
    weights read, the 16-bit copy written), repeated by every pass that multiplies by it."""
    host_optimizer: bool = False
    """The optimizer state lives in host RAM and the CPU steps it (ZeRO-Offload, FSDP CPU
    offload, ``offload: optimizer``): the step reads and writes it at host DRAM
    bandwidth instead of the GPU's."""

    @property
    def forward_flops(self) -> float:
        return self.matmul_flops + self.attention_flops + self.recurrent_flops


class HostLink(Frozen):
    """The PCIe link one GPU really gets in its slot."""

    pcie_gen: Annotated[int, Field(ge=1, le=6)]
    lanes: Literal[1, 2, 4, 8, 16]
    attached_to: Literal["cpu", "chipset"] = "cpu"
    chipset_uplink_gb_s: Positive | None = None
    """Per-direction bandwidth of the chipset uplink shared by every chipset device."""
    chipset_sharers: Annotated[int, Field(ge=1)] = 1


class HostSpec(Frozen):
    """Host side of a build; any ``None`` part is not modelled (assumed not limiting)."""

    cpu_cores: Annotated[int, Field(ge=1)] | None = None
    storage_read_mb_s: Positive | None = None
    links: tuple[HostLink, ...] = ()
    """One link per GPU, in GPU order; empty means each card's own gen and lanes."""
    memory_gb_s: Positive | None = None
    """Peak host DRAM bandwidth (populated channels × transfer rate × 8 B), for an
    optimizer stepped on the CPU."""


class StepBreakdown(Frozen):
    """Seconds per optimizer step on one GPU, by what the time is spent on."""

    matmul_s: NonNeg
    attention_s: NonNeg
    recurrent_s: NonNeg
    memory_bound_s: NonNeg
    """Elementwise/normalization traffic and the optimizer step."""
    launch_overhead_s: NonNeg
    """Host dispatch the GPU waits for (launches longer than the kernels they start)."""
    recompute_s: NonNeg = 0.0
    """Forward work that activation checkpointing repeats in the backward."""
    offload_s: NonNeg = 0.0
    """PCIe time of offloaded activations and optimizer state not hidden by compute, and
    the CPU's step of an offloaded optimizer."""
    pipeline_bubble_s: NonNeg = 0.0
    """Pipeline parallelism: the time each stage waits while the pipeline fills and
    drains, spread over the step's micro-batches."""
    data_loading_exposed_s: NonNeg
    host_to_device_exposed_s: NonNeg
    communication_exposed_s: NonNeg
    step_s: Positive

    @property
    def compute_s(self) -> float:
        return self.matmul_s + self.attention_s + self.recurrent_s


class Bottleneck(Frozen):
    code: BottleneckCode
    share_of_step: NonNeg
    link: LinkKind = "none"
    pcie_gen: int | None = None
    lanes: int | None = None
    seconds: NonNeg = 0.0
    exchange: Exchange = "gradients"
    """For ``communication``: what crosses the link."""
    sets_pace: bool = False
    """A host stage that runs beside the GPUs (data loading, storage reads, copies to the
    GPUs) and is slower than them: the whole step waits for it, so ``share_of_step`` is
    how long the GPUs wait."""


class ScalingPoint(Frozen):
    gpus: Annotated[int, Field(ge=1)]
    total_throughput: NonNeg
    efficiency: NonNeg
    """Total throughput over ``gpus`` x the 1-GPU throughput."""


class ThroughputResult(Frozen):
    unit: str
    gpus: Annotated[int, Field(ge=1)]
    per_gpu_throughput: NonNeg
    total_throughput: NonNeg
    samples_per_s: NonNeg
    breakdown: StepBreakdown
    utilization: Annotated[float, Field(ge=0, le=1)]
    """Compute time / step time."""
    mfu: NonNeg
    """Model FLOPs per second over the peak at the compute precision."""
    compute_precision: ComputePrecision
    precision_note: PrecisionNote
    link: LinkKind
    link_gb_s: NonNeg
    """Per-direction all-reduce bandwidth of the bottleneck link (before efficiency)."""
    bottleneck: Bottleneck
    scaling: tuple[ScalingPoint, ...]
    time_to_target_s: NonNeg | None = None
