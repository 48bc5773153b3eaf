"""Check the expert-offload and speculative-decoding models against published runs.

Reads ``resources/benchmarks/llm_moe_offload_published.csv`` and
``llm_speculative_published.csv``; each resolved row (its ``rigforge_*`` columns) is
predicted on ``rig_for`` its GPU with the stated host bandwidth, or on its prebuilt
system (``rigforge_system``). Speculative rows compare the speed-up over the same rig's
plain decode (the published acceptance, the ratio of accepted to drafted tokens, is
turned into the per-token acceptance the model takes: r = α(1 − α^K) / ((1 − α) K); a
row without a stated draft length runs llama.cpp's default). The one constant these rows
fit, ``verify_token_share``, is also refitted leaving each source out in turn, and each
source is predicted with the value the others give.

Run: .venv/bin/python -m tools.fit.check_serving_2026
"""

from __future__ import annotations

import csv
import dataclasses
import math
import re
import statistics
from collections.abc import Iterator
from pathlib import Path

from core.calc.inference import constants
from core.calc.inference.memory import inference_memory
from core.calc.rig import rig_for, serving_speed
from core.calc.system import serve_system
from core.catalog import load_catalog
from core.catalog.systems import find_system
from core.models.parts import GPU
from core.models.system import System
from core.models.workload import Serving, Workload
from core.workloads import find_preset, make_workload

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "resources" / "benchmarks"


def per_token_acceptance(ratio: float, drafted: int) -> float:
    """α whose expected accepted share of ``drafted`` tokens is ``ratio`` (bisection)."""
    low, high = 1e-6, 0.999999
    for _ in range(60):
        a = (low + high) / 2
        if a * (1 - a**drafted) / ((1 - a) * drafted) < ratio:
            low = a
        else:
            high = a
    return (low + high) / 2


def _first_number(text: str) -> float | None:
    found = re.search(r"\d+(\.\d+)?", text)
    return float(found.group()) if found else None


def _resolved(name: str) -> Iterator[tuple[dict[str, str], GPU | None, System | None, Workload]]:
    """Each row of ``name`` that names a catalog GPU or prebuilt system and a preset (its
    ``rigforge_*`` columns), with them."""
    catalog = load_catalog()
    with (BENCH / name).open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            gpu = catalog.gpu(row["rigforge_gpu"]) if row["rigforge_gpu"] else None
            system_name = row.get("rigforge_system") or ""
            system = find_system(system_name) if system_name else None
            if gpu is not None or system is not None:
                workload = make_workload(find_preset(row["rigforge_model"]), task="inference")
                yield row, gpu, system, workload


def moe_rows() -> list[tuple[str, float, float]]:
    out = []
    for row, gpu, _system, workload in _resolved("llm_moe_offload_published.csv"):
        assert gpu is not None
        prompt = int(row["prompt_tokens"] or 1)
        gen = int(row["gen_tokens"] or 1)
        serving = Serving(
            weights=row["rigforge_weights"],
            n_cpu_moe=int(row["n_cpu_moe"]),
            prompt_len=max(prompt, 1),
            gen_len=max(gen, 1),
        )
        rig = rig_for(
            gpu,
            1,
            host_memory_gb_s=float(row["rigforge_host_gb_s"]),
            cpu_cores=int(row["rigforge_cpu_cores"]),
        )
        memory = inference_memory(workload, serving, gpu.vram_gib, 1)
        speed = serving_speed(workload, serving, rig, max_streams=memory.max_streams, curves=False)
        value = (
            speed.prefill_tokens_s if row["metric"] == "pp" else (speed.decode_tokens_s_per_stream)
        )
        label = f"{row['gpu_model']} {row['model']} {row['metric']} {prompt or gen}"
        out.append((label, value, float(row["measured_tokens_s"])))
    return out


def _decode_speed(
    gpu: GPU | None, system: System | None, workload: Workload, serving: Serving
) -> float:
    if system is not None:
        speed = serve_system(system, workload.model_copy(update={"serving": serving})).speed
        return speed.decode_tokens_s_per_stream
    assert gpu is not None
    speed = serving_speed(workload, serving, rig_for(gpu, 1), max_streams=1, curves=False)
    return speed.decode_tokens_s_per_stream


def speculative_rows() -> list[tuple[str, str, float, float]]:
    """(label, source, predicted speed-up, measured speed-up) of each resolved row."""
    out = []
    for row, gpu, system, workload in _resolved("llm_speculative_published.csv"):
        default = constants.SPECULATIVE_DEFAULTS[row["method"]].draft_tokens
        drafted = int(_first_number(row["draft_tokens"]) or default)
        ratio = _first_number(row["acceptance_rate"]) or 0.0
        ratio = ratio / 100 if ratio > 1 else ratio
        alpha = per_token_acceptance(ratio, drafted)
        plain = Serving(weights=row["rigforge_weights"], prompt_len=512, gen_len=256)
        spec = plain.model_copy(
            update={
                "speculative": row["method"],
                "draft_tokens": drafted,
                "acceptance": round(alpha, 4),
                "draft_model": row["rigforge_draft"] or None,
            }
        )
        base, fast = (_decode_speed(gpu, system, workload, s) for s in (plain, spec))
        measured = float(row["speculative_tokens_s"]) / float(row["baseline_tokens_s"])
        label = f"{row['gpu_model']} {row['target_model']} {row['method']} K={drafted}"
        out.append((label, row["source"], fast / base, measured))
    return out


def _with_verify_share(share: float) -> dict[str, constants.EngineConstants]:
    """Set every engine's ``verify_token_share`` to ``share``; returns the old constants."""
    engines = constants.FITTED.engines
    saved = dict(engines)
    for key, value in saved.items():
        engines[key] = dataclasses.replace(value, verify_token_share=share)
    return saved


def _median_error(rows: list[tuple[str, str, float, float]]) -> float:
    return statistics.median(abs(100.0 * (p / m - 1.0)) for _l, _s, p, m in rows)


def _fit_share(sources: set[str]) -> float:
    """The ``verify_token_share`` (on a 0.01 grid) with the least median error over the
    rows of ``sources``."""
    best = (math.inf, 0.0)
    for step in range(0, 101, 2):
        share = step / 100
        saved = _with_verify_share(share)
        try:
            rows = [r for r in speculative_rows() if r[1] in sources]
        finally:
            constants.FITTED.engines.update(saved)
        best = min(best, (_median_error(rows), share))
    return best[1]


def leave_one_source_out() -> list[tuple[str, str, float, float]]:
    """Each source's rows predicted with the share fitted on the other sources."""
    rows = speculative_rows()
    sources = sorted({r[1] for r in rows})
    out = []
    for source in sources:
        share = _fit_share(set(sources) - {source})
        saved = _with_verify_share(share)
        try:
            held = [r for r in speculative_rows() if r[1] == source]
        finally:
            constants.FITTED.engines.update(saved)
        print(f"  without {source[:60]}: share {share:.2f}, its rows {_median_error(held):.1f} %")
        out.extend(held)
    return out


def _report(name: str, rows: list[tuple[str, str, float, float]]) -> float | None:
    print(f"== {name}")
    errors = []
    for label, _source, predicted, measured in rows:
        error = 100.0 * (predicted / measured - 1.0)
        errors.append(abs(error))
        print(f"{label:70s} predicted {predicted:8.2f} measured {measured:8.2f} {error:+6.1f} %")
    if not errors:
        return None
    median = statistics.median(errors)
    print(f"median abs error {median:.1f} % over {len(errors)} rows")
    return median


def main() -> None:
    _report("experts in host RAM (--n-cpu-moe)", [(a, "", b, c) for a, b, c in moe_rows()])
    _report("speculative decoding: speed-up over plain decode", speculative_rows())
    print("== speculative decoding, leaving one source out (verify_token_share refitted)")
    _report("speculative decoding, each source predicted from the others", leave_one_source_out())


if __name__ == "__main__":
    main()
