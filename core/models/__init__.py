"""Frozen pydantic models: parts, builds, workloads and results."""

from core.models.build import Build, DriveSelection
from core.models.common import Price
from core.models.parts import (
    CPU,
    GPU,
    PART_TYPES,
    PSU,
    AnyPart,
    Case,
    Drive,
    MemoryKit,
    Motherboard,
    Part,
)

__all__ = [
    "CPU",
    "GPU",
    "PART_TYPES",
    "PSU",
    "AnyPart",
    "Build",
    "Case",
    "Drive",
    "DriveSelection",
    "MemoryKit",
    "Motherboard",
    "Part",
    "Price",
]
