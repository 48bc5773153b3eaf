"""How far each estimate is from published measurements it was not fitted to.

``resources/benchmarks/error_bands.json`` holds, per estimate family (training by
software stack, fine-tuning, LLM decode, prefill, time to first token, batched serving,
experts in host RAM, speculative decoding, memory), the median absolute error of its
cross-validation and what it was measured on. Every estimate shows its family's figure
(``predict --json``: ``expected_error_pct``; the window's cards; the build sheet).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from core.models.workload import Workload


class Band(NamedTuple):
    family: str
    pct: float | None
    """Median absolute error, per cent; ``None``: no published rows to measure it on."""
    basis: str


@cache
def _bands() -> dict[str, Any]:
    text = resources.files("resources.benchmarks").joinpath("error_bands.json").read_text("utf-8")
    families: dict[str, Any] = json.loads(text)["families"]
    return families


def band(family: str) -> Band:
    entry = _bands()[family]
    pct = entry["pct"]
    return Band(family, None if pct is None else float(pct), str(entry["basis"]))


def training_band(workload: Workload) -> Band:
    """The throughput estimate's family: fine-tuning for LoRA/QLoRA, else the stack's."""
    if workload.task in ("lora", "qlora"):
        return band("fine-tuning")
    key = f"training:{workload.stack}"
    return band(key if key in _bands() else "training:pytorch")


def serving_bands(workload: Workload, gpus: int = 1) -> dict[str, Band]:
    """The bands of each serving figure: generation (experts in host RAM, speculative
    decoding and llama.cpp's row split over ``gpus`` GPUs have their own), prompt
    processing, time to first token, many streams; an engine with a figure of its own
    for one of them (``<family>:<engine>`` in the file) carries that one."""
    serving = workload.serving_settings

    def own(family: str) -> Band:
        """The engine's own figure where its rows give one (``ttft:tensorrt-llm``)."""
        key = f"{family}:{serving.engine}"
        return band(key if key in _bands() else family)

    decode, prefill = own("decode"), own("prefill")
    if serving.engine == "llama.cpp" and serving.split == "tensor" and gpus > 1:
        decode, prefill = band("row_split_decode"), band("row_split_prefill")
    if serving.n_cpu_moe or serving.offload_gib:
        decode = band("moe_offload")
    if serving.speculative != "none":
        decode = band("speculative")
    return {
        "decode_tokens_s_per_stream": decode,
        "prefill_tokens_s": prefill,
        "ttft_s": own("ttft"),
        "aggregate_decode_tokens_s": own("batched") if serving.streams > 1 else decode,
    }


def band_text(b: Band) -> str:
    if b.pct is None:
        return "error not measured (no published runs of its kind were held out)"
    return f"±{b.pct:.0f} % median error on published runs it was not fitted to"
