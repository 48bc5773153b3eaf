"""Which engines split a model over several GPUs, and how (``Serving.split``).

A Megatron-style tensor split (vLLM, SGLang, TensorRT-LLM) gives every GPU an equal share of
the attention heads, so the GPU count must divide them (vLLM: "Total number of attention
heads must be divisible by tensor parallel size"); llama.cpp's row split (``--split-mode
row``) takes any count.
"""

from __future__ import annotations

from core.models.workload import Workload

TENSOR_ENGINES = ("vllm", "sglang", "tensorrt-llm")
"""Engines whose tensor parallelism divides the attention heads evenly over the GPUs."""
SPLIT_ENGINES = ("llama.cpp", *TENSOR_ENGINES)
"""Engines that run a model split either way: by layers or by tensors."""


def tensor_split_allowed(workload: Workload, count: int) -> bool:
    """Whether ``workload``'s engine can split every layer over ``count`` GPUs."""
    engine = workload.serving_settings.engine
    if engine not in SPLIT_ENGINES:
        return False
    heads = workload.architecture.heads or 0
    return engine not in TENSOR_ENGINES or (heads > 0 and heads % count == 0)


def tensor_split_refused(workload: Workload, count: int) -> bool:
    """A tensor split over ``count`` GPUs that the workload's engine refuses to start."""
    serving = workload.serving_settings
    return (
        serving.split == "tensor"
        and count > 1
        and serving.engine in TENSOR_ENGINES
        and not tensor_split_allowed(workload, count)
    )
