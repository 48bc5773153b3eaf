"""Whether a workload's parallel settings fit a GPU count."""

from __future__ import annotations

from core.errors import InvalidWorkload
from core.models.workload import Workload


def check_gpu_count(workload: Workload, gpu_count: int) -> None:
    """Reject parallel settings the GPU count cannot host (raises ``InvalidWorkload``)."""
    if gpu_count < 1:
        raise InvalidWorkload("GPU count must be at least 1")
    if workload.tp_degree > gpu_count:
        raise InvalidWorkload(
            f"tensor parallel degree {workload.tp_degree} exceeds the {gpu_count} GPU(s)"
        )
    if gpu_count % workload.tp_degree:
        raise InvalidWorkload(
            f"{gpu_count} GPUs do not split into tensor-parallel groups of {workload.tp_degree}"
        )
    split = workload.tp_degree * workload.pp_degree
    if workload.pp_degree > 1 and split > gpu_count:
        raise InvalidWorkload(
            f"tensor parallel {workload.tp_degree} x pipeline parallel {workload.pp_degree} "
            f"needs {split} GPUs; the build has {gpu_count}"
        )
    if workload.pp_degree > 1 and gpu_count % split:
        raise InvalidWorkload(
            f"{gpu_count} GPUs do not split into model-parallel groups of {split} "
            f"(tensor {workload.tp_degree} x pipeline {workload.pp_degree})"
        )
