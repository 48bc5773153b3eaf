"""Multi-GPU communication, the whole-step estimate and the 1..N scaling curve.

Sources:
- Ring all-reduce moves 2(N-1)/N x the gradient bytes through each GPU's
  slowest link, per direction. Source: Patarasuk & Yuan 2009, "Bandwidth
  optimal all-reduce algorithms for clusters of workstations", JPDC 69(2);
  NCCL docs "Performance" (bus bandwidth = algbw x 2(n-1)/n).
- DDP buckets gradients and all-reduces them while backward still runs, so
  only the part longer than the backward pass is exposed. Source: Li et al.
  2020, "PyTorch Distributed: Experiences on Accelerating Data Parallel
  Training", VLDB 13(12), sec. 3.2.3.
- ZeRO-3 / FSDP move 1.5x the data-parallel volume (parameter all-gathers in
  forward and backward plus a gradient reduce-scatter); ZeRO-1/2 move the same
  as data parallel. Source: Rajbhandari et al. 2020, "ZeRO", sec. 7.
- Tensor (Megatron) parallel: two all-reduces of the layer activations
  (batch x seq x hidden) per transformer layer in forward and two in backward,
  not overlapped. Source: Shoeybi et al. 2019, "Megatron-LM", sec. 3.
- NVLink per-GPU bandwidth, bridge pairs vs NVSwitch, P2P availability: shared
  hardware reference pcie_interconnect.md (Wikipedia "NVLink"; NVIDIA/nccl
  #1127; tinygrad/open-gpu-kernel-modules README). A bridge joins two cards,
  so a ring over more than two crosses PCIe between the pairs.
"""

from __future__ import annotations

from typing import NamedTuple

from core.calc.performance.constants import ThroughputConstants
from core.calc.performance.hostio import ASSUMED_HOST_MEMORY_GB_S, host_times, link_gb_s
from core.calc.performance.roofline import GpuStep, gpu_step_time
from core.calc.performance.stacks import STACKS
from core.models.parts import GPU
from core.models.throughput import (
    Bottleneck,
    BottleneckCode,
    Exchange,
    HostLink,
    HostSpec,
    InterconnectChoice,
    LinkKind,
    ScalingPoint,
    StepBreakdown,
    ThroughputResult,
    WorkProfile,
)


class CommLink(NamedTuple):
    kind: LinkKind
    gb_s: float
    """Per-direction bandwidth before the achieved-fraction factor."""
    pcie: HostLink | None


def _has_p2p(gpu: GPU) -> bool:
    if gpu.p2p_pcie != "unknown":
        return gpu.p2p_pcie == "yes"
    # GeForce boards lack PCIe P2P on the stock driver (pcie_interconnect.md sec. 3).
    return not gpu.is_geforce


def comm_link(gpu: GPU, gpus: int, interconnect: InterconnectChoice, pcie: HostLink) -> CommLink:
    """The link that bounds a ring all-reduce over ``gpus`` cards of this model.

    "auto" means the card's default without bridges: NVSwitch/SXM boards use
    NVLink, PCIe cards use PCIe. "nvlink" on a bridge-pair card fits bridges. "host"
    stages every transfer through host memory over PCIe (peer-to-peer turned off).
    """
    if gpus <= 1:
        return CommLink("none", 0.0, None)
    pcie_kind: LinkKind = "pcie_p2p" if _has_p2p(gpu) and interconnect != "host" else "pcie_host"
    pcie_link = CommLink(pcie_kind, link_gb_s(pcie), pcie)
    if gpu.nvlink_gb_s is None or interconnect in ("pcie", "host"):
        return pcie_link
    per_direction = gpu.nvlink_gb_s / 2.0
    if gpu.nvlink_topology == "nvswitch" or gpu.form_factor in ("sxm", "oam", "superchip"):
        return CommLink("nvswitch", per_direction, None)
    if interconnect == "nvlink" and gpu.nvlink_topology in ("bridge_pair", "unknown"):
        if gpus == 2:
            return CommLink("nvlink_bridge", per_direction, None)
        return pcie_link
    return pcie_link


def exposed_dispatch(dev: GpuStep, tp: int = 1) -> float:
    """Host dispatch the GPU waits for when its device work is split ``tp`` ways
    (``roofline.GpuStep``: h² / (h + d))."""
    device = (dev.gpu_s - dev.launch_s) / tp
    h = dev.host_s
    return h * h / (h + device) if h > 0 else 0.0


class _Step(NamedTuple):
    step_s: float
    comm_exposed_s: float
    load_exposed_s: float
    storage_exposed_s: float
    h2d_exposed_s: float
    link: CommLink
    offload_exposed_s: float = 0.0
    bubble_s: float = 0.0


def model_parallel(profile: WorkProfile, gpus: int) -> tuple[int, int]:
    """(tensor, pipeline) degrees that ``gpus`` GPUs can host: each capped by the GPUs
    there are (a scaling curve's smaller counts), 1 for independent runs."""
    if profile.parallelism == "independent":
        return 1, 1
    tp = max(1, min(profile.tp_degree, gpus))
    pp = max(1, min(profile.pp_degree, gpus // tp))
    return tp, pp


def pipeline_bubble_fraction(profile: WorkProfile, pp: int) -> float:
    """Idle share over useful work of a pipeline of ``pp`` stages: (p - 1) / (v m) for
    ``m`` micro-batches per step and ``v`` model chunks per GPU (Narayanan et al. 2021,
    "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
    §2.2: 1F1B and its interleaved schedule). Interleaving needs at least as many
    micro-batches as stages to fill its chunks; with fewer it gains nothing (v = 1)."""
    if pp <= 1:
        return 0.0
    m = profile.grad_accum_steps
    chunks = profile.pp_virtual_stages if m >= pp else 1
    return (pp - 1) / (chunks * m)


def _comm_seconds(
    profile: WorkProfile, dev: GpuStep, link: CommLink, gpus: int, c: ThroughputConstants
) -> float:
    """Exposed communication seconds per step (after overlap with backward)."""
    if gpus <= 1 or profile.parallelism == "independent" or link.kind == "none":
        return 0.0
    bandwidth = link.gb_s * 1e9 * c.eta_link
    if link.kind == "pcie_host":
        bandwidth *= c.host_staging_factor
    tp, pp = model_parallel(profile, gpus)
    dp = gpus // (tp * pp)
    exposed = 0.0
    layer_bytes = profile.batch_per_gpu * (profile.seq_len or 0) * (profile.hidden_size or 0) * 2.0
    if tp > 1 and layer_bytes:
        # two all-reduces per layer forward and two backward, over this stage's layers
        tp_bytes = 4.0 * profile.layers / pp * layer_bytes * 2.0 * (tp - 1) / tp
        tp_s = tp_bytes / bandwidth
        if STACKS[profile.stack].tp_comm_overlap:
            tp_s = max(0.0, tp_s - dev.matmul_s / (tp * pp) * c.overlap_fraction)
        exposed += tp_s
    if pp > 1 and layer_bytes:
        # each of the v chunks sends its output forward and receives its gradient back
        # once per micro-batch, split over the tensor-parallel ranks (Megatron's
        # scatter/gather of the pipeline's 16-bit activations)
        exposed += 2.0 * profile.pp_virtual_stages * layer_bytes / tp / bandwidth
    sharded = profile.parallelism in ("zero3", "fsdp")
    frozen = profile.frozen_weight_bytes / (tp * pp) if sharded else 0.0
    if dp > 1 and (profile.params_trainable > 0 or frozen > 0):
        grad_bytes = profile.params_trainable * profile.grad_bytes_per_param / (tp * pp)
        volume = 2.0 * (dp - 1) / dp * grad_bytes
        # the backward this GPU runs hides the exchange: its share of the device work
        device = (dev.matmul_s + dev.attention_s + dev.recurrent_s + dev.elementwise_s) / (tp * pp)
        window = device * (2.0 / 3.0) * c.overlap_fraction
        if sharded:
            volume *= 1.5
            # LoRA/QLoRA under ZeRO-3/FSDP shard the frozen base as well: each rank
            # all-gathers it ((dp-1)/dp of it arrives) for the forward and again for the
            # backward (Rajbhandari et al. 2020, arXiv:1910.02054, §7.2.3: parameters are
            # broadcast for the forward and again for the backward). A recompute under
            # checkpointing runs inside the unit's backward gather (FSDP's
            # apply_activation_checkpointing wraps the layer inside its FSDP unit). No
            # gradient of it is reduced.
            volume += 2.0 * (dp - 1) / dp * frozen
            window = device * c.overlap_fraction
        # DDP and ZeRO-1/2 accumulate locally (no_sync) and exchange gradients once per
        # optimizer step; FSDP / ZeRO-3 gather the weights and reduce-scatter the
        # gradients for every micro-batch whatever the accumulation.
        accum = 1 if profile.parallelism in ("zero3", "fsdp") else profile.grad_accum_steps
        exposed += (max(0.0, volume / bandwidth - window) + c.allreduce_latency_s) / accum
    return exposed


def host_optimizer_seconds(
    profile: WorkProfile, gpus: int, host: HostSpec | None, c: ThroughputConstants
) -> float:
    """Seconds per step the CPU spends stepping an offloaded optimizer; where the host's
    memory bandwidth is not known, at ``ASSUMED_HOST_MEMORY_GB_S`` (never 0: a step the
    CPU takes is never free).

    The step moves the profile's optimizer bytes per trainable parameter (AdamW with fp32
    master weights 28 B, pure bf16 14 B: ``profile._OPTIMIZER_BYTES``) through host DRAM
    once per optimizer step, on one shared host: sharded (ZeRO, FSDP) each rank steps
    its part of the model, otherwise each data-parallel replica its own copy (tensor and
    pipeline ranks each their slice of it). Nothing overlaps it: the
    backward's gradients come first and the next forward needs the new weights
    (ZeRO-Offload's one-step delayed update, Ren et al. 2021 §5, is not modelled)."""
    if not profile.host_optimizer:
        return 0.0
    known = host.memory_gb_s if host is not None else None
    bandwidth = known if known is not None else ASSUMED_HOST_MEMORY_GB_S
    tp, pp = model_parallel(profile, gpus)
    dp = gpus // (tp * pp)
    copies = 1 if profile.parallelism in ("zero1", "zero2", "zero3", "fsdp") else dp
    moved = profile.params_trainable * profile.optimizer_bytes_per_param * copies
    return moved / (bandwidth * 1e9 * c.eta_host_memory) / profile.grad_accum_steps


def _whole_step(
    profile: WorkProfile,
    gpu: GPU,
    dev: GpuStep,
    gpus: int,
    interconnect: InterconnectChoice,
    host: HostSpec | None,
    c: ThroughputConstants,
) -> _Step:
    default_link = HostLink(pcie_gen=gpu.pcie_gen, lanes=gpu.pcie_lanes)
    io = host_times(profile, host, gpus, default_link, c.eta_pcie_h2d)
    pcie = io.slowest_link or default_link
    link = comm_link(gpu, gpus, interconnect, pcie)
    tp, pp = model_parallel(profile, gpus)
    # Tensor parallelism splits the device work; every rank still launches every kernel,
    # so more of the host's dispatch is exposed. A pipeline stage runs, and launches,
    # only its layers.
    device_s = (dev.gpu_s - dev.launch_s) / (tp * pp)
    gpu_s = device_s + exposed_dispatch(dev, tp) / pp
    bubble = gpu_s * pipeline_bubble_fraction(profile, pp)
    comm = _comm_seconds(profile, dev, link, gpus, c)
    busy = gpu_s + bubble + comm
    offload = 0.0
    if profile.offload_bytes_per_step > 0:
        # copies run both ways at once on the GPU's own link; compute hides part of them
        copy_s = profile.offload_bytes_per_step / (link_gb_s(pcie) * 1e9 * c.eta_pcie_h2d)
        offload = max(0.0, copy_s - device_s * c.overlap_fraction)
    offload += host_optimizer_seconds(profile, gpus, host, c)
    busy += offload
    h2d = max(0.0, io.host_to_device_s - busy)
    load = max(0.0, io.data_loading_s - busy - h2d)
    storage = max(0.0, io.storage_s - busy - h2d - load)
    return _Step(busy + h2d + load + storage, comm, load, storage, h2d, link, offload, bubble)


def _samples_per_s(profile: WorkProfile, step: _Step, gpus: int) -> float:
    tp, pp = model_parallel(profile, gpus)
    return profile.batch_per_gpu * (gpus // (tp * pp)) / step.step_s


def _exchange(profile: WorkProfile, gpus: int, tp: int, pp: int) -> Exchange:
    """What the exposed communication carries (named in the bottleneck text)."""
    dp = gpus // (tp * pp)
    if tp * pp > 1:
        return "mixed" if dp > 1 else "model_parallel"
    return "sharded" if profile.parallelism in ("zero3", "fsdp") else "gradients"


def _bottleneck(dev: GpuStep, step: _Step, tp: int, pp: int, exchange: Exchange) -> Bottleneck:
    split = tp * pp
    parts: dict[BottleneckCode, float] = {
        "compute_bound": dev.matmul_s / split,
        "attention_bound": dev.attention_s / split,
        "recurrent_bound": dev.recurrent_s / split,
        "memory_bound": dev.elementwise_s / split,
        "optimizer_step": dev.optimizer_s / split,
        "launch_overhead": exposed_dispatch(dev, tp) / pp,
        "recompute": dev.recompute_s / split,
        "pipeline_bubble": step.bubble_s,
        "offload": step.offload_exposed_s,
        "data_loading": step.load_exposed_s,
        "storage_read": step.storage_exposed_s,
        "host_to_device": step.h2d_exposed_s,
        "communication": step.comm_exposed_s,
    }
    code = max(parts, key=lambda k: parts[k])
    # The host's stages run beside the GPUs (the loader works ahead of them), so the
    # last one that is exposed sets the step's pace whatever the GPU classes' shares:
    # a faster GPU would only wait longer for it.
    paced: tuple[BottleneckCode, ...] = ("storage_read", "data_loading", "host_to_device")
    pace = next((k for k in paced if parts[k] > 0.0), None)
    code = pace or code
    pcie = step.link.pcie
    on_link = code in ("communication", "host_to_device")
    return Bottleneck(
        code=code,
        share_of_step=min(1.0, parts[code] / step.step_s),
        link=step.link.kind if code == "communication" else "none",
        pcie_gen=pcie.pcie_gen if on_link and pcie else None,
        lanes=pcie.lanes if on_link and pcie else None,
        seconds=parts[code],
        exchange=exchange,
        sets_pace=pace is not None,
    )


def estimate_throughput(
    profile: WorkProfile,
    gpu: GPU,
    gpus: int,
    c: ThroughputConstants,
    *,
    interconnect: InterconnectChoice = "auto",
    host: HostSpec | None = None,
    allow_tf32: bool = True,
    clock_factor: float = 1.0,
    curve: bool = True,
) -> ThroughputResult:
    """Throughput, step breakdown, bottleneck and 1..``gpus`` scaling curve of one build."""
    dev = gpu_step_time(profile, gpu, c, allow_tf32=allow_tf32, clock_factor=clock_factor)
    step = _whole_step(profile, gpu, dev, gpus, interconnect, host, c)
    samples = _samples_per_s(profile, step, gpus)
    points: list[ScalingPoint] = []
    if curve:
        base = 0.0
        for n in range(1, gpus + 1):
            s_n = step if n == gpus else _whole_step(profile, gpu, dev, n, interconnect, host, c)
            total_n = _samples_per_s(profile, s_n, n) * profile.items_per_sample
            base = base or total_n
            points.append(
                ScalingPoint(gpus=n, total_throughput=total_n, efficiency=total_n / (n * base))
            )
    tp, pp = model_parallel(profile, gpus)
    split = tp * pp
    compute_s = (dev.matmul_s + dev.attention_s + dev.recurrent_s) / split
    breakdown = StepBreakdown(
        matmul_s=dev.matmul_s / split,
        attention_s=dev.attention_s / split,
        recurrent_s=dev.recurrent_s / split,
        memory_bound_s=(dev.elementwise_s + dev.optimizer_s) / split,
        launch_overhead_s=exposed_dispatch(dev, tp) / pp,
        recompute_s=dev.recompute_s / split,
        pipeline_bubble_s=step.bubble_s,
        offload_s=step.offload_exposed_s,
        data_loading_exposed_s=step.load_exposed_s + step.storage_exposed_s,
        host_to_device_exposed_s=step.h2d_exposed_s,
        communication_exposed_s=step.comm_exposed_s,
        step_s=step.step_s,
    )
    total = samples * profile.items_per_sample
    peak = dev.mode.peak_flops * clock_factor
    mfu = samples * dev.step_flops / profile.batch_per_gpu / (peak * gpus) if peak > 0 else 0.0
    return ThroughputResult(
        unit=profile.unit,
        gpus=gpus,
        per_gpu_throughput=total / gpus,
        total_throughput=total,
        samples_per_s=samples,
        breakdown=breakdown,
        utilization=min(1.0, compute_s / step.step_s),
        mfu=mfu,
        compute_precision=dev.mode.precision,
        precision_note=dev.mode.note,
        link=step.link.kind,
        link_gb_s=step.link.gb_s,
        bottleneck=_bottleneck(dev, step, tp, pp, _exchange(profile, gpus, tp, pp)),
        scaling=tuple(points),
        time_to_target_s=time_to_target_s(profile, samples),
    )


def time_to_target_s(profile: WorkProfile, samples_per_s: float) -> float | None:
    """Seconds to reach the training target: epochs over the dataset, or a token count."""
    if samples_per_s <= 0:
        return None
    if profile.target_epochs is not None and profile.dataset_samples:
        return profile.target_epochs * profile.dataset_samples / samples_per_s
    if profile.target_tokens is not None:
        tokens_per_sample = float(profile.seq_len or profile.items_per_sample)
        return profile.target_tokens / (samples_per_s * tokens_per_sample)
    return None
