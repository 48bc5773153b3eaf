"""One analysis of a build running a workload: every check, memory, throughput, power and cost.

``analyze`` is the single entry point the GUI, CLI and PDF use. It computes each piece
once (PCIe placement, power budget, memory, throughput, prices) and adds the checks that
need the workload (VRAM fit, host RAM, data-loading cores, storage read rate).
"""

from __future__ import annotations

import math

from core.calc.cost.parts import parts_cost, price_lines
from core.calc.cost.tco import cost_report
from core.calc.fixes import with_throughput_cost
from core.calc.inference import is_serving
from core.calc.inference.serve import serve
from core.calc.inference.split import tensor_split_refused
from core.calc.memory import estimate_vram
from core.calc.parallel import check_gpu_count
from core.calc.platform.checks import run_checks
from core.calc.platform.pcie import assign_pcie
from core.calc.platform.power import power_budget
from core.calc.rig import Rig, rig_of, training_throughput
from core.calc.verdict import judge
from core.catalog import Catalog
from core.errors import AnalysisFailed, InvalidWorkload
from core.models.analysis import Analysis
from core.models.build import Build
from core.models.checks import Check, Fix
from core.models.cost import CloudRate, PriceLine
from core.models.host import HostDemand
from core.models.inference import InferenceResult
from core.models.memory import VramResult
from core.models.pcie import PcieAssignment
from core.models.power import PowerBudget
from core.models.settings import AnalysisSettings
from core.models.throughput import ThroughputResult
from core.models.workload import Workload

CHECKPOINT_COPIES = 3
"""Checkpoints kept on disk when sizing storage (an assumption, stated in the check)."""
BYTES_PER_CHECKPOINT_PARAM = 16
"""fp32 weights + Adam moments + fp16/bf16 copy: the ZeRO paper's 16 bytes per parameter."""


def _vram_check(vram: VramResult) -> Check:
    numbers: dict[str, float | str] = {
        "total_gib": round(vram.total_gib, 1),
        "capacity_gib": round(vram.capacity_gib, 1),
        "max_batch": vram.max_batch_size,
    }
    if vram.fits:
        return Check(id="vram.fit", severity="pass", reason="vram_fits", numbers=numbers)
    return Check(
        id="vram.fit",
        severity="fail",
        reason="vram_exceeds",
        numbers=numbers,
        fix=vram.best_fix,
    )


def _demand(
    workload: Workload, vram: VramResult, throughput: ThroughputResult | None, cores_now: int
) -> HostDemand:
    arch = workload.architecture
    read_mb_s = None
    bytes_per_sample = workload.bytes_per_sample or arch.input_bytes_per_sample
    if throughput is not None and bytes_per_sample:
        read_mb_s = throughput.samples_per_s * bytes_per_sample / 1e6
    storage_gb = None
    if workload.dataset_samples and bytes_per_sample:
        storage_gb = workload.dataset_samples * bytes_per_sample / 1e9
        storage_gb += CHECKPOINT_COPIES * arch.params_total * BYTES_PER_CHECKPOINT_PARAM / 1e9
    cores, wait = _loading_cores(throughput, cores_now)
    return HostDemand(
        host_ram_gib=vram.host_ram_gib,
        storage_read_mb_s=read_mb_s,
        storage_gb=storage_gb,
        data_loading_cores=cores,
        loader_wait=wait,
    )


def _loading_cores(throughput: ThroughputResult | None, cores: int) -> tuple[float | None, float]:
    """Cores whose data loading would keep up with the GPUs, and the share of each step
    the GPUs wait on loading now. The loader's rate grows with its cores
    (``core.calc.performance.hostio``): with the GPUs waiting ``w`` of a step ``s``, the
    loader takes ``s`` where the GPUs take ``s - w``, so ``cores × s / (s - w)`` keep up."""
    if throughput is None:
        return None, 0.0
    step = throughput.breakdown.step_s
    exposed = throughput.breakdown.data_loading_exposed_s
    bottleneck = throughput.bottleneck
    if bottleneck.code != "data_loading" or not bottleneck.sets_pace or exposed <= 0:
        return float(cores), 0.0  # the loader keeps up: the build's cores are enough
    return cores * step / max(step - exposed, 1e-12), min(1.0, exposed / step)


def analyze(
    build: Build,
    workload: Workload | None = None,
    settings: AnalysisSettings | None = None,
    catalog: Catalog | None = None,
    *,
    cloud_rates: tuple[CloudRate, ...] = (),
    years: int = 3,
) -> Analysis:
    """Check ``build``; with a workload also fit, throughput and cost per throughput.

    ``catalog`` (prices applied, ``core.prices.load_priced_catalog``) lets fixes name real
    parts and puts the user's feed and override prices on the build's parts;
    ``cloud_rates`` give the break-even against renting.
    """
    settings = settings or AnalysisSettings()
    assignment = assign_pcie(build)
    rig = rig_of(build, assignment)
    lines = price_lines(build, catalog)
    vram = throughput = None
    served: InferenceResult | None = None
    extra: list[Check] = []
    demand = None
    if workload is not None:
        try:
            check_gpu_count(workload, build.gpu_count)
        except InvalidWorkload as error:
            extra.append(
                Check(
                    id="workload.gpus",
                    severity="fail",
                    reason="workload_invalid",
                    numbers={"message": str(error)},
                )
            )
        else:
            if is_serving(workload):
                parts_usd = parts_cost(lines).total_usd
                served, demand = _serve(rig, workload, settings, parts_usd, years, extra)
            else:
                vram, throughput, demand = _train(build, rig, workload, extra)
    draws = _serving_draws_w(served, build)
    try:
        # judged at what the GPUs draw: board power, or while serving
        budget = power_budget(
            build,
            settings,
            gpu_draw_w=draws[0] if draws else None,
            continuous_gpu_draw_w=draws[1] if draws else None,
        )
    except (ArithmeticError, ValueError) as error:
        raise AnalysisFailed(
            f"the build's power figures cannot be computed ({_why(error)}); "
            "check the part specifications"
        ) from None
    try:
        result = _finish(
            build,
            workload,
            settings,
            catalog,
            cloud_rates,
            years,
            lines,
            assignment,
            budget,
            vram,
            throughput,
            demand,
            extra,
            served,
        )
        return result
    except (ArithmeticError, ValueError) as error:
        raise AnalysisFailed(
            f"the build's numbers are outside what can be computed ({_why(error)}); "
            "check the part specifications"
        ) from None


def _finish(
    build: Build,
    workload: Workload | None,
    settings: AnalysisSettings,
    catalog: Catalog | None,
    cloud_rates: tuple[CloudRate, ...],
    years: int,
    lines: tuple[PriceLine, ...],
    assignment: PcieAssignment,
    budget: PowerBudget,
    vram: VramResult | None,
    throughput: ThroughputResult | None,
    demand: HostDemand | None,
    extra: list[Check],
    served: InferenceResult | None = None,
) -> Analysis:
    checks = (
        *extra,
        *run_checks(build, settings, demand, catalog, budget=budget, assignment=assignment),
    )
    cost = cost_report(
        parts_cost(lines),
        lines,
        gpu=build.gpu,
        gpus=build.gpu_count,
        throughput=(
            throughput.total_throughput
            if throughput
            else served.speed.aggregate_decode_tokens_s
            if served
            else None
        ),
        throughput_unit=(
            throughput.unit if throughput else "generated tokens/s" if served else None
        ),
        wall_w=budget.wall_w,
        utilization=settings.utilization,
        usd_per_kwh=settings.electricity_usd_per_kwh,
        years=years,
        rates=cloud_rates,
    )
    return Analysis(
        build=build,
        workload=workload,
        settings=settings,
        checks=checks,
        verdict=judge(checks),
        vram=vram,
        throughput=throughput,
        inference=served,
        power=budget,
        pcie=assignment,
        cost=cost,
    )


def _serving_draws_w(served: InferenceResult | None, build: Build) -> tuple[float, float] | None:
    """Each GPU's draw while serving: (highest, continuous). Prompt processing runs near
    board power for moments; generation, most of the time, well below it
    (``core.calc.inference``). ``None`` when unknown."""
    if served is None:
        return None
    speed = served.speed
    if speed.prefill_power_w is None or speed.decode_power_w is None:
        return None
    peak = max(speed.prefill_power_w, speed.decode_power_w) / build.gpu_count
    return peak, speed.decode_power_w / build.gpu_count


def _serve(
    rig: Rig,
    workload: Workload,
    settings: AnalysisSettings,
    parts_usd: float | None,
    years: int,
    extra: list[Check],
) -> tuple[InferenceResult | None, HostDemand | None]:
    try:
        served = serve(rig, workload, settings, parts_usd, years=years)
        _require_finite_serving(served)
    except (ArithmeticError, ValueError) as error:
        extra.append(_arithmetic_check(error))
        return None, None
    extra.append(_serving_check(served))
    split = _split_check(rig, workload)
    if split is not None:
        extra.append(split)
    return served, HostDemand(host_ram_gib=served.memory.host_ram_gib)


def _split_check(rig: Rig, workload: Workload) -> Check | None:
    """A Megatron-style tensor split gives every GPU an equal share of the attention heads:
    vLLM, SGLang and TensorRT-LLM refuse a tensor-parallel size that does not divide them
    (vLLM: "Total number of attention heads must be divisible by tensor parallel size")."""
    if not tensor_split_refused(workload, rig.count):
        return None
    serving = workload.serving_settings
    return Check(
        id="serving.split",
        severity="fail",
        reason="tensor_split_heads",
        numbers={
            "engine": serving.engine,
            "heads": workload.architecture.heads or 0,
            "gpus": rig.count,
        },
        fix=Fix(code="use_layer_split", workload={"serving.split": "layer"}),
    )


def _train(
    build: Build, rig: Rig, workload: Workload, extra: list[Check]
) -> tuple[VramResult | None, ThroughputResult | None, HostDemand | None]:
    try:
        vram = estimate_vram(workload, build.gpu.vram_gib, build.gpu_count)
        throughput = training_throughput(workload, rig)
        if throughput is not None and vram.fixes:
            base = throughput.total_throughput

            def rate(w: Workload) -> float | None:
                if w is workload:
                    return base
                after = training_throughput(w, rig, curve=False)
                return None if after is None else after.total_throughput

            fixes = with_throughput_cost(vram.fixes, workload, rate)
            vram = vram.model_copy(update={"fixes": fixes})
        demand = _demand(workload, vram, throughput, build.cpu.cores * build.cpu_count)
        _require_finite(vram, throughput, demand)
    except (ArithmeticError, ValueError) as error:
        extra.append(_arithmetic_check(error))
        return None, None, None
    extra.append(_vram_check(vram))
    if throughput is not None and throughput.precision_note in UNSUPPORTED_PRECISION:
        extra.append(_precision_check(rig, workload))
    return vram, throughput, demand


UNSUPPORTED_PRECISION = frozenset(
    {"bf16_unsupported_fp16_used", "fp8_unsupported_fp16_used", "int8_unsupported_fp16_used"}
)
"""What the throughput model says when the GPU lacks the requested number format
(``core.calc.performance.roofline.compute_mode``: bf16 from Ampere, fp8 from Ada and
Hopper, per NVIDIA's architecture whitepapers)."""


def _precision_check(rig: Rig, workload: Workload) -> Check:
    """The workload's precision does not exist on this GPU: the recipe cannot run as
    written; fp16 (with loss scaling) is what it can run, at the throughput shown."""
    fp16 = workload.model_copy(update={"precision": "fp16"})
    after = training_throughput(fp16, rig, curve=False)
    numbers: dict[str, float | str] = {
        "precision": workload.precision,
        "gpu": rig.gpu.name,
        "architecture": rig.gpu.architecture,
    }
    fix_numbers: dict[str, float | str] = {"precision": "fp16"}
    if after is not None:
        fix_numbers |= {
            "throughput": round(after.total_throughput, 1),
            "unit": after.unit,
        }
    return Check(
        id="workload.precision",
        severity="fail",
        reason="precision_unsupported",
        numbers=numbers,
        fix=Fix(code="use_precision", workload={"precision": "fp16"}, numbers=fix_numbers),
    )


def _serving_check(served: InferenceResult) -> Check:
    memory = served.memory
    numbers: dict[str, float | str] = {
        "total_gib": round(memory.total_gib, 1),
        "usable_gib": round(memory.usable_gib, 1),
        "capacity_gib": round(memory.capacity_gib, 1),
        "gpus": memory.gpu_count,
        "max_streams": memory.max_streams,
    }
    if memory.fits:
        return Check(id="vram.fit", severity="pass", reason="llm_fits", numbers=numbers)
    fix = memory.fixes[0] if memory.fixes else None
    return Check(id="vram.fit", severity="fail", reason="llm_exceeds", numbers=numbers, fix=fix)


def _require_finite_serving(served: InferenceResult) -> None:
    speed, memory = served.speed, served.memory
    figures = [
        memory.total_gib,
        memory.host_ram_gib,
        speed.prefill_tokens_s,
        speed.ttft_s,
        speed.decode_tokens_s_per_stream,
        speed.aggregate_decode_tokens_s,
    ]
    if not all(math.isfinite(x) for x in figures):
        raise ValueError("a figure came out infinite or undefined")


def _require_finite(
    vram: VramResult, throughput: ThroughputResult | None, demand: HostDemand
) -> None:
    """Raise ``ValueError`` when an extreme input produced an infinite or undefined figure."""
    figures = [vram.total_gib, vram.capacity_gib, vram.host_ram_gib]
    if throughput is not None:
        figures += [throughput.total_throughput, throughput.samples_per_s]
    figures += [x for x in (demand.storage_read_mb_s, demand.storage_gb) if x is not None]
    if not all(math.isfinite(x) for x in figures):
        raise ValueError("a figure came out infinite or undefined")


def _why(error: Exception) -> str:
    if isinstance(error, ZeroDivisionError):
        return "a division by zero"
    if isinstance(error, OverflowError):
        return "a number too large"
    return str(error)[:120] or type(error).__name__


def _arithmetic_check(error: Exception) -> Check:
    return Check(
        id="analysis.numbers",
        severity="fail",
        reason="numbers_out_of_range",
        numbers={"message": _why(error)},
    )
