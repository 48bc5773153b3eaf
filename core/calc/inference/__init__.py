"""LLM serving: memory, prefill, time to first token, generation speed, users served, cost.

``serve`` is the one entry point; ``core.calc.analysis`` calls it for decoder inference.
"""

from __future__ import annotations

from core.calc.inference.constants import FITTED, InferenceConstants
from core.calc.inference.memory import inference_memory, memory_fixes
from core.calc.inference.speed import Link, inference_speed
from core.calc.platform.power import HOURS_PER_YEAR as POWER_HOURS_PER_YEAR
from core.calc.platform.power import POWER_LIMIT_EXPONENT, power_limit_throughput_factor
from core.models.build import Build
from core.models.inference import InferenceCost, InferenceResult, InferenceSpeed
from core.models.parts import GPU
from core.models.pcie import PcieAssignment
from core.models.settings import AnalysisSettings
from core.models.workload import Serving, Workload

__all__ = [
    "inference_memory",
    "inference_speed",
    "is_serving",
    "serve",
    "serving_of",
    "with_power_limit",
]

HOURS_PER_YEAR = POWER_HOURS_PER_YEAR
"""The same year as the electricity figures (8,760 h), so the two costs add up."""


def is_serving(workload: Workload | None) -> bool:
    """Whether ``workload`` is LLM serving (decoder inference)."""
    return workload is not None and workload.is_serving


def serving_of(workload: Workload) -> Serving:
    """The workload's serving settings; the defaults from its precision and lengths."""
    return workload.serving_settings


def with_power_limit(
    speed: InferenceSpeed,
    gpu: GPU,
    count: int,
    limit_w: float,
    constants: InferenceConstants = FITTED,
) -> InferenceSpeed:
    """The speeds under a per-GPU power cap. Prompt processing runs near board power
    (``prefill_power_fraction``), so any cap below it slows it by the power-limit model
    (``power_limit_throughput_factor``, Puget Systems' measurement); generation draws
    only ``decode_power_fraction`` of board power (it waits on memory), so a cap slows it
    only once it falls below that draw, by the same law relative to the draw."""
    board = gpu.board_power_w
    if board is None:
        return speed
    prefill = power_limit_throughput_factor(gpu, limit_w / constants.prefill_power_fraction)
    decode_w = board * constants.decode_power_fraction
    decode = 1.0 if limit_w >= decode_w else (limit_w / decode_w) ** POWER_LIMIT_EXPONENT
    capped = min(decode_w, limit_w) * count
    return speed.model_copy(
        update={
            "prefill_tokens_s": speed.prefill_tokens_s * prefill,
            "ttft_s": speed.ttft_s / min(prefill, decode),
            "decode_tokens_s_per_stream": speed.decode_tokens_s_per_stream * decode,
            "aggregate_decode_tokens_s": speed.aggregate_decode_tokens_s * decode,
            "decode_power_w": capped,
            "prefill_power_w": min(board * constants.prefill_power_fraction, limit_w) * count,
        }
    )


def build_link(build: Build, assignment: PcieAssignment) -> Link:
    """What joins the build's GPUs: NVLink bridges, PCIe peer-to-peer, or host memory, at
    the slowest GPU's PCIe link (the board's slot wiring)."""
    links = assignment.gpu_links
    pcie = min((g.bandwidth_gb_s for g in links), default=16.0)
    gpu = build.gpu
    if build.nvlink_bridges and gpu.nvlink_gb_s:
        return Link(kind="nvlink", gb_s=gpu.nvlink_gb_s / 2.0)
    if gpu.form_factor != "pcie" and gpu.nvlink_gb_s:
        return Link(kind="nvlink", gb_s=gpu.nvlink_gb_s / 2.0)
    if gpu.p2p_pcie == "yes":
        return Link(kind="pcie", gb_s=pcie)
    return Link(kind="host", gb_s=pcie / 2.0)


def host_bandwidth_gb_s(build: Build) -> float:
    """Peak host DRAM bandwidth: channels × transfer rate × 8 bytes (JEDEC DDR4/DDR5)."""
    channels = build.cpu.memory_channels * build.cpu_count
    populated = min(channels, build.dimm_count)
    return populated * build.memory.speed_mt_s * 8.0 / 1000.0


def serve(
    build: Build,
    workload: Workload,
    assignment: PcieAssignment,
    settings: AnalysisSettings,
    parts_usd: float | None,
    *,
    years: int = 3,
    constants: InferenceConstants = FITTED,
) -> InferenceResult:
    serving = serving_of(workload)
    gpu, count = build.gpu, build.gpu_count
    options = tuple(range(count, 1, -1)) if count > 1 else ()
    memory = inference_memory(workload, serving, gpu.vram_gib, count, constants)
    if not memory.fits and count > 1:
        memory = memory.model_copy(
            update={
                "fixes": memory_fixes(
                    workload, serving, gpu.vram_gib, count, constants, gpu_options=options
                )
            }
        )
    links = assignment.gpu_links
    pcie = min((g.bandwidth_gb_s for g in links), default=16.0)
    speed = inference_speed(
        workload,
        serving,
        gpu,
        count,
        link=build_link(build, assignment),
        host_gb_s=host_bandwidth_gb_s(build),
        pcie_gb_s=pcie,
        max_streams=memory.max_streams,
        constants=constants,
    )
    if build.gpu_power_limit_w is not None:
        speed = with_power_limit(speed, gpu, count, build.gpu_power_limit_w, constants)
    cost = _cost(speed.aggregate_decode_tokens_s, speed.decode_power_w, parts_usd, settings, years)
    return InferenceResult(
        memory=memory,
        speed=speed,
        cost=cost,
        engine_basis=constants.engine(serving.engine, gpu.vendor).basis,
    )


def _cost(
    tokens_s: float,
    power_w: float | None,
    parts_usd: float | None,
    settings: AnalysisSettings,
    years: int,
) -> InferenceCost:
    hours = HOURS_PER_YEAR * years * settings.utilization
    millions = tokens_s * 3600.0 * hours / 1e6
    electricity = None
    if power_w is not None and tokens_s > 0:
        kwh_per_million = power_w / 1000.0 / (tokens_s * 3600.0 / 1e6)
        electricity = kwh_per_million * settings.electricity_usd_per_kwh
    per_million = None
    if parts_usd is not None and millions > 0 and electricity is not None:
        per_million = parts_usd / millions + electricity
    break_even = None
    api = settings.api_usd_per_million_tokens
    if api is not None and parts_usd is not None and electricity is not None and api > electricity:
        per_month = tokens_s * 3600.0 * HOURS_PER_YEAR / 12.0 * settings.utilization / 1e6
        if per_month > 0:
            break_even = parts_usd / ((api - electricity) * per_month)
    return InferenceCost(
        usd_per_million_tokens=per_million,
        electricity_usd_per_million_tokens=electricity,
        lifetime_years=years,
        break_even_months=break_even,
    )
