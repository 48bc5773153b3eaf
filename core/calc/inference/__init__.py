"""LLM serving: memory, prefill, time to first token, generation speed, users served, cost.

``core.calc.inference.serve.serve`` is the one entry point; ``core.calc.analysis`` calls it
for decoder inference, on the machine ``core.calc.rig`` reads from the build.
"""

from __future__ import annotations

from core.calc.inference.memory import inference_memory, memory_fixes
from core.calc.inference.speed import inference_speed
from core.models.workload import Serving, Workload

__all__ = [
    "inference_memory",
    "inference_speed",
    "is_serving",
    "memory_fixes",
    "serving_of",
]


def is_serving(workload: Workload | None) -> bool:
    """Whether ``workload`` is LLM serving (decoder inference)."""
    return workload is not None and workload.is_serving


def serving_of(workload: Workload) -> Serving:
    """The workload's serving settings; the defaults from its precision and lengths."""
    return workload.serving_settings
