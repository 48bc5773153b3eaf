"""Serving on a prebuilt unified-memory system, or a pair of them linked by a network.

The system's GPU becomes the ``GPU`` the serving model reads: its memory the share the
accelerator may be given (``System.gpu_max_gb``, with the setting that gives it), its
bandwidth the system's, its rates the sourced (or derived, as the entry says) ones. Two
identical systems split the layers over their fastest port (``--nodes 2``): each
boundary sends the step's activations, a message's latency plus its bytes over the link.
Weights offloaded to host RAM make no sense here: the GPU already uses host memory.
"""

from __future__ import annotations

from core.calc.inference.constants import DEFAULT_BACKENDS, FITTED
from core.calc.inference.memory import inference_memory
from core.calc.inference.serve import _cost
from core.calc.inference.speed import Link, inference_speed
from core.calc.platform.checks import circuit_check
from core.calc.verdict import judge
from core.errors import RigForgeError
from core.models.checks import Check, Number
from core.models.common import Price
from core.models.inference import InferenceMemory
from core.models.parts import GPU, TensorTflops
from core.models.session import SystemPlan
from core.models.settings import AnalysisSettings
from core.models.system import System, SystemServing
from core.models.workload import Workload

NETWORK_LATENCY_S = 200e-6
"""One activation message between two machines (llama.cpp's RPC backend over TCP): an
assumption of this order (a TCP round trip on a direct link is tens to hundreds of
microseconds), stated in docs/inference-model.md; it matters per layer boundary."""

GB_PER_GIB = 2**30 / 1e9


def accelerator(system: System) -> GPU:
    """The system's GPU as the serving model reads one (no PCIe slot: an integrated GPU;
    memory the most the accelerator may be given, in GiB as LPDDR capacities are)."""
    return GPU(
        id=f"{system.id}-gpu",
        name=system.gpu_name,
        price=Price(usd=None, kind="unknown", source=f"part of {system.name}"),
        vendor=system.vendor,
        architecture=system.gpu_architecture,
        vram_gib=system.gpu_max_gb,
        memory_bandwidth_gb_s=system.memory_bandwidth_gb_s,
        fp32_tflops=system.fp32_tflops,
        tensor_tflops=TensorTflops(
            fp16=system.fp16_tflops, bf16=system.fp16_tflops, fp8=system.fp8_tflops
        ),
        board_power_w=system.load_w,
        base_clock_mhz=None,
        boost_clock_mhz=None,
        pcie_gen=4,
        pcie_lanes=16,
        form_factor="superchip",
        sources=system.sources,
    )


def network_link(system: System) -> Link:
    port = system.fastest_port()
    if port is None:
        raise RigForgeError(f"no source gives {system.name}'s network ports: it cannot be paired")
    return Link("network", port.gbit_s / 8.0, NETWORK_LATENCY_S)


def serve_system(
    system: System,
    workload: Workload,
    nodes: int = 1,
    *,
    settings: AnalysisSettings | None = None,
    curves: bool = False,
) -> SystemServing:
    """Memory and speed of serving ``workload`` on ``nodes`` × ``system``."""
    serving = workload.serving_settings
    if serving.offload_gib or serving.n_cpu_moe:
        raise RigForgeError(
            f"{system.name} has one memory for CPU and GPU: offloading weights or experts "
            "to host RAM moves nothing (leave --offload-gb and --n-cpu-moe at 0)"
        )
    if serving.backend is not None and serving.backend not in system.backends:
        raise RigForgeError(
            f"{system.name} runs {', '.join(system.backends)}, not {serving.backend}"
        )
    gpu = accelerator(system)
    memory = inference_memory(workload, serving, gpu.vram_gib, nodes, FITTED, with_fixes=False)
    link = network_link(system) if nodes > 1 else None
    speed = inference_speed(
        workload,
        serving,
        gpu,
        nodes,
        link=link or Link("host", 1.0),
        host_gb_s=system.memory_bandwidth_gb_s,
        pcie_gb_s=system.memory_bandwidth_gb_s,
        cpu_cores=system.cpu_cores,
        max_streams=memory.max_streams,
        curves=curves,
    )
    basis = FITTED.engine(serving.engine, system.vendor, serving.backend).basis
    settings = settings or AnalysisSettings()
    checks = system_checks(system, nodes, memory, settings)
    parts = pair_price(system, nodes)
    wall = system.load_w * nodes if system.load_w is not None else None
    cost = _cost(speed.aggregate_decode_tokens_s, wall, parts, settings, 3)
    return SystemServing(
        system=system,
        nodes=nodes,
        memory=memory,
        speed=speed,
        link_gb_s=link.gb_s if link else None,
        split=serving.split,
        gpu_gib=system.gpu_max_gb,
        default_gib=system.gpu_default_gb,
        engine_basis=basis,
        backend=serving.backend or DEFAULT_BACKENDS[system.vendor],
        parts_usd=parts,
        wall_w=wall,
        cost=cost,
        checks=checks,
        verdict=judge(checks),
    )


def pair_price(system: System, nodes: int) -> float | None:
    """One system's price, or a pair's: both and the cable that links them (unknown when
    any of these is: never counted as zero)."""
    if system.price.usd is None:
        return None
    if nodes == 1:
        return system.price.usd
    cable = system.pair_cable.price.usd if system.pair_cable is not None else None
    return None if cable is None else system.price.usd * nodes + cable


def system_checks(
    system: System, nodes: int, memory: InferenceMemory, settings: AnalysisSettings
) -> tuple[Check, ...]:
    """The checks that apply to a prebuilt system (no slots, PSU or cables to choose): the
    accelerator's memory share, the wall circuit, the drive, the price and a pair's link."""
    return (
        _memory_check(system, memory),
        _circuit_check(system, nodes, settings),
        _storage_check(system, memory),
        *_price_checks(system, nodes),
    )


def _memory_check(system: System, memory: InferenceMemory) -> Check:
    numbers: dict[str, Number] = {
        "total_gib": round(memory.total_gib, 1),
        "gpu_gib": system.gpu_max_gb,
        "default_gib": round(system.gpu_default_gb),
        "memory_gb": system.memory_gb,
        "max_streams": memory.max_streams,
        "how": system.gpu_share_how,
    }
    if not memory.fits:
        return Check(
            id="system.memory", severity="fail", reason="system_memory_exceeds", numbers=numbers
        )
    if memory.total_gib > system.gpu_default_gb:
        return Check(
            id="system.memory", severity="warn", reason="system_memory_share", numbers=numbers
        )
    return Check(id="system.memory", severity="pass", reason="system_memory_fits", numbers=numbers)


def _circuit_check(system: System, nodes: int, settings: AnalysisSettings) -> Check:
    """Load power of every node on the one circuit, as a build's wall draw is judged."""
    if system.load_w is None:
        return Check(id="power.circuit", severity="info", reason="system_power_unknown")
    return circuit_check(system.load_w * nodes, settings)


def _storage_check(system: System, memory: InferenceMemory) -> Check:
    """The weights file on the system's drive (each node holds its own copy)."""
    weights_gb = memory.weights_gib * GB_PER_GIB
    if system.storage_gb is None:
        return Check(id="system.storage", severity="info", reason="system_storage_unknown")
    numbers: dict[str, Number] = {
        "weights_gb": round(weights_gb, 1),
        "storage_gb": system.storage_gb,
    }
    ok = weights_gb <= system.storage_gb
    return Check(
        id="system.storage",
        severity="pass" if ok else "fail",
        reason="system_storage_ok" if ok else "system_storage_short",
        numbers=numbers,
    )


def _price_checks(system: System, nodes: int) -> tuple[Check, ...]:
    checks = []
    if system.price.usd is None:
        checks.append(
            Check(
                id="system.price",
                severity="info",
                reason="system_price_unknown",
                numbers={"why": system.price.source},
            )
        )
    if nodes > 1:
        port = system.fastest_port()
        numbers: dict[str, Number] = {"port": port.name if port else "a network port"}
        cable = system.pair_cable
        if cable is not None and cable.price.usd is not None:
            numbers |= {"cable": cable.name, "usd": f"${cable.price.usd:,.0f}"}
            numbers |= {"as_of": str(cable.price.as_of)}
            checks.append(
                Check(
                    id="system.link", severity="info", reason="system_pair_cable", numbers=numbers
                )
            )
        else:
            checks.append(
                Check(id="system.link", severity="info", reason="system_pair_link", numbers=numbers)
            )
    return tuple(checks)


NOT_SERVING = "compared for serving an LLM: set the task to inference on a decoder"


def serve_plan(
    plan: SystemPlan, workload: Workload | None, settings: AnalysisSettings
) -> SystemServing | str:
    """A comparison's prebuilt system on its workload, or why there is no plan (words:
    the workload is not a served LLM, or the system refuses it)."""
    if workload is None or not workload.is_serving:
        return NOT_SERVING
    try:
        return serve_system(plan.system, workload, plan.nodes, settings=settings, curves=True)
    except RigForgeError as error:
        return str(error)
