"""Fit llama.cpp's constants per GPU software (ROCm, Vulkan, Metal) on published runs of
unified-memory systems, and check every system family on rows left out of its fit.

Rows: ``resources/benchmarks/unified_memory_calibration.csv`` (a Strix Halo system,
llama.cpp's HIP, rocWMMA and Vulkan builds; ../shared/data) and
``resources/benchmarks/llm_unified_published.csv`` (DGX Spark from llama.cpp's
``benches/dgx-spark.md``; Apple silicon from llama.cpp discussion #4167 as quoted; MLX-LM).
Each backend fits three global constants — the share of the DRAM peak decode reaches
(``bandwidth_efficiency``) and the share of the 16-bit rate the prompt reaches for 16-bit
and block-quantised weights — on its own rows (the fixed costs per layer and token stay
CUDA llama.cpp's, fitted on many more rows: fitted on one iGPU they would not carry to
discrete Radeon cards) (Huber loss of log predicted / measured,
Nelder-Mead); the DGX Spark is predicted with CUDA's constants as they are (fitted on
discrete NVIDIA GPUs), so its rows are held out. Reported: in sample, and leaving one
model out (refitting without it), per system family and metric.

Run: .venv/bin/python -m tools.fit.fit_backends
"""

from __future__ import annotations

import csv
import dataclasses
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.calc.inference import constants
from core.calc.inference import model as inference_model
from core.calc.system import serve_system
from core.catalog import load_catalog
from core.catalog.systems import find_system
from core.models.workload import Serving
from core.validation.inference import load_inference_rows, resolve
from core.validation.inference import predict as predict_row
from core.workloads import find_preset, make_workload
from tools.fit.fit_inference import huber, nelder_mead

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "resources" / "benchmarks"
STRIX_MODELS = {
    "llama-2-7b.Q4_0": ("llama-2-7b", "q4_0"),
    "llama-2-7b.Q4_K_M": ("llama-2-7b", "q4_k_m"),
    "Qwen3-30B-A3B-UD-Q4_K_XL": ("qwen3-30b-a3b", "q4_k_m"),
    "Llama-4-Scout-17B-16E-Instruct-UD-Q4_K_XL": ("llama-4-scout-17b-16e", "q4_k_m"),
    "Mistral-Small-3.1-24B-Instruct-2503-UD-Q4_K_XL": ("mistral-small-24b", "q4_k_m"),
    "gpt-oss-20b-F16": ("gpt-oss-20b", "mxfp4"),
    "gpt-oss-120b-F16": ("gpt-oss-120b", "mxfp4"),
}
"""Strix Halo rows' GGUFs as presets (unsloth's UD-Q4_K_XL dynamic quants read at
Q4_K_M's size). Its gpt-oss "F16" GGUFs keep the experts in MXFP4 and the other weights in
16 bits (``F16_REST``), where the MXFP4 release llama.cpp's estimates read (ggml-org's GGUF)
keeps those in Q8_0 (``core.calc.inference.model.LLAMA_CPP_MXFP4_REST_BITS``): they are
predicted with 16-bit other weights."""
F16_REST = {"gpt-oss-20b-F16", "gpt-oss-120b-F16"}
FIELDS = ("bandwidth_efficiency", "prefill_efficiency", "prefill_quant_efficiency")
BOUNDS = dict.fromkeys(FIELDS, (0.05, 1.0)) | {"layer_overhead_s": (1e-6, 1e-3)}


@dataclass(frozen=True)
class Row:
    family: str
    system: str
    engine: str
    backend: str | None
    model: str
    weights: str
    metric: str
    prompt: int
    gen: int
    depth: int
    flash: bool
    measured: float
    rest_bits: float = inference_model.LLAMA_CPP_MXFP4_REST_BITS
    """Bits of an MXFP4 file's non-expert weights (16 for the "F16" GGUFs)."""

    @property
    def key(self) -> str:
        """The constants entry the row's backend uses."""
        return self.engine if self.engine != "llama.cpp" else f"llama.cpp@{self.backend}"


ROCM_ASIDE = ("default GEMM", "HIP build, flash attention")
"""The Strix Halo's ROCm runs of other setups than the one the app estimates: rocBLAS's
default GEMM kernels (untuned for this iGPU in those builds; the launch command sets
``ROCBLAS_USE_HIPBLASLT=1``), and flash attention in a HIP build without rocWMMA (its
vector kernel; the app assumes flash attention on the matrix cores, as the rocWMMA build
runs it)."""


def _rocm_setup(r: dict[str, str]) -> str | None:
    """Which of ``ROCM_ASIDE`` a ROCm row ran, or ``None``: the setup the app estimates."""
    if "hipblaslt '1'" not in r["table_section"]:
        return ROCM_ASIDE[0]
    if "-fa 1" in r["flash_attention"] and "rocwmma" not in r["engine"]:
        return ROCM_ASIDE[1]
    return None


def strix_rows(*, aside: str | None = None) -> list[Row]:
    """The Strix Halo rows the backends fit: Vulkan's, and ROCm's run as the app's launch
    command runs them (``aside``: instead the ROCm rows of that other setup)."""
    out = []
    with (BENCH / "unified_memory_calibration.csv").open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            model = STRIX_MODELS.get(r["model"])
            if model is None or "-b 256" in r["table_section"]:
                continue
            backend = "vulkan" if "vulkan" in r["engine"] else "rocm"
            if (_rocm_setup(r) if backend == "rocm" else None) != aside:
                continue
            out.append(
                Row("strix-halo", "framework-desktop-128gb", "llama.cpp", backend, model[0],
                    model[1], r["metric"], int(r["prompt_tokens"] or 0), int(r["gen_tokens"] or 0),
                    0, "-fa 1" in r["flash_attention"], float(r["measured"]),
                    16.0 if r["model"] in F16_REST else inference_model.LLAMA_CPP_MXFP4_REST_BITS)
            )  # fmt: skip
    return out


def published_rows() -> list[Row]:
    out = []
    with (BENCH / "llm_unified_published.csv").open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if not r["rigforge_model"]:
                continue
            system = find_system(r["system"])
            backend = {"CUDA": "cuda", "Metal": "metal"}.get(r["backend"])
            engine = r["rigforge_engine"] or "llama.cpp"
            if engine == "mlx-lm":
                backend = "mlx"
            out.append(
                Row(system.family, system.id, engine, backend, r["rigforge_model"],
                    r["rigforge_weights"], r["metric"], int(r["prompt_tokens"] or 0),
                    int(r["gen_tokens"] or 0), int(r["rigforge_depth"] or 0),
                    "-fa 1" in r["source_ref"], float(r["measured_tokens_s"]))
            )  # fmt: skip
    return out


def predict(row: Row) -> float:
    kept = inference_model.LLAMA_CPP_MXFP4_REST_BITS
    inference_model.LLAMA_CPP_MXFP4_REST_BITS = row.rest_bits  # the file the row read
    try:
        return _predict(row)
    finally:
        inference_model.LLAMA_CPP_MXFP4_REST_BITS = kept


def _predict(row: Row) -> float:
    workload = make_workload(find_preset(row.model), task="inference")
    prompt = max(row.prompt, 1) if row.metric == "pp" else max(row.depth, 1)
    serving = Serving(
        engine=row.engine,  # type: ignore[arg-type]
        backend=None if row.backend == "cuda" else row.backend,  # type: ignore[arg-type]
        weights=row.weights,  # type: ignore[arg-type]
        prompt_len=prompt,
        gen_len=max(row.gen, 1),
        flash_attention=row.flash or row.engine != "llama.cpp",
    )
    served = serve_system(find_system(row.system), workload.model_copy(update={"serving": serving}))
    speed = served.speed
    return speed.prefill_tokens_s if row.metric == "pp" else speed.decode_tokens_s_per_stream


def loss(rows: list[Row]) -> float:
    total = 0.0
    for row in rows:
        value = predict(row)
        if value <= 0 or not math.isfinite(value):
            return 1e9
        total += huber(math.log(value / row.measured))
    return total / max(len(rows), 1)


def _set(key: str, values: dict[str, float]) -> None:
    engines = constants.FITTED.engines
    engines[key] = dataclasses.replace(engines[key], **values)


def fit(key: str, rows: list[Row], steps: int = 200) -> dict[str, float]:
    start = constants.FITTED.engines[key]
    x0 = np.array([math.log(getattr(start, f)) for f in FIELDS])

    def values(x: np.ndarray) -> dict[str, float]:
        return {
            f: min(max(math.exp(float(v)), BOUNDS[f][0]), BOUNDS[f][1])
            for f, v in zip(FIELDS, x, strict=True)
        }

    def objective(x: np.ndarray) -> float:
        _set(key, values(x))
        return loss(rows)

    best = values(nelder_mead(objective, x0, steps))
    _set(key, best)
    return best


def errors(rows: list[Row]) -> dict[tuple[str, str], list[float]]:
    out: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        out.setdefault((row.family + " " + (row.backend or ""), row.metric), []).append(
            abs(100.0 * (predict(row) / row.measured - 1.0))
        )
    return out


def _print(errs_by: dict[tuple[str, str], list[float]]) -> None:
    for (family, metric), errs in sorted(errs_by.items()):
        median = statistics.median(errs)
        print(f"{family:24s} {metric:3s} n={len(errs):3d} median {median:5.1f} %")


def _left_out(
    fitted: dict[str, dict[str, float]],
    rows: list[Row],
    group: Callable[[Row], str],
    steps: int,
) -> dict[tuple[str, str], list[float]]:
    """Errors on each group of a backend's rows with the backend refitted without it."""
    out: dict[tuple[str, str], list[float]] = {}
    for key, best in fitted.items():
        mine = [r for r in rows if r.key == key]
        for name in sorted({group(r) for r in mine}):
            rest = [r for r in mine if group(r) != name]
            if not rest:
                continue
            fit(key, rest, steps=steps)
            for where, errs in errors([r for r in mine if group(r) == name]).items():
                out.setdefault(where, []).extend(errs)
        _set(key, best)
    return out


def main() -> None:
    rows = strix_rows() + published_rows()
    fitted = {}
    for key in sorted({r.key for r in rows if r.key != "llama.cpp@cuda"}):
        mine = [r for r in rows if r.key == key]
        fitted[key] = fit(key, mine)
        values = ", ".join(f"{k} {v:.3f}" for k, v in fitted[key].items())
        print(f"{key}: {len(mine)} rows -> {values}")
    print("== in sample (DGX Spark: CUDA's constants, never fitted here)")
    _print(errors(rows))
    print("== leaving one model out (refit without it)")
    _print(_left_out(fitted, rows, lambda r: r.model, steps=60))
    print("== leaving one system family out (refit on the backend's other families)")
    _print(_left_out(fitted, rows, lambda r: r.family, steps=100))
    for setup in ROCM_ASIDE:
        aside = strix_rows(aside=setup)
        print(f"== ROCm rows of another setup: {setup} ({len(aside)} rows; not fitted)")
        for metric in ("pp", "tg"):
            ratios = [predict(r) / r.measured for r in aside if r.metric == metric]
            print(f"{metric}: median predicted / measured {statistics.median(ratios):.2f}")
    print("== discrete AMD cards on llama.cpp's ROCm build (published rows, never fitted)")
    catalog = load_catalog()
    for row in load_inference_rows(BENCH / "llm_inference_published.csv"):
        resolved = resolve(row, catalog)
        if isinstance(resolved, str) or resolved.gpu.vendor != "AMD":
            continue
        value = predict_row(resolved)
        print(
            f"{row.gpu_model:18s} {row.model:16s} {row.metric} {row.measured:8.1f} "
            f"predicted {value:8.1f} ({100.0 * (value / row.measured - 1.0):+.0f} %)"
        )


if __name__ == "__main__":
    main()
