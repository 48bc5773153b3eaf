"""The search space of the build optimizer: platforms, memory and PSU options.

A platform is a CPU with a board of the same socket whose memory type and DIMM
kind the CPU supports (``core.calc.platform.compat``). Memory options are every catalog
kit the platform takes, 1..n kits as the DIMM slots allow, keeping those that fill every
memory channel where any does; PSU options every catalog PSU, 1..``max_psus`` units.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.calc.platform.compat import memory_fits, same_socket
from core.catalog import Catalog
from core.models.parts import CPU, PSU, Drive, MemoryKit, Motherboard
from core.models.suggest import PlatformFamily


@dataclass(frozen=True)
class MemoryOption:
    kit: MemoryKit
    kits: int

    @property
    def capacity_gib(self) -> float:
        return self.kit.capacity_gib * self.kits

    @property
    def dimms(self) -> int:
        return self.kit.modules * self.kits

    @property
    def usd(self) -> float | None:
        return None if self.kit.price.usd is None else self.kit.price.usd * self.kits


@dataclass(frozen=True)
class PsuOption:
    psu: PSU
    count: int

    @property
    def usd(self) -> float | None:
        return None if self.psu.price.usd is None else self.psu.price.usd * self.count


@dataclass(frozen=True)
class Platform:
    cpu: CPU
    board: Motherboard
    memory: tuple[MemoryOption, ...]

    @property
    def usd(self) -> float | None:
        cpu, board = self.cpu.price.usd, self.board.price.usd
        return None if cpu is None or board is None else cpu + board


def memory_options(catalog: Catalog, cpu: CPU, board: Motherboard) -> tuple[MemoryOption, ...]:
    limits = [v for v in (cpu.max_memory_gib, board.max_memory_gib) if v]
    options: list[MemoryOption] = []
    for kit in catalog.parts("memory"):
        if not isinstance(kit, MemoryKit) or not memory_fits(kit, cpu, board):
            continue
        for kits in range(1, board.memory_slots // kit.modules + 1):
            option = MemoryOption(kit, kits)
            if not limits or option.capacity_gib <= min(limits):
                options.append(option)
    return tuple(options)


def platforms(catalog: Catalog, family: PlatformFamily) -> tuple[Platform, ...]:
    """Every CPU × board pair that can run together, with its memory options."""
    result: list[Platform] = []
    for cpu in catalog.parts("cpu"):
        if not isinstance(cpu, CPU) or family not in ("any", cpu.segment):
            continue
        for board in catalog.parts("motherboard"):
            if not isinstance(board, Motherboard) or not same_socket(cpu, board):
                continue
            if board.memory_type not in cpu.memory_types:
                continue
            if not set(board.dimm_types) & set(cpu.dimm_types):
                continue
            memory = memory_options(catalog, cpu, board)
            # every memory channel filled, where the catalog has kits that do: an empty
            # channel's bandwidth is lost (``core.calc.platform.compat``)
            memory = tuple(o for o in memory if o.dimms >= cpu.memory_channels) or memory
            if memory:
                result.append(Platform(cpu, board, memory))
    return tuple(result)


def psu_options(catalog: Catalog, max_psus: int) -> tuple[PsuOption, ...]:
    return tuple(
        PsuOption(psu, count)
        for psu in catalog.parts("psu")
        if isinstance(psu, PSU)
        for count in range(1, max_psus + 1)
    )


def default_drive(catalog: Catalog, drive_id: str | None) -> Drive | None:
    """``drive_id``'s drive, else the cheapest priced M.2 NVMe drive (``None`` if none)."""
    if drive_id is not None:
        return catalog.drive(drive_id)
    drives = [
        d
        for d in catalog.parts("drive")
        if isinstance(d, Drive)
        and d.interface == "nvme"
        and d.form_factor == "m.2"
        and d.price.usd is not None
    ]
    return min(drives, key=lambda d: (d.price.usd or 0.0, d.id)) if drives else None
