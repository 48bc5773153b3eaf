"""One serving analysis: memory on the fullest GPU, speed on the build's machine, cost."""

from __future__ import annotations

from core.calc.inference.constants import FITTED, InferenceConstants, default_backend
from core.calc.inference.launch import launch_command
from core.calc.inference.memory import experts_to_fit, inference_memory, memory_fixes
from core.calc.inference.model import GIB, LlmShape
from core.calc.platform.power import HOURS_PER_YEAR as POWER_HOURS_PER_YEAR
from core.calc.rig import Rig, serving_speed
from core.models.inference import InferenceCost, InferenceResult
from core.models.settings import AnalysisSettings
from core.models.workload import Serving, Workload

HOURS_PER_YEAR = POWER_HOURS_PER_YEAR
"""The same year as the electricity figures (8,760 h), so the two costs add up."""


def serve(
    rig: Rig,
    workload: Workload,
    settings: AnalysisSettings,
    parts_usd: float | None,
    *,
    years: int = 3,
    constants: InferenceConstants = FITTED,
    curves: bool = True,
) -> InferenceResult:
    """Memory, speed and cost of serving ``workload`` on ``rig``; with several GPUs and no
    fit, the memory fixes."""
    serving = workload.serving_settings
    gpu, count = rig.gpu, rig.count
    moved: dict[str, float] = {}
    if serving.offload_to_fit:
        serving, moved = fit_by_offloading(workload, serving, gpu.vram_gib, count, constants)
        workload = workload.model_copy(update={"serving": serving})
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
    speed = serving_speed(
        workload,
        serving,
        rig,
        max_streams=memory.max_streams,
        constants=constants,
        curves=curves,
    )
    cost = _cost(speed.aggregate_decode_tokens_s, speed.decode_power_w, parts_usd, settings, years)
    return InferenceResult(
        memory=memory,
        speed=speed,
        cost=cost,
        engine_basis=constants.engine(
            serving.engine, gpu.vendor, serving.backend, serving.engine_build
        ).basis,
        launch_command=launch_command(workload, count, backend=default_backend(gpu.vendor)),
        offloaded_to_fit=moved,
    )


def fit_by_offloading(
    workload: Workload,
    serving: Serving,
    capacity_gib: float,
    count: int,
    constants: InferenceConstants = FITTED,
) -> tuple[Serving, dict[str, float]]:
    """``serving`` with just what does not fit kept in host RAM: the experts of the fewest
    first layers (an MoE model on llama.cpp), else the fewest whole GiB of weights; as it
    is when it fits, or when even everything on the host would not."""
    if inference_memory(workload, serving, capacity_gib, count, constants, with_fixes=False).fits:
        return serving, {}
    n = experts_to_fit(workload, serving, capacity_gib, count, constants)
    if n is not None:
        return serving.model_copy(update={"n_cpu_moe": n}), {"n_cpu_moe": float(n)}

    def fits(gib: int) -> bool:
        trial = serving.model_copy(update={"offload_gib": float(gib)})
        return inference_memory(
            workload, trial, capacity_gib, count, constants, with_fixes=False
        ).fits

    shape = LlmShape.of(workload.architecture, serving.engine)
    high = int(shape.weight_bytes(serving.weights) / GIB) + 1
    if not fits(high):
        return serving, {}
    low = 0
    while low < high:
        middle = (low + high) // 2
        if fits(middle):
            high = middle
        else:
            low = middle + 1
    return serving.model_copy(update={"offload_gib": float(high)}), {"offload_gib": float(high)}


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
