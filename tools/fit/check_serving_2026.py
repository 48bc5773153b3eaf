"""Check the expert-offload and speculative-decoding models against published runs.

Reads ``resources/benchmarks/llm_moe_offload_published.csv`` and
``llm_speculative_published.csv``; each resolved row (its ``rigforge_*`` columns) is
predicted on ``rig_for`` its GPU with the stated host bandwidth. Speculative rows compare
the speed-up over the same rig's plain decode (the published acceptance, the ratio of
accepted to drafted tokens, is turned into the per-token acceptance the model takes:
r = α(1 − α^K) / ((1 − α) K)). No constant here is fitted on these rows.

Run: .venv/bin/python -m tools.fit.check_serving_2026
"""

from __future__ import annotations

import csv
import re
import statistics
from collections.abc import Iterator
from pathlib import Path

from core.calc.inference.memory import inference_memory
from core.calc.rig import rig_for, serving_speed
from core.catalog import load_catalog
from core.models.parts import GPU
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


def _resolved(name: str) -> Iterator[tuple[dict[str, str], GPU, Workload]]:
    """Each row of ``name`` that names a catalog GPU and a preset (its ``rigforge_*``
    columns), with them."""
    catalog = load_catalog()
    with (BENCH / name).open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["rigforge_gpu"]:
                gpu = catalog.gpu(row["rigforge_gpu"])
                workload = make_workload(find_preset(row["rigforge_model"]), task="inference")
                yield row, gpu, workload


def moe_rows() -> list[tuple[str, float, float]]:
    out = []
    for row, gpu, workload in _resolved("llm_moe_offload_published.csv"):
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


def speculative_rows() -> list[tuple[str, float, float]]:
    out = []
    for row, gpu, workload in _resolved("llm_speculative_published.csv"):
        drafted = int(_first_number(row["draft_tokens"]) or 1)
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
        speeds = [
            serving_speed(workload, s, rig_for(gpu, 1), max_streams=1, curves=False)
            for s in (plain, spec)
        ]
        predicted = speeds[1].decode_tokens_s_per_stream / speeds[0].decode_tokens_s_per_stream
        measured = float(row["speculative_tokens_s"]) / float(row["baseline_tokens_s"])
        label = f"{row['gpu_model']} {row['target_model']} {row['method']} K={drafted}"
        out.append((label, predicted, measured))
    return out


def _report(name: str, rows: list[tuple[str, float, float]]) -> float | None:
    print(f"== {name}")
    errors = []
    for label, predicted, measured in rows:
        error = 100.0 * (predicted / measured - 1.0)
        errors.append(abs(error))
        print(f"{label:70s} predicted {predicted:8.2f} measured {measured:8.2f} {error:+6.1f} %")
    if not errors:
        return None
    median = statistics.median(errors)
    print(f"median abs error {median:.1f} % over {len(errors)} rows")
    return median


def main() -> None:
    _report("experts in host RAM (--n-cpu-moe)", moe_rows())
    _report("speculative decoding: speed-up over plain decode", speculative_rows())


if __name__ == "__main__":
    main()
