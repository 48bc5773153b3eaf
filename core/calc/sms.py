"""Streaming multiprocessors of a GPU: the sourced count, or from its FP32 peak and boost clock.

Both models bound the DRAM bandwidth a kernel reaches by what the SMs keep in flight
(Little's law: bytes in flight per SM over the memory latency), so both count SMs here.
"""

from __future__ import annotations

from core.models.parts import GPU

LANES_PER_SM = {
    "pascal": 128,
    "volta": 64,
    "turing": 64,
    "ampere": 128,
    "ada": 128,
    "hopper": 128,
    "blackwell": 128,
}
"""FP32 lanes per SM (NVIDIA architecture whitepapers: GA10x 128, GA100 64, Volta and
Turing 64, Ada, Hopper and Blackwell 128)."""


def sm_count(gpu: GPU) -> float | None:
    """SMs as a source gives them, else from the FP32 peak, the boost clock and the lanes
    per SM (``None`` if unknown)."""
    if gpu.sm_count is not None:
        return float(gpu.sm_count)
    lanes = LANES_PER_SM.get(gpu.architecture)
    if lanes is None or gpu.fp32_tflops is None or not gpu.boost_clock_mhz:
        return None
    if gpu.chip == "GA100":
        lanes = 64  # A100 40 and 80 GB, A30 (the GA100 SM has 64 FP32 lanes)
    return gpu.fp32_tflops * 1e12 / (2.0 * lanes * gpu.boost_clock_mhz * 1e6)
