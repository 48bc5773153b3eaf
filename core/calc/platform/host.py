"""Host resources: system RAM, CPU cores for data loading, storage capacity and read speed.

With a workload, RAM and cores are judged against what that workload needs: the host
RAM the memory model stages (weights loaded before they move to the GPUs, pinned
batches, offloaded state) and the cores its data loading needs to keep the GPUs fed
(``core.calc.performance.hostio``: the GPUs wait when the loader is slower). Without a
workload only rules of thumb are shown, as information: at least 4 CPU cores per GPU and
16 cores for an ML workstation (Puget Systems hardware recommendations, copy at
sipoch.com); system RAM at least the total VRAM (an assumption: no read source).
Capacities: memory kits and GPUs are marketed in binary gigabytes (GiB);
drives in decimal gigabytes. A drive's read rate is capped by its PCIe link.
"""

from __future__ import annotations

import math

from core.models.build import Build
from core.models.checks import Check, Number
from core.models.host import HostDemand
from core.models.pcie import PcieAssignment

CORES_PER_GPU = 4
MIN_CORES = 16


def _drive_read_mb_s(build: Build, assignment: PcieAssignment) -> tuple[float | None, str]:
    """Fastest single drive's read rate (sustained when known), capped by its link."""
    links = {d.drive_id: d.bandwidth_gb_s * 1000 for d in assignment.drive_links}
    best: tuple[float | None, str] = (None, "")
    for selection in build.drives:
        drive = selection.drive
        rate = drive.sustained_read_mb_s or drive.seq_read_mb_s
        if rate is None:
            continue
        rate = min(rate, links.get(drive.id, rate))
        if best[0] is None or rate > best[0]:
            best = (rate, drive.name)
    return best


def host_checks(
    build: Build, assignment: PcieAssignment, demand: HostDemand | None = None
) -> tuple[Check, ...]:
    demand = demand or HostDemand()
    checks = [_ram_check(build, demand), _cores_check(build, demand)]
    capacity = sum(s.drive.capacity_gb * s.count for s in build.drives)
    if demand.storage_gb is not None:
        numbers: dict[str, Number] = {"capacity_gb": capacity, "needed_gb": demand.storage_gb}
        ok = capacity >= demand.storage_gb
        checks.append(
            Check(
                id="host.storage_capacity",
                severity="pass" if ok else "fail",
                reason="storage_enough" if ok else "storage_too_small",
                numbers=numbers,
            )
        )
    if demand.storage_read_mb_s is not None:
        rate, name = _drive_read_mb_s(build, assignment)
        if rate is None:
            checks.append(
                Check(id="host.storage_read", severity="info", reason="read_speed_unknown")
            )
        else:
            ok = rate >= demand.storage_read_mb_s
            checks.append(
                Check(
                    id="host.storage_read",
                    severity="pass" if ok else "warn",
                    reason="read_fast_enough" if ok else "read_too_slow",
                    numbers={
                        "read_mb_s": rate,
                        "needed_mb_s": demand.storage_read_mb_s,
                        "drive": name,
                    },
                )
            )
    return tuple(checks)


LOADER_WAIT_WARN = 0.1
"""Warn when the GPUs wait on data loading a tenth of each step or more."""


def _ram_check(build: Build, demand: HostDemand) -> Check:
    ram = build.memory_gib
    vram = build.gpu.vram_gib * build.gpu_count
    numbers: dict[str, Number] = {"ram_gib": ram, "vram_gib": vram}
    if demand.host_ram_gib is not None:
        numbers["needed_gib"] = round(demand.host_ram_gib, 1)
        if ram < demand.host_ram_gib:
            return Check(
                id="host.ram", severity="fail", reason="ram_below_workload", numbers=numbers
            )
        return Check(id="host.ram", severity="pass", reason="ram_for_workload", numbers=numbers)
    if ram < vram:
        return Check(id="host.ram", severity="info", reason="ram_below_vram", numbers=numbers)
    return Check(id="host.ram", severity="pass", reason="ram_enough", numbers=numbers)


def _cores_check(build: Build, demand: HostDemand) -> Check:
    cores = build.cpu.cores * build.cpu_count
    recommended = max(MIN_CORES, CORES_PER_GPU * build.gpu_count)
    numbers: dict[str, Number] = {
        "cores": cores,
        "gpus": build.gpu_count,
        "cores_per_gpu": round(cores / build.gpu_count, 1),
        "recommended": recommended,
    }
    if demand.data_loading_cores is not None:
        needed = demand.data_loading_cores
        numbers |= {"needed": math.ceil(needed), "wait_pct": round(100 * demand.loader_wait)}
        if demand.loader_wait >= LOADER_WAIT_WARN:
            return Check(
                id="host.cpu_cores", severity="warn", reason="cores_below_workload", numbers=numbers
            )
        return Check(
            id="host.cpu_cores", severity="pass", reason="cores_for_workload", numbers=numbers
        )
    if cores < recommended:
        return Check(
            id="host.cpu_cores", severity="info", reason="cores_below_rule", numbers=numbers
        )
    return Check(id="host.cpu_cores", severity="pass", reason="cores_enough", numbers=numbers)
