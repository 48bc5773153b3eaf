"""Write Argonne's vLLM static-batch runs on NVIDIA GPUs as rows of RigForge's published
LLM measurements (``resources/benchmarks/llm_static_batch_published.csv``), a check set
no constant is fitted on.

Source: Argonne National Laboratory, LLM-Inference-Bench (Chitty-Venkata et al.,
arXiv:2411.00136), ``Plots/All_results.csv`` at commit ae7e7a4 (2024-09-27). Its vLLM
scripts (``vLLM/A100/Throughput_measurement/benchmark_throughput.py``,
``vLLM/H100/benchmark_throughput.py``) time one ``LLM.generate`` of ``batch`` random
prompts of ``L`` tokens, each generating ``L`` tokens (``ignore_eos``), after three
warm-up runs, and report ``batch x (L + L) / latency``: prompt and output tokens. The
rows here give the output tokens per second, half of that (``tg_batched``: a static batch,
prompts processed first). Only models RigForge has presets for; fp16 (the scripts'
``--dtype float16``). GPUs: the H100 is the SXM5 80 GB (the repository's nvidia-smi
output), the GH200 the 96 GB module, the A100 the 40 GB SXM4 of ALCF's Polaris, where
the job scripts run (``#PBS -l filesystems=home:eagle:grand``).

Run: python -m tools.derive.argonne_static_batch PATH/TO/All_results.csv > OUT.csv
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

COMMIT = "ae7e7a41173badc99f7b59da1657a0172813e5e5"
SOURCE = (
    "Argonne National Laboratory, LLM-Inference-Bench (Chitty-Venkata et al., "
    "arXiv:2411.00136) - vLLM throughput runs"
)
GPUS = {
    "Nvidia A100 GPU": "A100 40GB SXM4",
    "Nvidia H100 GPU": "H100 SXM5 80GB",
    "Nvidia GH200 GPU": "GH200 Grace Hopper Superchip (96GB HBM3)",
}
MODELS = {
    "meta-llama/Llama-2-7b-hf": "Llama-2 7B",
    "meta-llama/Llama-2-70b-hf": "Llama-2 70B",
    "meta-llama/Meta-Llama-3-8B": "Llama-3 8B",
    "meta-llama/Meta-Llama-3-70B": "Llama-3 70B",
    "mistralai/Mistral-7B-v0.1": "Mistral 7B",
    "mistralai/Mixtral-8x7B-v0.1": "Mixtral 8x7B",
}
HEADER = [
    "source", "source_ref", "table_section", "engine", "gpu_model", "gpu_count", "split_mode",
    "model", "weights_format", "batch", "prompt_tokens", "gen_tokens", "metric",
    "measured_tokens_s", "measured_basis", "notes",
]  # fmt: skip


def rows(path: Path) -> list[dict[str, str]]:
    out = []
    with path.open(newline="", encoding="utf-8") as handle:
        for line, r in enumerate(csv.DictReader(handle), start=2):
            gpu, model = GPUS.get(r["Hardware"]), MODELS.get(r["Model"])
            if r["Framework"] != "vLLM" or gpu is None or model is None:
                continue
            count, length = int(r["Num of Hardware"]), int(r["Input Output Length"])
            batch = int(r["Batch Size"])
            total = float(r["Throughput"])
            raw = ",".join(r[k] for k in r)
            out.append(
                {
                    "source": SOURCE,
                    "source_ref": f"argonne-lcf/LLM-Inference-Bench@{COMMIT}:Plots/All_results.csv",
                    "table_section": f"line {line}: '{raw}'",
                    "engine": "vLLM",
                    "gpu_model": gpu,
                    "gpu_count": str(count),
                    "split_mode": "none" if count == 1 else "tensor",
                    "model": model,
                    "weights_format": "f16",
                    "batch": str(batch),
                    "prompt_tokens": str(length),
                    "gen_tokens": str(length),
                    "metric": "tg_batched",
                    "measured_tokens_s": f"{total / 2:.2f}",
                    "measured_basis": "total",
                    "notes": (
                        f"DERIVED: output tokens/s = published throughput {total:.2f} "
                        f"(batch x (input + output) / latency) / 2, input = output = {length}; "
                        "static batch (one LLM.generate after 3 warm-ups), vLLM 2024 "
                        "(pip install vllm; version not printed), tensor parallel over "
                        f"{count} GPU(s), fp16"
                    ),
                }
            )
    return out


def main() -> None:
    writer = csv.DictWriter(sys.stdout, fieldnames=HEADER, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(Path(sys.argv[1])))


if __name__ == "__main__":
    main()
