"""One-line descriptions of parts and their prices."""

from __future__ import annotations

from datetime import date

from core.models.build import Build
from core.models.common import Price
from core.models.parts import CPU, GPU, PSU, Case, Drive, MemoryKit, Motherboard, Part
from core.text.money import USD

UNKNOWN = "unknown"


def fmt_num(value: float | None, unit: str = "", digits: int = 0) -> str:
    """Format a number with its unit, or "unknown" when no source gives it."""
    if value is None:
        return UNKNOWN
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}".rstrip()


def fmt_price(price: Price, today: date | None = None) -> str:
    """ "$1,599 (msrp, 2022-10-12, stale: 4 years old)", "$2,899 (street, 2026-11-02)" or
    "unknown"."""
    if price.usd is None:
        return UNKNOWN
    today = today or date.today()
    stale = ""
    if price.stale(today) and (days := price.age_days(today)) is not None:
        from core.text.cost import age_text

        stale = f", stale: {age_text(days)}"
    return f"{USD(price.usd)} ({price.kind}, {price.as_of}{stale})"


def key_specs(part: Part) -> str:
    """The specs a buyer compares first, unknown values named as such."""
    if isinstance(part, GPU):
        return (
            f"{fmt_num(part.vram_gib, 'GB')} {part.memory_type or ''}, "
            f"{fmt_num(part.memory_bandwidth_gb_s, 'GB/s')}, "
            f"{fmt_num(part.board_power_w, 'W')}, PCIe {part.pcie_gen}.0 x{part.pcie_lanes}"
        ).replace("  ", " ")
    if isinstance(part, CPU):
        return (
            f"{part.cores} cores, {fmt_num(part.pcie_lanes)} PCIe {part.pcie_gen}.0 lanes, "
            f"{part.memory_channels}-ch {'/'.join(part.memory_types)}, {part.socket}"
        )
    if isinstance(part, Motherboard):
        return (
            f"{part.socket} {part.chipset}, {len(part.pcie_slots)} PCIe slots, "
            f"{part.memory_slots} DIMM, {part.form_factor}"
        )
    if isinstance(part, MemoryKit):
        return (
            f"{part.modules} × {fmt_num(part.module_gib, 'GB')} {part.memory_type}-"
            f"{part.speed_mt_s} {part.dimm_type}{' ECC' if part.ecc else ''}"
        )
    if isinstance(part, Drive):
        gen = f" Gen{part.pcie_gen}" if part.pcie_gen else ""
        return (
            f"{fmt_num(part.capacity_gb / 1000, 'TB', 1)} {part.interface.upper()}{gen}, "
            f"read {fmt_num(part.seq_read_mb_s, 'MB/s')}"
        )
    if isinstance(part, PSU):
        return f"{fmt_num(part.wattage_w, 'W')}, {part.efficiency_rating}, ATX {part.atx_version}"
    if isinstance(part, Case):
        boards = "/".join(part.motherboard_form_factors)
        if part.kind == "open_frame":
            mounts = "unknown" if part.gpu_mounts is None else str(part.gpu_mounts)
            return f"open frame, {mounts} GPUs on risers, {boards}"
        return (
            f"GPU ≤ {fmt_num(part.max_gpu_length_mm, 'mm')}, {part.expansion_slots} slots, {boards}"
        )
    return ""


def auto_build_name(build: Build) -> str:
    """The name RigForge gives a build from its GPUs ("2× GeForce RTX 4090 workstation");
    a build still carrying it is renamed when its GPUs change."""
    return f"{build.gpu_count}× {build.gpu.name} workstation"
