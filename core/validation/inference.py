"""The serving model against published LLM inference measurements.

Reads files with the header of ``llm_inference_calibration.csv`` (its README defines
the columns and metrics: ``pp`` prompt tokens/s, ``tg`` one stream's generation tokens/s
after a ``prompt_tokens`` prompt, ``tg_batched`` output tokens/s of ``batch`` streams,
``ttft_prefill`` prompt tokens ÷ time to first token). Each row is resolved to a catalog
GPU and a preset; rows that cannot be (an unknown GPU, model or format) are counted, not
guessed. The report gives per metric the median and 90th-percentile absolute error and
the smallest Spearman rank correlation across GPUs within each group of the same model,
format, lengths, engine, GPU count and split that has at least four GPUs.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, get_args

from core.calc.inference.constants import FITTED, InferenceConstants
from core.calc.inference.memory import inference_memory
from core.calc.rig import rig_for, serving_speed
from core.catalog import Catalog
from core.errors import FileFormatError, RigForgeError
from core.files.safe_json import decode_text
from core.files.safe_read import read_limited
from core.models.parts import GPU
from core.models.workload import KvFormat, Serving, WeightsFormat, Workload
from core.validation.csv_rows import csv_rows, first_line, gpu_count, measurement, whole
from core.validation.report import PROGRESS_EVERY, Progress, spearman
from core.workloads import find_preset, make_workload

HEADER = (
    "source",
    "engine",
    "gpu_model",
    "gpu_count",
    "split_mode",
    "model",
    "weights_format",
    "batch",
    "prompt_tokens",
    "gen_tokens",
    "metric",
    "measured_tokens_s",
    "measured_basis",
)
METRICS = ("pp", "tg", "tg_batched", "ttft_prefill")
ENGINES = {
    "llama.cpp": "llama.cpp",
    "vLLM": "vllm",
    "vllm": "vllm",
    "TensorRT-LLM": "tensorrt-llm",
    "SGLang": "sglang",
    "HF transformers": "transformers",
    "transformers": "transformers",
    "ExLlamaV2": "exllamav2",
}
MODEL_ALIASES = {"Llama 70B (version not stated)": "llama-3.3-70b"}
"""Rows whose source names a model loosely. llama-bench labels Llama 2 and Llama 3 70B
alike ("llama 70B"); both have 80 layers of hidden size 8,192, 8 KV heads and an MLP of
28,672, and differ only in vocabulary (32 k vs 128 k: Llama 3's weights are 2.6 % larger)."""
_SM_TENSOR = re.compile(r"column 't/s -sm tensor")
"""A llama.cpp row measured with the experimental ``-sm tensor`` mode (pull request #19378)."""
_BUILD = re.compile(r"\bbuild [0-9a-f]{7,}\s*\((\d+)\)")
"""llama.cpp's build as llama-bench prints it: ``build d5cb8684 (3891)``."""
CDNA_MATRIX_MMQ_BUILD = 5000
"""llama.cpp's quantised matrix kernels (MMQ) use CDNA's matrix cores since pull requests
#14624 (CDNA3, July 2025) and #14949 (CDNA1/2, July 2025); every build numbered below
this one (about April 2025) predates both."""
FORMAT_ALIASES = {"bnb-fp4": "nf4", "gptq-int8": "int8", "ud-q8_k_xl": "q8_0"}
MAX_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class InferenceRow:
    source: str
    engine: str
    gpu_model: str
    gpu_count: int
    split: str
    model: str
    weights: str
    batch: int
    prompt: int
    gen: int
    metric: str
    measured: float
    basis: str
    notes: str = ""
    """The row's table section and notes (the flags it ran with)."""


@dataclass(frozen=True)
class Resolved:
    row: InferenceRow
    gpu: GPU
    workload: Workload
    serving: Serving


def is_inference_file(text: str) -> bool:
    first = first_line(text)
    return all(name in first.split(",") for name in ("metric", "weights_format", "gen_tokens"))


MAX_ROW_STREAMS = 4096
"""Most concurrent streams a published serving row may name (vLLM's default
``max_num_seqs`` is 256; the largest published batches are in the low thousands)."""
MAX_ROW_TOKENS = 10_000_000
"""Longest prompt or generation a row may name: the longest context any model has been
published with (Llama 4 Scout, 10 M tokens; Meta, April 2025); the prompt pipeline's loop
runs once per micro-batch, so a larger figure would only cost time."""


def read_inference_rows(text: str) -> list[InferenceRow]:
    header, raws = csv_rows(text)
    missing = [c for c in HEADER if c not in header]
    if missing:
        raise FileFormatError(f"the CSV lacks the column(s) {', '.join(missing)}")
    rows = []
    for number, raw in raws:
        try:
            rows.append(
                InferenceRow(
                    source=raw["source"],
                    engine=raw["engine"],
                    gpu_model=raw["gpu_model"],
                    gpu_count=gpu_count(raw["gpu_count"]),
                    split=raw["split_mode"],
                    model=raw["model"],
                    weights=raw["weights_format"],
                    batch=whole(raw["batch"] or "1", "batch"),
                    prompt=whole(raw["prompt_tokens"] or "0", "prompt_tokens"),
                    gen=whole(raw["gen_tokens"] or "0", "gen_tokens"),
                    metric=raw["metric"],
                    measured=measurement(raw["measured_tokens_s"], "measured_tokens_s"),
                    basis=raw["measured_basis"],
                    notes=f"{raw.get('table_section') or ''}; {raw.get('notes') or ''}",
                )
            )
            row = rows[-1]
            if not 1 <= row.batch <= MAX_ROW_STREAMS:
                raise ValueError(f"batch {row.batch} is not from 1 to {MAX_ROW_STREAMS:,}")
            if not (0 <= row.prompt <= MAX_ROW_TOKENS and 0 <= row.gen <= MAX_ROW_TOKENS):
                raise ValueError(
                    f"prompt_tokens and gen_tokens must be from 0 to {MAX_ROW_TOKENS:,}"
                )
        except (TypeError, ValueError, OverflowError) as error:
            raise FileFormatError(f"line {number}: {error}") from None
    return rows


def load_inference_rows(path: Path) -> list[InferenceRow]:
    return read_inference_rows(decode_text(read_limited(path, MAX_BYTES)))


_FA_ON = re.compile(r"(?<!no )(?:-fa|--flash-attn)\s*(?:1|on)\b|flash attention on", re.I)
_FA_OFF = re.compile(r"(?:-fa|--flash-attn)\s*(?:0|off)\b|no -fa\b|flash attention off", re.I)
_FA_DEFAULT_PR = 15434
"""llama.cpp pull request #15434 (merged August 2025) made flash attention the default
(``-fa auto``); builds before it ran without unless ``-fa 1`` was given."""


def ran_flash_attention(row: InferenceRow) -> bool:
    """Whether a llama.cpp row ran fused (flash) attention: its flags say so, or it was
    measured on a pull request after the default changed. The other engines always fuse."""
    if ENGINES.get(row.engine) != "llama.cpp":
        return True
    text = f"{row.source}; {row.notes}"
    if _FA_OFF.search(text):
        return False
    if _FA_ON.search(text):
        return True
    pr = re.search(r"pull request #(\d+)", row.source)
    return pr is not None and int(pr.group(1)) >= _FA_DEFAULT_PR


def resolve(row: InferenceRow, catalog: Catalog) -> Resolved | str:
    engine = ENGINES.get(row.engine)
    if engine is None:
        return f"engine {row.engine!r} is not modelled"
    if engine == "llama.cpp" and row.gpu_count > 1 and "2023" in row.source:
        return (
            "llama.cpp before January 2024 split every matrix across GPUs by rows "
            "(the layer split became the default then): not modelled"
        )
    if engine == "llama.cpp" and row.gpu_count > 1 and _SM_TENSOR.search(row.notes):
        return (
            "llama.cpp's experimental backend-agnostic split (-sm tensor, 2026) is not "
            "modelled: the app's tensor split for llama.cpp is its row split (-sm row)"
        )
    if row.metric not in METRICS:
        return f"metric {row.metric!r} is not modelled"
    weights = FORMAT_ALIASES.get(row.weights, row.weights)
    if weights not in get_args(WeightsFormat):
        return f"weights format {row.weights!r} is not modelled"
    try:
        gpu = catalog.gpu(row.gpu_model)
        preset = find_preset(MODEL_ALIASES.get(row.model, row.model))
    except RigForgeError as error:
        return str(error)
    build = _BUILD.search(row.notes)
    if (
        engine == "llama.cpp"
        and row.metric == "pp"
        and gpu.architecture.startswith("cdna")
        and build is not None
        and int(build.group(1)) < CDNA_MATRIX_MMQ_BUILD
    ):
        return (
            f"llama.cpp build {build.group(1)} ran quantised prompts on CDNA without its "
            "matrix cores (they came with pull request #14624, July 2025): not modelled"
        )
    if preset.architecture.kind != "decoder":
        return f"{row.model} is not a decoder"
    kv: KvFormat = "fp8" if weights == "fp8" and engine == "tensorrt-llm" else "f16"
    serving = Serving(
        engine=engine,
        weights=weights,
        kv_cache=kv,
        prompt_len=max(row.prompt, 1),
        gen_len=max(row.gen, 1),
        streams=max(row.batch, 1),
        split="tensor" if row.split == "tensor" else "layer",
        flash_attention=ran_flash_attention(row),
    )
    workload = make_workload(preset, task="inference").model_copy(update={"serving": serving})
    return Resolved(row, gpu, workload, serving)


RELEASES = (("llama.cpp", "./main, RunPod, Dec 2023", "llama.cpp@2023-12"),)
"""(engine, marker in a row's source, constants key): measurements taken with an older build
of an engine, predicted with that build's own fitted constants. XiongjieDai's December 2023
tables ran llama.cpp's ``./main`` of that month, whose prompt kernels were much slower on
data-centre GPUs than the May 2024 ``llama-bench`` build the app's llama.cpp follows."""


def release_key(row: InferenceRow, constants: InferenceConstants) -> str | None:
    """The constants entry of the engine build that measured ``row``, if it has its own."""
    for engine, marker, key in RELEASES:
        if ENGINES.get(row.engine) == engine and marker in row.source and key in constants.engines:
            return key
    return None


def constants_for(row: InferenceRow, constants: InferenceConstants) -> InferenceConstants:
    """``constants`` with the row's engine replaced by the build that measured it."""
    key = release_key(row, constants)
    if key is None:
        return constants
    engine = ENGINES[row.engine]
    return replace(constants, engines={**constants.engines, engine: constants.engines[key]})


def predict(resolved: Resolved, constants: InferenceConstants = FITTED) -> float:
    row, serving = resolved.row, resolved.serving
    constants = constants_for(row, constants)
    if row.metric == "tg" and row.prompt == 0:
        # llama-bench tgN starts from an empty context: the mean context is N / 2.
        serving = serving.model_copy(update={"prompt_len": 1})
    speed = serving_speed(
        resolved.workload,
        serving,
        rig_for(resolved.gpu, row.gpu_count),
        max_streams=0,
        constants=constants,
        curves=False,
    )
    if row.metric == "pp":
        value = speed.prefill_tokens_s
    elif row.metric == "ttft_prefill":
        # published as batch x prompt tokens / the first-token latency of a static batch
        # (every prompt prefilled together); at batch 1, one prompt on an idle engine
        together = speed.ttft_together_s or speed.ttft_s
        value = serving.streams * serving.prompt_len / together
    elif row.metric == "tg":
        value = speed.decode_tokens_s_per_stream
    else:
        value = speed.aggregate_decode_tokens_s
    if row.basis == "per GPU":
        value /= row.gpu_count
    return value


def fits(resolved: Resolved, constants: InferenceConstants = FITTED) -> bool:
    memory = inference_memory(
        resolved.workload,
        resolved.serving,
        resolved.gpu.vram_gib,
        resolved.row.gpu_count,
        constants_for(resolved.row, constants),
        with_fixes=False,
    )
    return memory.fits


def report(
    rows: Sequence[InferenceRow],
    catalog: Catalog,
    constants: InferenceConstants = FITTED,
    *,
    exclude: Iterable[str] = (),
    progress: Progress | None = None,
) -> dict[str, Any]:
    skip = tuple(exclude)
    details: list[dict[str, Any]] = []
    unresolved: dict[str, int] = defaultdict(int)
    # one resolution and prediction per run: a file may repeat its rows
    known: dict[InferenceRow, tuple[Resolved | str, float, bool]] = {}
    for number, row in enumerate(rows, start=1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress(number, len(rows))
        if any(s in row.source for s in skip):
            continue
        run = replace(row, measured=1.0)
        outcome = known.get(run)
        if outcome is None:
            resolved = resolve(row, catalog)
            outcome = known[run] = (
                (resolved, 0.0, False)
                if isinstance(resolved, str)
                else (resolved, predict(resolved, constants), fits(resolved, constants))
            )
        resolved, predicted, fit = outcome
        if isinstance(resolved, str):
            unresolved[resolved] += 1
            continue
        details.append(
            {
                "metric": row.metric,
                "gpu": resolved.gpu.id,
                "gpu_count": row.gpu_count,
                "engine": resolved.serving.engine,
                "model": row.model,
                "weights": row.weights,
                "prompt": row.prompt,
                "gen": row.gen,
                "batch": row.batch,
                "split": row.split,
                "source": row.source,
                "measured": row.measured,
                "predicted": predicted,
                "error_pct": 100.0 * (predicted / row.measured - 1.0),
                "fits": fit,
            }
        )
    by_metric = {m: _metric_summary([d for d in details if d["metric"] == m]) for m in METRICS}
    return {
        "rows": len(rows),
        "resolved": len(details),
        "unresolved": dict(unresolved),
        "by_metric": by_metric,
        "fit_agrees": sum(1 for d in details if d["fits"]),
        "details": details,
    }


def _metric_summary(items: list[dict[str, Any]]) -> dict[str, Any]:
    if not items:
        return {
            "rows": 0,
            "median_abs_pct_error": None,
            "p90_abs_pct_error": None,
            "spearman_min": None,
            "groups": 0,
        }
    errors = sorted(abs(d["error_pct"]) for d in items)
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for d in items:
        key = (
            d["model"],
            d["weights"],
            d["prompt"],
            d["gen"],
            d["batch"],
            d["engine"],
            d["gpu_count"],
            d["split"],
        )
        groups[key].append(d)
    rhos = [
        spearman([d["measured"] for d in g], [d["predicted"] for d in g])
        for g in groups.values()
        if len({d["gpu"] for d in g}) >= 4
    ]
    p90 = errors[min(len(errors) - 1, round(0.9 * (len(errors) - 1)))]
    return {
        "rows": len(items),
        "median_abs_pct_error": statistics.median(errors),
        "p90_abs_pct_error": p90,
        "spearman_min": min(rhos) if rhos else None,
        "groups": len(rhos),
    }


FIT_HEADER = ("engine", "gpu_model", "gpu_count", "model", "weights_format", "context_tokens")
FIT_VERDICTS = ("ran", "oom")


def is_fit_verdict_file(text: str) -> bool:
    """A file of published ran / out-of-memory cells (the header of
    ``llm_inference_fit_published.csv``)."""
    first = first_line(text)
    names = first.split(",")
    return "verdict" in names and all(name in names for name in FIT_HEADER)


def fit_verdict_report(
    text: str, catalog: Catalog, progress: Progress | None = None
) -> dict[str, Any]:
    """Whether the model's fit verdict (weights, KV cache at the cell's context and the
    engine's buffers in the cards' memory, layer split) matches each published cell:
    ``rows``, ``resolved``, ``fit_agreement`` (share right), ``ran_predicted_oom`` (cells
    that ran but are called too big, the costly mistake) and the cells that disagree."""
    header, raws = csv_rows(text)
    missing = [c for c in (*FIT_HEADER, "verdict") if c not in header]
    if missing:
        raise FileFormatError(f"the CSV lacks the column(s) {', '.join(missing)}")
    rows, agree, ran_called_oom = 0, 0, 0
    unresolved: dict[str, int] = defaultdict(int)
    wrong: list[dict[str, Any]] = []
    known: dict[InferenceRow, tuple[Resolved | str, bool]] = {}
    for number, raw in raws:
        rows += 1
        if progress is not None and rows % PROGRESS_EVERY == 0:
            progress(rows, -1)
        verdict = (raw["verdict"] or "").strip().lower()
        try:
            if verdict not in FIT_VERDICTS:
                raise ValueError(f"verdict {verdict[:20]!r} is not ran or oom")
            context = whole(raw["context_tokens"], "context_tokens")
            if not 1 <= context <= MAX_ROW_TOKENS:
                raise ValueError(f"context_tokens must be from 1 to {MAX_ROW_TOKENS:,}")
            query = InferenceRow(
                source=raw.get("source") or "",
                engine=raw["engine"],
                gpu_model=raw["gpu_model"],
                gpu_count=gpu_count(raw["gpu_count"]),
                split="layer",
                model=raw["model"],
                weights=raw["weights_format"],
                batch=1,
                prompt=context,
                gen=1,
                metric="pp",
                measured=1.0,
                basis="total",
            )
        except ValueError as error:
            raise FileFormatError(f"line {number}: {error}") from None
        outcome = known.get(query)
        if outcome is None:
            resolved = resolve(query, catalog)
            fit = False if isinstance(resolved, str) else fits(resolved)
            outcome = known[query] = (resolved, fit)
        resolved, predicted = outcome
        if isinstance(resolved, str):
            unresolved[resolved] += 1
            continue
        if predicted == (verdict == "ran"):
            agree += 1
            continue
        ran_called_oom += verdict == "ran"
        wrong.append(
            {
                "line": number,
                "gpu": resolved.gpu.id,
                "gpu_count": query.gpu_count,
                "model": query.model,
                "weights": query.weights,
                "context": context,
                "published": verdict,
                "predicted": "fits" if predicted else "does not fit",
            }
        )
    resolved_rows = agree + len(wrong)
    return {
        "rows": rows,
        "resolved": resolved_rows,
        "unresolved": dict(unresolved),
        "fit_agreement": agree / resolved_rows if resolved_rows else None,
        "ran_predicted_oom": ran_called_oom,
        "disagree": wrong,
    }
