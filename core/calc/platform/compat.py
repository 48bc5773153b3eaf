"""Compatibility: CPU socket, memory type and DIMM kind, DIMM count and capacity, ECC,
GPU power connectors against the PSU.

Sources: PCI Express CEM — 150 W per 8-pin auxiliary connector and up to
600 W per 12VHPWR/12V-2x6 connector, so a 16-pin adapter needs
⌈power per connector ÷ 150 W⌉ 8-pin cables; 12V-2x6 is the revised 12VHPWR
and mates with the same cables. A 6-pin GPU socket takes a 6+2-pin cable.
"""

from __future__ import annotations

import math

from core.catalog.catalog import Catalog, normalise_name
from core.models.build import Build
from core.models.checks import Check, Fix
from core.models.parts import CPU, PSU, MemoryKit, Motherboard, Part, PowerConnector

EIGHT_PIN_W = 150.0
SIXTEEN_PIN_MAX_W = 600.0
_SIXTEEN: tuple[PowerConnector, ...] = ("12vhpwr", "12v_2x6")


def price_key(part: Part) -> float:
    return part.price.usd if part.price.usd is not None else math.inf


CHIPSET_CPUS: dict[str, str] = {"wrx90": "threadripper pro", "wrx80": "threadripper pro"}
"""Chipsets that take only some CPUs of their socket. Source: AMD, WRX90 platform
("AMD Ryzen Threadripper PRO 7000 WX-Series processors ... on WRX90 motherboards"; the
non-PRO Threadripper 7000/9000 run on TRX50 only) and sWRX8/WRX80 (Threadripper PRO 3000
and 5000 WX only)."""


def chipset_takes(cpu: CPU, board: Motherboard) -> bool:
    """Whether the board's chipset runs this CPU of its socket (``CHIPSET_CPUS``)."""
    family = CHIPSET_CPUS.get(normalise_name(board.chipset))
    return family is None or family in cpu.name.lower()


def same_socket(cpu: CPU, board: Motherboard) -> bool:
    """The CPU fits the board: same socket, and a chipset that runs it."""
    return normalise_name(cpu.socket) == normalise_name(board.socket) and chipset_takes(cpu, board)


def memory_fits(memory: MemoryKit, cpu: CPU, board: Motherboard) -> bool:
    """Memory type and DIMM kind supported by both the CPU and the board."""
    return (
        memory.memory_type == board.memory_type
        and memory.memory_type in cpu.memory_types
        and memory.dimm_type in board.dimm_types
        and memory.dimm_type in cpu.dimm_types
    )


def pick_memory(build: Build, cpu: CPU, board: Motherboard, catalog: Catalog) -> Fix | None:
    """The cheapest single catalog kit that fits the platform with at least the build's capacity."""
    kits = [
        k
        for k in catalog.parts("memory")
        if isinstance(k, MemoryKit)
        and memory_fits(k, cpu, board)
        and k.modules <= board.memory_slots
        and k.capacity_gib >= build.memory_gib
    ]
    if not kits:
        return None
    kit = min(kits, key=lambda k: (k.capacity_gib, price_key(k)))
    return Fix(
        code="use_memory",
        build={"memory": kit.id, "memory_kits": 1},
        numbers={"capacity_gib": kit.capacity_gib, "modules": kit.modules, "name": kit.name},
    )


def pick_board(build: Build, catalog: Catalog) -> Fix | None:
    """A catalog board for the build's CPU and memory: most x16 slots, then cheapest."""
    boards = [
        b
        for b in catalog.parts("motherboard")
        if isinstance(b, Motherboard)
        and same_socket(build.cpu, b)
        and b.memory_type in build.cpu.memory_types
    ]
    if not boards:
        return None
    board = min(
        boards,
        key=lambda b: (
            not memory_fits(build.memory, build.cpu, b),
            -sum(s.physical_lanes == 16 for s in b.pcie_slots),
            price_key(b),
        ),
    )
    return Fix(
        code="use_board",
        build={"motherboard": board.id},
        numbers={"socket": board.socket, "name": board.name},
    )


def connector_needs(build: Build, psu: PSU, psu_count: int) -> dict[str, float] | None:
    """GPU power cables needed and available; missing 16-pin ones count as 8-pin adapters.

    ``None`` when the card's or the PSU's connectors are not listed by any source.
    """
    gpu, n = build.gpu, build.gpu_count
    gpu_in, psu_out = gpu.power_connectors, psu.connectors
    if gpu_in is None or psu_out is None:
        return None
    need16 = n * sum(gpu_in.get(c, 0) for c in _SIXTEEN)
    # A cable type the source does not list is unknown, not zero, except the 16-pin lead
    # on an ATX 2.x unit: 12VHPWR arrived with ATX 3.0 (Intel ATX 3.0 specification, 2022).
    sixteen_listed = any(c in psu_out for c in _SIXTEEN) or psu.atx_version == "2.x"
    if need16 and not sixteen_listed:
        return None
    have16 = psu_count * sum(psu_out.get(c, 0) for c in _SIXTEEN)
    per16 = sum(gpu_in.get(c, 0) for c in _SIXTEEN)
    watts16 = (gpu.board_power_w / per16) if gpu.board_power_w and per16 else SIXTEEN_PIN_MAX_W
    per_adapter = max(2, math.ceil(watts16 / EIGHT_PIN_W))
    adapters = max(0, need16 - have16)
    need8 = n * gpu_in.get("pcie_8pin", 0) + adapters * per_adapter
    need6 = n * gpu_in.get("pcie_6pin", 0)
    if (need8 or need6) and "pcie_8pin" not in psu_out and "pcie_6pin" not in psu_out:
        return None
    have8 = psu_count * psu_out.get("pcie_8pin", 0)
    have6 = psu_count * psu_out.get("pcie_6pin", 0)
    return {
        "need_16pin": need16,
        "have_16pin": have16,
        "adapters": adapters,
        "eight_pin_per_adapter": per_adapter,
        "need_8pin": need8,
        "have_8pin": have8,
        "need_6pin": need6,
        "have_6pin": have6,
        "short_8pin": max(0, need8 + max(0, need6 - have6) - have8),
    }


def connectors_ok(build: Build, psu: PSU, psu_count: int, *, native: bool = False) -> bool | None:
    """Whether the PSU has the GPU power cables (``native``: without an adapter from
    8-pin leads to a 16-pin plug); ``None`` when either side is unlisted."""
    if build.gpu.power_connectors == {}:
        return True
    needs = connector_needs(build, psu, psu_count)
    if needs is None:
        return None
    return needs["short_8pin"] == 0 and not (native and needs["adapters"] > 0)


def power_connector_check(build: Build, fix: Fix | None) -> Check:
    """GPU power connectors against the PSU's cables; ``fix`` is the PSU the caller picked."""
    cid = "compat.power_connectors"
    if build.psu is None:
        return Check(id=cid, severity="info", reason="psu_not_chosen")
    if build.gpu.power_connectors == {}:
        return Check(id=cid, severity="info", reason="gpu_powered_by_baseboard")
    if build.gpu.power_connectors is None:
        return Check(id=cid, severity="info", reason="gpu_connectors_unknown")
    needs = connector_needs(build, build.psu, build.psu_count)
    if needs is None:
        return Check(id=cid, severity="info", reason="psu_connectors_unknown")
    numbers: dict[str, float | str] = dict(needs)
    if needs["short_8pin"] > 0:
        return Check(id=cid, severity="fail", reason="connectors_short", numbers=numbers, fix=fix)
    if needs["adapters"] > 0:
        return Check(id=cid, severity="warn", reason="connectors_via_adapter", numbers=numbers)
    return Check(id=cid, severity="pass", reason="connectors_native", numbers=numbers)


def compat_checks(build: Build, catalog: Catalog | None = None) -> tuple[Check, ...]:
    """Socket, memory type, DIMM kind and count, capacity, ECC (connectors: see above)."""
    cpu, board, memory = build.cpu, build.motherboard, build.memory
    checks: list[Check] = []
    socket_numbers: dict[str, float | str] = {
        "cpu_socket": cpu.socket,
        "board_socket": board.socket,
    }
    if same_socket(cpu, board):
        checks.append(
            Check(
                id="compat.socket", severity="pass", reason="socket_match", numbers=socket_numbers
            )
        )
    elif normalise_name(cpu.socket) == normalise_name(board.socket):
        checks.append(
            Check(
                id="compat.socket",
                severity="fail",
                reason="chipset_not_for_cpu",
                numbers=socket_numbers | {"chipset": board.chipset, "cpu": cpu.name},
                fix=pick_board(build, catalog) if catalog else None,
            )
        )
    else:
        checks.append(
            Check(
                id="compat.socket",
                severity="fail",
                reason="socket_mismatch",
                numbers=socket_numbers,
                fix=pick_board(build, catalog) if catalog else None,
            )
        )
    memory_fix = pick_memory(build, cpu, board, catalog) if catalog else None
    type_numbers: dict[str, float | str] = {
        "memory_type": memory.memory_type,
        "board_memory_type": board.memory_type,
        "cpu_memory_types": "/".join(cpu.memory_types),
    }
    type_ok = memory.memory_type == board.memory_type and memory.memory_type in cpu.memory_types
    checks.append(
        Check(
            id="compat.memory_type",
            severity="pass" if type_ok else "fail",
            reason="memory_type_match" if type_ok else "memory_type_mismatch",
            numbers=type_numbers,
            fix=None if type_ok else memory_fix,
        )
    )
    kind_numbers: dict[str, float | str] = {
        "dimm_type": memory.dimm_type,
        "board_dimm_types": "/".join(board.dimm_types),
        "cpu_dimm_types": "/".join(cpu.dimm_types),
    }
    kind_ok = memory.dimm_type in board.dimm_types and memory.dimm_type in cpu.dimm_types
    checks.append(
        Check(
            id="compat.dimm_type",
            severity="pass" if kind_ok else "fail",
            reason="dimm_type_supported" if kind_ok else "dimm_type_unsupported",
            numbers=kind_numbers,
            fix=None if kind_ok else memory_fix,
        )
    )
    count_numbers: dict[str, float | str] = {"dimms": build.dimm_count, "slots": board.memory_slots}
    count_ok = build.dimm_count <= board.memory_slots
    checks.append(
        Check(
            id="compat.dimm_count",
            severity="pass" if count_ok else "fail",
            reason="dimms_fit" if count_ok else "too_many_dimms",
            numbers=count_numbers,
            fix=None if count_ok else memory_fix,
        )
    )
    checks.append(_channels_check(build))
    checks.append(_capacity_check(build))
    checks.append(_ecc_check(build))
    return tuple(checks)


def _channels_check(build: Build) -> Check:
    """Every memory channel of the CPU(s) holds a DIMM: an empty channel's bandwidth is lost
    (memory bandwidth scales with populated channels; AMD and Intel platform guides)."""
    channels = build.cpu.memory_channels * build.cpu_count
    dimms = build.dimm_count
    numbers: dict[str, float | str] = {"dimms": dimms, "channels": channels}
    cid = "compat.memory_channels"
    if dimms >= channels or dimms > build.motherboard.memory_slots:
        return Check(id=cid, severity="pass", reason="channels_filled", numbers=numbers)
    numbers["bandwidth_pct"] = round(100 * dimms / channels)
    kits = math.ceil(channels / build.memory.modules)
    fix = None
    if kits * build.memory.modules <= build.motherboard.memory_slots:
        fix = Fix(
            code="fill_channels",
            build={"memory_kits": kits},
            numbers={"kits": kits, "dimms": kits * build.memory.modules, "name": build.memory.name},
        )
    return Check(id=cid, severity="warn", reason="channels_empty", numbers=numbers, fix=fix)


def _capacity_check(build: Build) -> Check:
    limits = [v for v in (build.motherboard.max_memory_gib, build.cpu.max_memory_gib) if v]
    cid = "compat.memory_capacity"
    if not limits:
        return Check(
            id=cid,
            severity="info",
            reason="max_memory_unknown",
            numbers={"memory_gib": build.memory_gib},
        )
    numbers: dict[str, float | str] = {
        "memory_gib": build.memory_gib,
        "max_memory_gib": min(limits),
    }
    if build.memory_gib > min(limits):
        return Check(id=cid, severity="fail", reason="memory_over_max", numbers=numbers)
    return Check(id=cid, severity="pass", reason="memory_within_max", numbers=numbers)


def _ecc_check(build: Build) -> Check:
    cid = "compat.ecc"
    if not build.memory.ecc:
        return Check(id=cid, severity="info", reason="ecc_not_used")
    if build.cpu.ecc is None:
        return Check(id=cid, severity="info", reason="cpu_ecc_unknown")
    if not build.cpu.ecc:
        return Check(
            id=cid,
            severity="warn",
            reason="ecc_not_supported_by_cpu",
            numbers={"cpu": build.cpu.name},
        )
    return Check(id=cid, severity="pass", reason="ecc_active")
