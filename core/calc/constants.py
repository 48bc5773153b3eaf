"""Global constants of the performance model: a handful, fitted once on all calibration rows.

None of them is per GPU or per benchmark row. The fitted ones come from
``benchmarks/fit_throughput.py`` (log-error least squares over the bundled
``resources/benchmarks/throughput_calibration.csv``); the measured ones cite their source.
See docs/performance-model.md for the fit and the validation figures it reaches.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from core.models.common import Frozen

Fraction = Annotated[float, Field(gt=0, le=1.5)]


class ThroughputConstants(Frozen):
    # --- achievable fraction of peak, by operation class and generation (fitted) ---
    eta_tensor_volta_turing: Fraction
    """Tensor-core matmul/conv efficiency on Volta and Turing."""
    eta_tensor_ampere_ada: Fraction
    eta_tensor_hopper_blackwell: Fraction
    eta_simt_fp32: Fraction
    """Matmul efficiency on FP32 CUDA cores (no tensor cores in use)."""
    attention_rel: Fraction
    """Attention (s^2) kernels relative to large matmuls (unfused softmax chain)."""
    recurrent_rel: Fraction
    """Recurrent-cell matmuls relative to large matmuls (small per-timestep GEMMs)."""
    eta_memory: Fraction
    """Fraction of peak DRAM bandwidth reached by elementwise and weight streaming."""
    elementwise_bytes_per_activation: Annotated[float, Field(gt=0, le=100)]
    """Activation-element passes over DRAM per training step (forward + backward), x bytes."""
    launch_s_per_layer: Annotated[float, Field(ge=0, le=1e-2)]
    """Host launch time per layer per training step (PyTorch eager, fwd+bwd)."""
    launch_s_per_loop_step: Annotated[float, Field(ge=0, le=1e-1)]
    """Host time per timestep of a Python-stepped recurrence per training step."""
    # --- communication ---
    eta_link: Fraction
    """Achieved fraction of per-direction link bandwidth for NCCL ring all-reduce (fitted)."""
    host_staging_factor: Fraction
    """All-reduce through host memory (no P2P) relative to direct PCIe P2P (fitted)."""
    overlap_fraction: Annotated[float, Field(ge=0, le=1)]
    """Share of backward time that can hide all-reduce (bucketed DDP, fitted)."""
    allreduce_latency_s: Annotated[float, Field(ge=0, le=1e-1)]
    """Per-step fixed synchronisation cost of one multi-GPU step (fitted)."""
    # --- measured, not fitted ---
    eta_pcie_h2d: Fraction = 0.88
    """Source: stas00/ml-engineering network/README.md nvbandwidth, 8x H200 on PCIe 5.0 x16,
    host->device 55.43 GB/s = 88% of the 63 GB/s per-direction spec."""
    tf32_default_on: bool = True
    """NGC PyTorch containers enable TF32 for convolutions and matmuls by default."""


FITTED = ThroughputConstants(
    eta_tensor_volta_turing=0.40,
    eta_tensor_ampere_ada=0.40,
    eta_tensor_hopper_blackwell=0.30,
    eta_simt_fp32=0.70,
    attention_rel=0.5,
    recurrent_rel=0.5,
    eta_memory=0.7,
    elementwise_bytes_per_activation=8.0,
    launch_s_per_layer=1e-4,
    launch_s_per_loop_step=3e-3,
    eta_link=0.8,
    host_staging_factor=0.5,
    overlap_fraction=0.7,
    allreduce_latency_s=2e-3,
)
"""Fitted values (placeholder until the fit runs; see FIT_INFO)."""

FIT_INFO = "not yet fitted"
