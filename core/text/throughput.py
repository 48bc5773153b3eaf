"""Text for people from throughput results and the calibration report."""

from __future__ import annotations

from typing import Any

from core.models.throughput import Bottleneck, LinkKind, PrecisionNote, ThroughputResult
from core.models.workload import Workload

_LINK: dict[LinkKind, str] = {
    "none": "no link",
    "nvswitch": "NVLink (all-to-all)",
    "nvlink_bridge": "an NVLink bridge",
    "pcie_p2p": "PCIe peer-to-peer",
    "pcie_host": "PCIe through host memory",
}
_PRECISION: dict[PrecisionNote, str] = {
    "as_requested": "",
    "tf32_assumed": "fp32 runs as TF32 on tensor cores (NGC default; --no-tf32 turns it off)",
    "tf32_disabled": "fp32 on CUDA cores (TF32 turned off)",
    "no_tensor_cores_fp32": "no tensor cores for this precision: FP32 CUDA cores",
    "tensor_rate_unknown_fp32": (
        "no source gives this card's 16-bit tensor rate: its FP32 rate assumed (a lower bound)"
    ),
    "bf16_unsupported_fp16_used": "bf16 needs Ampere or newer: fp16 assumed",
    "fp8_unsupported_fp16_used": "fp8 needs Ada or Hopper: fp16 assumed",
    "fp8_rate_unknown_fp16_used": (
        "no source gives this card's fp8 tensor rate: its fp16 rate assumed (fp8 may run faster)"
    ),
    "int8_unsupported_fp16_used": "no int8 tensor rate known: fp16 assumed",
}
_BOTTLENECK = {
    "compute_bound": "tensor/matmul compute",
    "attention_bound": "attention kernels",
    "memory_bound": "memory bandwidth (elementwise and normalization)",
    "recurrent_bound": "recurrent cells re-reading their weights",
    "launch_overhead": "host dispatch (kernels shorter than their launches)",
    "recompute": "activation checkpointing's recomputed forward",
    "pipeline_bubble": "pipeline bubble (stages idle while the pipeline fills and drains)",
    "offload": "offloaded activations and optimizer state (PCIe copies, the CPU's optimizer step)",
    "optimizer_step": "optimizer step (memory bound)",
    "data_loading": "CPU data loading",
    "storage_read": "storage read rate",
    "host_to_device": "host-to-device copies",
    "communication": "gradient all-reduce",
}


_EXCHANGE = {
    "gradients": "gradient all-reduce",
    "sharded": "ZeRO-3/FSDP weight all-gather and gradient reduce-scatter",
    "model_parallel": "tensor/pipeline-parallel activation exchange",
    "mixed": "activation and gradient exchange",
}


def bottleneck_text(b: Bottleneck) -> str:
    """ "gradient all-reduce over PCIe 4.0 x8 through host memory: 41% of step time"."""
    what = _BOTTLENECK[b.code]
    if b.code == "communication":
        what = _EXCHANGE[b.exchange]
        where = _LINK[b.link]
        if b.pcie_gen is not None and b.link.startswith("pcie"):
            where = where.replace("PCIe", f"PCIe {b.pcie_gen}.0 x{b.lanes}")
        what = f"{what} over {where}"
    elif b.code == "host_to_device" and b.pcie_gen is not None:
        what = f"{what} over PCIe {b.pcie_gen}.0 x{b.lanes}"
    if b.sets_pace:
        return f"{what} sets the pace: the GPUs wait {b.share_of_step:.0%} of each step"
    return f"{what}: {b.share_of_step:.0%} of step time"


def link_text(kind: LinkKind) -> str:
    """What joins the GPUs, in a user's words ("PCIe through host memory")."""
    return _LINK[kind]


def precision_text(note: PrecisionNote) -> str:
    return _PRECISION[note]


def step_scope_text(workload: Workload | None) -> str:
    """What one "step" of the breakdown is: "" for one batch per optimizer step, else
    "one micro-batch of 4 per optimizer step, which share its gradient exchange,
    optimizer update and pipeline bubble" (the figures are per micro-batch; the bubble
    named only for a pipeline)."""
    if workload is None or not workload.trains or workload.grad_accum_steps <= 1:
        return ""
    shared = "gradient exchange, optimizer update"
    shared += " and pipeline bubble" if workload.pp_degree > 1 else ""
    return (
        f"one micro-batch of {workload.grad_accum_steps} per optimizer step, which share "
        f"its {shared}"
    )


STEP_PARTS: tuple[tuple[str, str], ...] = (
    ("matmul_s", "matmul/conv"),
    ("attention_s", "attention"),
    ("recurrent_s", "recurrent"),
    ("memory_bound_s", "memory-bound"),
    ("launch_overhead_s", "host dispatch"),
    ("recompute_s", "recompute"),
    ("pipeline_bubble_s", "pipeline bubble"),
    ("offload_s", "offload"),
    ("data_loading_exposed_s", "data loading"),
    ("host_to_device_exposed_s", "host→GPU"),
    ("communication_exposed_s", "communication"),
)
"""The parts of a training step (``StepBreakdown``) in the user's words: the chart, the
results table, the build sheet and ``rigforge predict``."""


def result_lines(r: ThroughputResult, workload: Workload | None = None) -> list[str]:
    b = r.breakdown
    lines = [
        f"throughput: {r.total_throughput:,.0f} {r.unit} total, "
        f"{r.per_gpu_throughput:,.0f} per GPU on {r.gpus} GPU(s)",
        f"compute precision: {r.compute_precision}"
        + (f" ({precision_text(r.precision_note)})" if r.precision_note != "as_requested" else ""),
        f"step: {b.step_s * 1e3:.1f} ms = "
        + " + ".join(f"{label} {getattr(b, key) * 1e3:.1f}" for key, label in STEP_PARTS)
        + " ms",
        f"utilization {r.utilization:.0%}, model FLOPs utilization {r.mfu:.0%}",
        f"bottleneck: {bottleneck_text(r.bottleneck)}",
    ]
    if scope := step_scope_text(workload):
        lines.insert(3, f"  (step = {scope})")
    if r.gpus > 1:
        lines.append(f"GPU link: {link_text(r.link)}, {r.link_gb_s:.1f} GB/s per direction")
        lines.append(
            "scaling: "
            + ", ".join(
                f"{p.gpus}: {p.total_throughput:,.0f} ({p.efficiency:.0%})" for p in r.scaling
            )
        )
    if r.time_to_target_s is not None:
        lines.append(f"time to target: {r.time_to_target_s / 3600:.1f} h")
    return lines


def report_lines(report: dict[str, Any]) -> list[str]:
    def fmt(v: float | None, suffix: str) -> str:
        return "n/a" if v is None else f"{v:.1f}{suffix}"

    lines = [
        f"rows resolved: {report['resolved']} / {report['rows']}",
        f"total throughput abs error: median {fmt(report['median_abs_pct_error'], '%')}, "
        f"90th percentile {fmt(report['p90_abs_pct_error'], '%')}",
        f"scaling efficiency abs error: median "
        f"{fmt(report['scaling_median_abs_error_pts'], ' points')} "
        f"over {report['scaling_rows']} multi-GPU rows (FLAG: rows skipped)",
        "Spearman rank correlation by workload:",
    ]
    for model, rho in report["spearman_by_workload"].items():
        lines.append(f"  {rho:6.3f}  {model}")
    for item in report["unresolved"]:
        lines.append(f"unresolved line {item['line']}: {item['reason']}")
    return lines
