"""A build: which parts, how many, GPU power limit and NVLink bridges.

Parts are held by value, so a build analyses the same whether or not the
catalog it came from still has them (the file format stores id + snapshot).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from core.models.common import Frozen, PartId
from core.models.parts import (
    CPU,
    GPU,
    PSU,
    Case,
    Category,
    Drive,
    MemoryKit,
    Motherboard,
    Part,
    Riser,
)

MAX_GPUS = 16
PART_FIELDS: dict[str, Category] = {
    "gpu": "gpu",
    "cpu": "cpu",
    "motherboard": "motherboard",
    "memory": "memory",
    "psu": "psu",
    "case": "case",
    "riser": "riser",
}
"""Build fields that hold one part, and the catalog category of that part (the drives
are a list of their own)."""
MAX_NAME = 200
MAX_DRIVES = 24
"""Limits shared with the file format (``core.files.document``): an edit that passes them
can always be saved."""


class DriveSelection(Frozen):
    drive: Drive
    count: Annotated[int, Field(ge=1, le=MAX_DRIVES)] = 1


class Quote(Frozen):
    """Where one part of the build is bought: the vendor and the quote or order reference
    purchasing will cite (both free text, either may be empty)."""

    part_id: PartId
    vendor: Annotated[str, Field(max_length=120)] = ""
    reference: Annotated[str, Field(max_length=120)] = ""


MAX_TAX_PCT = 50.0
MAX_SHIPPING_USD = 1_000_000.0


class Build(Frozen):
    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)] = "Untitled build"
    gpu: GPU
    gpu_count: Annotated[int, Field(ge=1, le=MAX_GPUS)] = 1
    gpu_power_limit_w: Annotated[float, Field(gt=0, le=2000)] | None = None
    """Per-GPU power limit; ``None`` runs the card at its board power."""
    nvlink_bridges: Annotated[int, Field(ge=0, le=MAX_GPUS // 2)] = 0
    cpu: CPU
    cpu_count: Annotated[int, Field(ge=1, le=2)] = 1
    motherboard: Motherboard
    memory: MemoryKit
    memory_kits: Annotated[int, Field(ge=1, le=16)] = 1
    drives: Annotated[tuple[DriveSelection, ...], Field(min_length=1, max_length=MAX_DRIVES)]
    psu: PSU | None = None
    """``None`` asks the app to size one."""
    psu_count: Annotated[int, Field(ge=1, le=4)] = 1
    case: Case | None = None
    riser: Riser | None = None
    """A PCIe riser or extension cable per GPU (open frames, vertical mounts); ``None``:
    the GPUs sit in their slots."""
    used: Annotated[tuple[PartId, ...], Field(max_length=16)] = ()
    """Ids of the build's parts bought second-hand: their used price applies (unknown when
    the part has none). Ids of parts not in the build are dropped."""
    quotes: Annotated[tuple[Quote, ...], Field(max_length=32)] = ()
    """Vendor and quote reference per part, for the purchase sheet (parts not in the build
    are dropped)."""
    tax_pct: Annotated[float, Field(ge=0, le=MAX_TAX_PCT)] | None = None
    """Sales tax on the parts, per cent (``None``: not stated)."""
    shipping_usd: Annotated[float, Field(ge=0, le=MAX_SHIPPING_USD)] | None = None
    """Shipping for the whole order, USD (``None``: not stated)."""

    @model_validator(mode="after")
    def _limits(self) -> Build:
        if self.used or self.quotes:
            # A part swapped out takes its "bought used" mark and its quote with it.
            ids = {part.id for _quantity, part in self.bill_of_materials()}
            kept = tuple(dict.fromkeys(i for i in self.used if i in ids))
            if kept != self.used:
                object.__setattr__(self, "used", kept)  # still being validated: not shared yet
            quotes = tuple({q.part_id: q for q in self.quotes if q.part_id in ids}.values())
            if quotes != self.quotes:
                object.__setattr__(self, "quotes", quotes)
        if self.drive_count > MAX_DRIVES:
            raise ValueError(f"at most {MAX_DRIVES} drives in one build")
        if self.nvlink_bridges > self.gpu_count // 2:
            raise ValueError(
                f"{self.nvlink_bridges} NVLink bridges need {2 * self.nvlink_bridges} GPUs"
            )
        if self.nvlink_bridges and self.gpu.nvlink_topology != "bridge_pair":
            raise ValueError(f"{self.gpu.name} takes no NVLink bridge")
        if (
            self.gpu_power_limit_w is not None
            and not 0.2
            <= self.gpu_power_limit_w / (self.gpu.board_power_w or self.gpu_power_limit_w)
            <= 1.5
        ):
            raise ValueError("gpu_power_limit_w must be within 20-150 % of the board power")
        return self

    def quote(self, part_id: str) -> Quote | None:
        """Where part ``part_id`` is bought, when the user said."""
        return next((q for q in self.quotes if q.part_id == part_id), None)

    @property
    def drive_count(self) -> int:
        return sum(d.count for d in self.drives)

    @property
    def memory_gib(self) -> float:
        return self.memory.capacity_gib * self.memory_kits

    @property
    def dimm_count(self) -> int:
        return self.memory.modules * self.memory_kits

    @property
    def gpu_power_w(self) -> float | None:
        """Per-GPU power the build runs at: the limit, else the board power."""
        return self.gpu_power_limit_w or self.gpu.board_power_w

    def bill_of_materials(self) -> tuple[tuple[int, Part], ...]:
        """(quantity, part) lines in the order a spec sheet lists them."""
        lines: list[tuple[int, Part]] = [
            (self.gpu_count, self.gpu),
            (self.cpu_count, self.cpu),
            (1, self.motherboard),
            (self.memory_kits, self.memory),
        ]
        lines += [(d.count, d.drive) for d in self.drives]
        if self.psu is not None:
            lines.append((self.psu_count, self.psu))
        if self.case is not None:
            lines.append((1, self.case))
        if self.riser is not None:
            lines.append((self.gpu_count, self.riser))
        return tuple(lines)

    def is_used(self, part: Part) -> bool:
        return part.id in self.used
