"""Prebuilt unified-memory systems: one box whose CPU and GPU share the same memory.

NVIDIA's DGX Spark (GB10) and its OEM twins, AMD Ryzen AI Max+ 395 ("Strix Halo")
machines, Apple's Mac Studio and Mac mini. What a serving plan needs: the memory, the
share of it the accelerator may use by default and at most (and how that is set), its
bandwidth and compute, the CPU, storage, network ports, wall power and a dated price,
each from the sources the entry lists (``resources/systems/systems.json``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from core.models.checks import Check, Verdict
from core.models.common import Frozen, NonEmptyStr, Price, newest
from core.models.inference import InferenceCost, InferenceMemory, InferenceSpeed

Backend = Literal["cuda", "rocm", "vulkan", "metal", "mlx", "sycl"]
"""GPU software an engine runs on: NVIDIA CUDA, AMD ROCm (HIP), Vulkan, Apple Metal,
Apple's MLX framework, Intel SYCL (oneAPI)."""
BACKENDS: tuple[Backend, ...] = ("cuda", "rocm", "vulkan", "metal", "mlx", "sycl")
SystemFamily = Literal["gb10", "strix-halo", "apple-m3-ultra", "apple-m4-max", "apple-m4-pro"]


class Port(Frozen):
    name: NonEmptyStr
    gbit_s: Annotated[float, Field(gt=0, le=10_000)]


class PairCable(Frozen):
    """What links two of a system for a pair, with its dated price."""

    name: NonEmptyStr
    price: Price


class System(Frozen):
    """One prebuilt system at one memory configuration."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")]
    name: NonEmptyStr
    maker: NonEmptyStr
    aliases: tuple[NonEmptyStr, ...] = ()
    family: SystemFamily
    vendor: Literal["NVIDIA", "AMD", "Apple"]
    memory_gb: Annotated[float, Field(gt=0, le=4096)]
    memory_type: str | None = None
    memory_bandwidth_gb_s: Annotated[float, Field(gt=0, le=100_000)]
    gpu_share: Annotated[float, Field(gt=0, le=1)]
    """Share of the memory the accelerator may use as the system ships."""
    gpu_max_gb: Annotated[float, Field(gt=0, le=4096)]
    """The most it can be given (``gpu_share_how`` says how)."""
    gpu_share_how: NonEmptyStr
    gpu_name: NonEmptyStr
    gpu_architecture: Literal["blackwell", "rdna3", "apple"]
    fp32_tflops: Annotated[float, Field(gt=0, le=10_000)] | None = None
    fp16_tflops: Annotated[float, Field(gt=0, le=100_000)] | None = None
    """Dense 16-bit matrix rate (tensor cores where there are some)."""
    fp8_tflops: Annotated[float, Field(gt=0, le=100_000)] | None = None
    compute_basis: NonEmptyStr
    cpu_name: NonEmptyStr
    cpu_cores: Annotated[int, Field(ge=1, le=512)]
    storage_gb: Annotated[float, Field(gt=0, le=1_000_000)] | None = None
    ports: tuple[Port, ...] = ()
    idle_w: Annotated[float, Field(gt=0, le=10_000)] | None = None
    load_w: Annotated[float, Field(gt=0, le=10_000)] | None = None
    """Wall power under LLM load (measured where a source measured it)."""
    adapter_w: Annotated[float, Field(gt=0, le=10_000)] | None = None
    power_basis: str = ""
    backends: tuple[Backend, ...]
    pair_cable: PairCable | None = None
    """The cable two of them are linked by (``None``: no source prices one)."""
    price: Price
    observations: tuple[Price, ...] = ()
    sources: Annotated[tuple[NonEmptyStr, ...], Field(min_length=1)]
    notes: Annotated[str, Field(max_length=4000)] = ""

    @model_validator(mode="after")
    def _share(self) -> System:
        if self.gpu_max_gb > self.memory_gb:
            raise ValueError("gpu_max_gb exceeds memory_gb")
        if self.gpu_default_gb > self.gpu_max_gb:
            raise ValueError("the share as shipped exceeds gpu_max_gb")
        if self.fp16_tflops is None and self.fp32_tflops is None:
            raise ValueError("a system needs a 16-bit or an FP32 rate (compute_basis says how)")
        return self

    @property
    def gpu_default_gb(self) -> float:
        return self.memory_gb * self.gpu_share

    def with_newest_price(self) -> System:
        best = newest([self.price, *self.observations])
        return (
            self if best is None or best is self.price else self.model_copy(update={"price": best})
        )

    def fastest_port(self) -> Port | None:
        return max(self.ports, key=lambda p: p.gbit_s, default=None)


class SystemServing(Frozen):
    """Serving an LLM on ``nodes`` × ``system`` (``core.calc.system.serve_system``)."""

    system: System
    nodes: int
    memory: InferenceMemory
    speed: InferenceSpeed
    link_gb_s: float | None
    """The pair's link, GB/s per direction (``None`` for one system)."""
    split: Literal["layer", "tensor"] = "layer"
    """How a pair shares the model: layers, or each layer (tensor parallel)."""
    gpu_gib: float
    """Memory the accelerator may be given on each node (the most it can be set to)."""
    default_gib: float
    """What it may use as shipped."""
    engine_basis: str
    backend: str
    parts_usd: float | None
    """The systems' price (a pair: both and the cable); ``None`` when any is unknown."""
    wall_w: float | None
    cost: InferenceCost | None = None
    checks: tuple[Check, ...] = ()
    """Those that apply to a prebuilt system (``core.calc.system.system_checks``)."""
    verdict: Verdict = "pass"
