"""The RigForge file format (JSON), version 3.

A document holds one build or a comparison of several, the workload, the
settings that change results, a title and notes. Each part is stored as its
catalog ``id`` plus a ``snapshot`` of the part as the numbers were computed,
so a file opens with a newer, older or smaller catalog and shows the same
numbers. Custom parts are embedded whole (their snapshot has ``custom: true``).
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import Field

from core.models.build import (
    MAX_DRIVES,
    MAX_GPUS,
    MAX_NAME,
    MAX_SHIPPING_USD,
    MAX_TAX_PCT,
    Quote,
)
from core.models.common import Frozen, PartId
from core.models.parts import CPU, GPU, PSU, Case, Drive, MemoryKit, Motherboard, Riser
from core.models.session import MAX_BUILDS, MAX_NOTES, MAX_TITLE
from core.models.settings import AnalysisSettings
from core.models.system import System
from core.models.workload import Workload

FORMAT_NAME = "rigforge"
CURRENT_VERSION = 5

P = TypeVar("P", GPU, CPU, Motherboard, MemoryKit, Drive, PSU, Case, Riser)


class PartRef(Frozen, Generic[P]):
    """A part by catalog id, with the specs and price the file's numbers used."""

    id: PartId
    snapshot: P | None = None


class DriveRecord(Frozen):
    part: PartRef[Drive]
    count: Annotated[int, Field(ge=1, le=MAX_DRIVES)] = 1


class BuildRecord(Frozen):
    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)] = "Untitled build"
    gpu: PartRef[GPU]
    gpu_count: Annotated[int, Field(ge=1, le=MAX_GPUS)] = 1
    gpu_power_limit_w: Annotated[float, Field(gt=0, le=2000)] | None = None
    nvlink_bridges: Annotated[int, Field(ge=0, le=8)] = 0
    cpu: PartRef[CPU]
    cpu_count: Annotated[int, Field(ge=1, le=2)] = 1
    motherboard: PartRef[Motherboard]
    memory: PartRef[MemoryKit]
    memory_kits: Annotated[int, Field(ge=1, le=16)] = 1
    drives: Annotated[tuple[DriveRecord, ...], Field(min_length=1, max_length=MAX_DRIVES)]
    psu: PartRef[PSU] | None = None
    psu_count: Annotated[int, Field(ge=1, le=4)] = 1
    case: PartRef[Case] | None = None
    riser: PartRef[Riser] | None = None
    """One riser or extension cable per GPU (absent: the GPUs sit in their slots)."""
    used: Annotated[tuple[PartId, ...], Field(max_length=16)] = ()
    """Ids of parts bought second-hand (their used price applies)."""
    quotes: Annotated[tuple[Quote, ...], Field(max_length=32)] = ()
    """Vendor and quote reference per part (version 4)."""
    tax_pct: Annotated[float, Field(ge=0, le=MAX_TAX_PCT)] | None = None
    shipping_usd: Annotated[float, Field(ge=0, le=MAX_SHIPPING_USD)] | None = None


class SystemRecord(Frozen):
    """A prebuilt system in a file: its id, the system as saved (it travels with the file,
    like parts) and how many are linked (version 5)."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    id: Annotated[str, Field(min_length=1, max_length=120)]
    snapshot: System | None = None
    nodes: Annotated[int, Field(ge=1, le=2)] = 1


class Document(Frozen):
    """The whole file, as written by this version of RigForge."""

    format: Literal["rigforge"] = "rigforge"
    version: Literal[5] = 5
    kind: Literal["build", "comparison"] = "build"
    title: Annotated[str, Field(max_length=MAX_TITLE)] = ""
    notes: Annotated[str, Field(max_length=MAX_NOTES)] = ""
    app_version: Annotated[str, Field(max_length=40)] = ""
    settings: AnalysisSettings = AnalysisSettings()
    workload: Workload | None = None
    builds: Annotated[tuple[BuildRecord, ...], Field(min_length=1, max_length=MAX_BUILDS)]
    baseline: Annotated[int, Field(ge=0)] = 0
    """Index of the build other builds are compared against."""
    systems: Annotated[tuple[SystemRecord, ...], Field(max_length=16)] = ()
    """Prebuilt systems compared beside the builds (version 5)."""


def json_schema() -> dict[str, Any]:
    """JSON Schema of the current format, generated from the models."""
    schema = Document.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://rigforge.invalid/schema/rigforge-5.json"
    schema["title"] = f"RigForge build file, version {CURRENT_VERSION}"
    return schema
