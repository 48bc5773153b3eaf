"""Fit llama.cpp's tensor split (its row split, ``-sm row``) on its published runs.

llama.cpp's row split divides every weight matrix by rows over the cards, copies each
matrix's input to every card and gathers its output on the main card: more, and wider,
transfers per layer than the two 16-bit all-reduces of a Megatron-style tensor split. Two
global constants of the llama.cpp engine describe it (``EngineConstants``):
``tensor_syncs_per_layer`` (transfers per layer, each paying the link's latency) and
``tensor_message_bytes`` (bytes each moves per token and hidden value). Every other
constant stays as fitted on the single-GPU and layer-split rows.

Rows: the ``-sm row`` rows of ``resources/benchmarks/llm_inference_published.csv``
(llama.cpp pull request #19378, comment of 2026-02-07: 4× RTX 4090, a Llama 70B Q4_K_M
and Qwen3 30B-A3B Q8_0, prompt and generation). The same comment's ``-sm tensor`` rows (an
experimental mode) are not modelled. Loss: Huber of log predicted / measured, grid search.
Reported: in sample, and leaving one model out (refitting on the other model's rows).

Run: .venv/bin/python -m tools.fit.fit_row_split
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from pathlib import Path

from core.calc.inference.constants import FITTED, InferenceConstants
from core.catalog import load_catalog
from core.validation.inference import Resolved, load_inference_rows, predict, resolve
from tools.fit.fit_inference import huber

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "resources" / "benchmarks" / "llm_inference_published.csv"
HELDOUT = ROOT / "resources" / "benchmarks" / "llm_inference_heldout.csv"
SYNCS = [1.0 + 0.25 * i for i in range(37)]  # 1 to 10
BYTES = [0.5 * i for i in range(1, 41)]  # 0.5 to 20


def row_split_rows() -> list[Resolved]:
    catalog = load_catalog()
    out = []
    for row in load_inference_rows(PUBLISHED):
        if row.engine != "llama.cpp" or row.split != "tensor" or row.gpu_count < 2:
            continue
        resolved = resolve(row, catalog)
        if isinstance(resolved, Resolved):
            out.append(resolved)
    return out


def with_split(syncs: float, message: float) -> InferenceConstants:
    engine = dataclasses.replace(
        FITTED.engines["llama.cpp"], tensor_syncs_per_layer=syncs, tensor_message_bytes=message
    )
    return dataclasses.replace(FITTED, engines={**FITTED.engines, "llama.cpp": engine})


def fit(rows: list[Resolved]) -> tuple[float, float]:
    def loss(pair: tuple[float, float]) -> float:
        constants = with_split(*pair)
        return sum(huber(math.log(predict(r, constants) / r.row.measured)) for r in rows)

    return min(itertools.product(SYNCS, BYTES), key=loss)


def errors(rows: list[Resolved], constants: InferenceConstants) -> list[float]:
    return [abs(predict(r, constants) / r.row.measured - 1.0) * 100.0 for r in rows]


def main() -> None:
    rows = row_split_rows()
    syncs, message = fit(rows)
    fitted = with_split(syncs, message)
    print(
        f"{len(rows)} rows; fitted tensor_syncs_per_layer={syncs}, tensor_message_bytes={message}"
    )
    print("two 16-bit all-reduces per layer (Megatron-style) -> fitted:")
    megatron = with_split(2.0, 2.0)
    for r, before, after in zip(rows, errors(rows, megatron), errors(rows, fitted), strict=True):
        row = r.row
        print(
            f"  {row.model:32} {row.metric} {row.prompt:>5}: measured {row.measured:8.1f}, "
            f"predicted {predict(r, megatron):8.1f} ({before:5.1f} %) -> "
            f"{predict(r, fitted):8.1f} ({after:5.1f} %)"
        )
    print(f"in sample: median {statistics.median(errors(rows, fitted)):.1f} %")
    models = sorted({r.row.model for r in rows})
    left_out = []
    for model in models:
        train = [r for r in rows if r.row.model != model]
        test = [r for r in rows if r.row.model == model]
        pair = fit(train)
        errs = errors(test, with_split(*pair))
        left_out += errs
        print(
            f"  {model} left out: fitted {pair}, its rows {', '.join(f'{e:.1f} %' for e in errs)}"
        )
    print(f"leave one model out: median {statistics.median(left_out):.1f} %")
    check_2023(2.0, 2.0)
    check_2023(syncs, message)


def check_2023(syncs: float, message: float) -> None:
    """The held-out llama.cpp rows of 2023 (mlc-ai's llm-perf-bench: llama.cpp's row split
    was then the multi-GPU default), predicted with that year's build constants and the
    fitted split; a check on other GPUs (A10G, A100 PCIe) and another publisher, never fitted."""
    catalog = load_catalog()
    base = FITTED.engines["llama.cpp@2023-12"]
    engine = dataclasses.replace(base, tensor_syncs_per_layer=syncs, tensor_message_bytes=message)
    constants = dataclasses.replace(FITTED, engines={**FITTED.engines, "llama.cpp": engine})
    errs = []
    for row in load_inference_rows(HELDOUT):
        if row.engine != "llama.cpp" or row.split != "tensor" or row.gpu_count < 2:
            continue
        resolved = resolve(dataclasses.replace(row, source=row.source.replace("2023", "")), catalog)
        if isinstance(resolved, Resolved):
            errs.append(predict(resolved, constants) / row.measured - 1.0)
    if errs:
        signed = statistics.median(errs) * 100.0
        absolute = statistics.median(abs(e) for e in errs) * 100.0
        print(
            f"held-out 2023 row-split rows ({len(errs)}): median abs error {absolute:.1f} %, "
            f"median signed {signed:+.1f} %"
        )


if __name__ == "__main__":
    main()
