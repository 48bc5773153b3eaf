"""Fit the serving model's global constants per engine; print in-sample and held-out errors.

Data: ``../shared/data/benchmarks/llm_inference_calibration.csv`` (llama.cpp, XiongjieDai's
tables) and ``resources/benchmarks/llm_inference_published.csv`` (other engines and
publishers, each row sourced). Never used: the held-out sources named in
``docs/inference-model.md`` (XiongjieDai's A40, L40S, RTX 4000/5000 Ada and A100 SXM
rows; TensorRT-LLM's performance.md of v0.5-v0.6; mlc-ai/llm-perf-bench; LitGPT's
resource tables; the benchmark comment of llama.cpp PR #4766).

The loss is the mean Huber loss of log(predicted / measured), so no row dominates. The
search is Nelder-Mead in log-parameter space, from the constants in force. Prints the
fitted constants to paste into ``core/calc/inference/constants.py`` and the errors of
``core.validation.inference.report``: in sample, leaving one GPU out and leaving one
source out (refitting each time).

Run: .venv/bin/python -m tools.fit.fit_inference [--quick] [--engine NAME]
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from core.calc.inference.constants import FITTED, InferenceConstants
from core.catalog import load_catalog
from core.validation.inference import (
    InferenceRow,
    Resolved,
    load_inference_rows,
    predict,
    release_key,
    resolve,
)

ROOT = Path(__file__).resolve().parents[2]
CALIBRATION = ROOT / "resources" / "benchmarks" / "llm_inference_calibration.csv"
PUBLISHED = ROOT / "resources" / "benchmarks" / "llm_inference_published.csv"
HELD_OUT_GPUS = ("A40", "L40S", "RTX 4000 Ada", "RTX 5000 Ada", "A100 SXM")
HELD_OUT_SOURCES = ("llm-perf-bench", "LitGPT", "resource-tables", "#4766", "v0.5", "v0.6")

ENGINE_FIELDS = (
    "bandwidth_efficiency",
    "per_sm_gb_s",
    "layer_overhead_s",
    "token_overhead_s",
    "prefill_efficiency",
    "prefill_quant_efficiency",
    "hop_s",
    "attention_matrix_passes",
    "dequant_ops_per_weight",
)
BOUNDS = {
    "bandwidth_efficiency": (0.3, 1.0),
    "per_sm_gb_s": (2.0, 60.0),
    "layer_overhead_s": (1e-7, 1e-3),
    "token_overhead_s": (1e-6, 0.05),
    "prefill_efficiency": (0.05, 1.0),
    "prefill_quant_efficiency": (0.02, 1.0),
    "hop_s": (1e-6, 0.01),
    "attention_matrix_passes": (0.01, 10.0),
    "dequant_ops_per_weight": (0.01, 40.0),
    "kv_reread_share": (0.01, 1.0),
    "gqa_reread_share": (0.01, 1.0),
}


def rows() -> list[InferenceRow]:
    data = load_inference_rows(CALIBRATION) + load_inference_rows(PUBLISHED)
    return [
        r
        for r in data
        if not any(s in r.source for s in HELD_OUT_SOURCES)
        and not ("XiongjieDai" in r.source and any(g in r.gpu_model for g in HELD_OUT_GPUS))
    ]


def huber(x: float, delta: float = 0.3) -> float:
    a = abs(x)
    return 0.5 * x * x if a <= delta else delta * (a - 0.5 * delta)


def loss(items: Sequence[Resolved], constants: InferenceConstants) -> float:
    total = 0.0
    for item in items:
        predicted = predict(item, constants)
        if predicted <= 0 or not math.isfinite(predicted):
            return 1e9
        total += huber(math.log(predicted / item.row.measured))
    return total / max(len(items), 1)


def with_engine(
    constants: InferenceConstants, engine: str, values: dict[str, float], clock: float | None = None
) -> InferenceConstants:
    engines = dict(constants.engines)
    engines[engine] = dataclasses.replace(engines[engine], **values)
    update: dict[str, object] = {"engines": engines}
    if clock is not None:
        update["clock_exponent"] = clock
    return dataclasses.replace(constants, **update)  # type: ignore[arg-type]


def nelder_mead(f: Callable[[np.ndarray], float], x0: np.ndarray, steps: int) -> np.ndarray:
    n = len(x0)
    simplex = [x0] + [x0 + np.eye(n)[i] * 0.3 for i in range(n)]
    values = [f(x) for x in simplex]
    for _ in range(steps):
        order = np.argsort(values)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centroid = np.mean(simplex[:-1], axis=0)
        worst = simplex[-1]
        reflected = centroid + (centroid - worst)
        fr = f(reflected)
        if fr < values[0]:
            expanded = centroid + 2.0 * (centroid - worst)
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = centroid + 0.5 * (worst - centroid)
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [best + 0.5 * (x - best) for x in simplex[1:]]
                values = [values[0]] + [f(x) for x in simplex[1:]]
    return simplex[int(np.argmin(values))]


def engine_key(item: Resolved, constants: InferenceConstants) -> str:
    """Which entry of ``constants.engines`` predicts ``item`` (an engine, or an engine on
    one GPU maker's cards)."""
    release = release_key(item.row, constants)
    if release is not None:
        return release
    vendor = f"{item.serving.engine}@{item.gpu.vendor}"
    return vendor if vendor in constants.engines else item.serving.engine


def fit_engine(
    items: Sequence[Resolved],
    engine: str,
    constants: InferenceConstants,
    steps: int,
    fields: Sequence[str] = ENGINE_FIELDS,
    fit_clock: bool = False,
) -> InferenceConstants:
    mine = [i for i in items if engine_key(i, constants) == engine]
    if not mine:
        return constants
    start = constants.engines[engine]
    x0 = [math.log(getattr(start, name)) for name in fields]
    if fit_clock:
        x0.append(math.log(max(constants.clock_exponent, 0.05)))

    def values(x: np.ndarray) -> tuple[dict[str, float], float | None]:
        chosen = {}
        for name, v in zip(fields, x, strict=False):
            low, high = BOUNDS[name]
            chosen[name] = min(max(math.exp(float(v)), low), high)
        clock = min(max(math.exp(float(x[-1])), 0.0), 3.0) if fit_clock else None
        return chosen, clock

    def objective(x: np.ndarray) -> float:
        chosen, clock = values(x)
        return loss(mine, with_engine(constants, engine, chosen, clock))

    best = nelder_mead(objective, np.array(x0), steps)
    chosen, clock = values(best)
    return with_engine(constants, engine, chosen, clock)


PER_TOKEN = ("token_overhead_s", "layer_overhead_s")
PREFILL = ("prefill_efficiency", "prefill_quant_efficiency")
FITTED_FIELDS = {
    "llama.cpp@2023-12": PER_TOKEN + PREFILL,
    "vllm": (*PER_TOKEN, "per_sm_gb_s"),
    "vllm@Intel": PER_TOKEN + PREFILL,
    "tensorrt-llm": (*PER_TOKEN, "prefill_efficiency", "per_sm_gb_s", "gqa_reread_share"),
    "transformers": PER_TOKEN + PREFILL,
    "exllamav2": PER_TOKEN + PREFILL,
    "sglang": (*PER_TOKEN, "per_sm_gb_s"),
}
"""What each engine's rows fit. llama.cpp's December 2023 build (XiongjieDai's ``./main``
tables) is its own entry: its prompt kernels and per-token costs, the hardware's bandwidth
constants. vLLM on NVIDIA has no published prompt-processing rows:
its prefill efficiencies are llama.cpp's, not fitted; its decode kernels keep more bytes in
flight per SM than llama.cpp's (its 8B rows on H100 and B200 read weights at 2-3 times
llama.cpp's per-SM bound), so that bound is its own. TensorRT-LLM's rows that
resolve are all fp8 (its only block-quantised rows, Jan's AWQ runs, name Mistral 7B v0.2,
which has no preset): nothing tells its quantised prompt rate, which stays 1.0. Its decode
attention re-reads shared KV heads where its XQA kernel does not apply
(``gqa_reread_share``). SGLang's rows (most on the H20, whose SM count the catalog
carries) fit its decode: bytes in flight per SM and its costs per layer and token; it has
no published prompt rows."""


def context_pairs(items: Sequence[Resolved]) -> list[tuple[Resolved, Resolved]]:
    """llama.cpp single-stream generation rows measured at two lengths on the same GPU,
    model, format and source (llama-bench tg512 and tg4096): (shortest, longest)."""
    groups: dict[tuple[object, ...], list[Resolved]] = {}
    for item in items:
        row = item.row
        if row.metric == "tg" and row.batch <= 1 and item.serving.engine == "llama.cpp":
            key = (row.source, row.gpu_model, row.gpu_count, row.model, row.weights, row.split)
            groups.setdefault((*key, row.prompt, item.serving.flash_attention), []).append(item)
    pairs = []
    for group in groups.values():
        group.sort(key=lambda i: i.row.gen)
        if group[0].row.gen != group[-1].row.gen:
            pairs.append((group[0], group[-1]))
    return pairs


def fit_kv_reread(items: Sequence[Resolved], constants: InferenceConstants) -> InferenceConstants:
    """``kv_reread_share`` from how much generation slows as the context grows: the ratio
    of each pair's long- to short-context speed, whose per-GPU constants cancel (least
    squares in log ratio over a grid of 0.01 steps)."""
    pairs = context_pairs(items)
    if not pairs:
        return constants

    def cost(share: float) -> float:
        c = with_engine(constants, "llama.cpp", {"kv_reread_share": share})
        total = 0.0
        for short, long in pairs:
            predicted = predict(long, c) / predict(short, c)
            total += math.log(predicted / (long.row.measured / short.row.measured)) ** 2
        return total

    best = min((k / 100.0 for k in range(101)), key=cost)
    return with_engine(constants, "llama.cpp", {"kv_reread_share": best})


def fit(items: Sequence[Resolved], steps: int) -> InferenceConstants:
    constants = fit_kv_reread(items, FITTED)
    constants = fit_engine(items, "llama.cpp", constants, steps, fit_clock=True)
    shared = constants.engines["llama.cpp"]
    for engine, fields in FITTED_FIELDS.items():
        # How much of the DRAM bandwidth a GPU's weight-streaming kernels reach is the
        # hardware's (llama.cpp's many rows fit it); each engine has its own costs per
        # token and per layer and its own prefill kernels. Few rows: those only.
        common = {"bandwidth_efficiency": shared.bandwidth_efficiency}
        if "per_sm_gb_s" not in fields:
            common["per_sm_gb_s"] = shared.per_sm_gb_s
        if "prefill_efficiency" not in fields:
            common |= {f: getattr(shared, f) for f in PREFILL}
        if engine.startswith("llama.cpp@"):
            # an older build of the same kernels: their attention and dequantising
            # traffic stay the current build's
            common |= {
                f: getattr(shared, f)
                for f in ("attention_matrix_passes", "dequant_ops_per_weight", "kv_reread_share")
            }
        constants = with_engine(constants, engine, common)
        constants = fit_engine(items, engine, constants, steps // 2, fields=fields)
    return constants


def errors(items: Sequence[Resolved], constants: InferenceConstants) -> dict[str, float]:
    out: dict[str, list[float]] = {}
    for item in items:
        e = abs(predict(item, constants) / item.row.measured - 1.0) * 100.0
        out.setdefault(item.row.metric, []).append(e)
    return {m: statistics.median(v) for m, v in out.items()}


def pair_errors(pairs: Sequence[tuple[Resolved, Resolved]], c: InferenceConstants) -> list[float]:
    """Percent error of each pair's predicted slowdown (long / short context speed)."""
    return [
        abs(predict(b, c) / predict(a, c) / (b.row.measured / a.row.measured) - 1.0) * 100.0
        for a, b in pairs
    ]


def report_context_pairs(items: Sequence[Resolved], constants: InferenceConstants) -> None:
    """The context slowdown: in sample, without the re-read term, and leaving one GPU out."""
    pairs = context_pairs(items)
    share = constants.engines["llama.cpp"].kv_reread_share
    without = with_engine(constants, "llama.cpp", {"kv_reread_share": 0.0})
    print(
        f"context slowdown, {len(pairs)} pairs: kv_reread_share {share:.2f}, median error "
        f"{statistics.median(pair_errors(pairs, constants)):.2f} % "
        f"(without the term {statistics.median(pair_errors(pairs, without)):.2f} %)"
    )
    held = []
    for gpu in sorted({a.gpu.id for a, _ in pairs}):
        train = [i for p in pairs if p[0].gpu.id != gpu for i in p]
        refit = fit_kv_reread(train, constants)
        held += pair_errors([p for p in pairs if p[0].gpu.id == gpu], refit)
    print(f"  leaving one GPU out: median error {statistics.median(held):.2f} %")


def leave_engine_gpus_out(resolved: Sequence[Resolved], engine: str, steps: int) -> None:
    """Each GPU of ``engine``'s rows left out in turn, ``engine``'s fitted constants refitted
    on its other GPUs' rows: the held-out figures of that engine's estimates."""
    mine = [r for r in resolved if engine_key(r, FITTED) == engine]
    held: dict[str, list[float]] = {}
    for gpu in sorted({r.gpu.id for r in mine}):
        train = [r for r in resolved if r.gpu.id != gpu]
        refit = fit_engine(train, engine, FITTED, steps, fields=FITTED_FIELDS[engine])
        figures = errors([r for r in mine if r.gpu.id == gpu], refit)
        for metric, value in figures.items():
            held.setdefault(metric, []).append(value)
        print(f"{engine} without {gpu}: { ({m: round(v, 1) for m, v in figures.items()}) }")
    print(
        f"{engine}, each of its GPUs left out, median over GPUs:",
        {m: round(statistics.median(v), 1) for m, v in held.items()},
    )


def main() -> None:
    quick = "--quick" in sys.argv
    if "--engine" in sys.argv:  # --engine NAME: leave each of that engine's GPUs out
        catalog = load_catalog()
        resolved = [r for r in (resolve(row, catalog) for row in rows()) if not isinstance(r, str)]
        leave_engine_gpus_out(resolved, sys.argv[sys.argv.index("--engine") + 1], 300)
        return
    steps = 150 if quick else 600
    catalog = load_catalog()
    resolved = [r for r in (resolve(row, catalog) for row in rows()) if not isinstance(r, str)]
    print(f"{len(resolved)} rows resolved")
    print("in force:", errors(resolved, FITTED))
    constants = fit(resolved, steps)
    print("fitted:  ", errors(resolved, constants))
    for engine, c in constants.engines.items():
        print(engine, {f: round(getattr(c, f), 7) for f in (*ENGINE_FIELDS, "kv_reread_share")})
    print("clock_exponent", round(constants.clock_exponent, 3))
    report_context_pairs(resolved, constants)
    if quick:
        return
    gpus = sorted({r.gpu.id for r in resolved if r.serving.engine == "llama.cpp"})
    held: dict[str, list[float]] = {}
    for gpu in gpus:
        train = [r for r in resolved if r.gpu.id != gpu]
        test = [r for r in resolved if r.gpu.id == gpu]
        refit = fit(train, steps // 3)
        for metric, value in errors(test, refit).items():
            held.setdefault(metric, []).append(value)
        print(f"leave out {gpu}: {errors(test, refit)}")
    print(
        "leave one GPU out, median over GPUs:",
        {m: round(statistics.median(v), 1) for m, v in held.items()},
    )
    sources = sorted({r.row.source for r in resolved})
    for source in sources:
        train = [r for r in resolved if r.row.source != source]
        test = [r for r in resolved if r.row.source == source]
        refit = fit(train, steps // 3)
        print(f"leave out {source[:70]}: {errors(test, refit)}")


if __name__ == "__main__":
    main()
