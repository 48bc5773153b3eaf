"""Hand-written parts for the check tests (figures chosen for the tests, not catalog data)."""

from __future__ import annotations

from typing import Any

from core.models.build import Build, DriveSelection
from core.models.parts import CPU, GPU, PSU, Case, Drive, MemoryKit, Motherboard, Riser

_COMMON: dict[str, Any] = {
    "price": {"usd": None, "kind": "unknown", "source": "test fixture"},
    "sources": ["test fixture"],
}


def gpu(**kw: Any) -> GPU:
    base = {
        "id": "rtx-4090",
        "name": "RTX 4090",
        "vendor": "NVIDIA",
        "architecture": "ada",
        "vram_gib": 24,
        "memory_bandwidth_gb_s": 1008,
        "fp32_tflops": 82.6,
        "board_power_w": 450,
        "pcie_gen": 4,
        "pcie_lanes": 16,
        "p2p_pcie": "no",
        "form_factor": "pcie",
        "slot_width": 3,
        "length_mm": 304,
        "cooler": "open-air",
        "power_connectors": {"12vhpwr": 1},
    }
    return GPU.model_validate(_COMMON | base | kw)


def rtx3090_blower() -> GPU:
    return gpu(
        id="rtx-3090-turbo",
        name="RTX 3090 Turbo",
        architecture="ampere",
        board_power_w=350,
        slot_width=2,
        length_mm=267,
        cooler="blower",
        nvlink_gb_s=112.5,
        nvlink_topology="bridge_pair",
        power_connectors={"pcie_8pin": 2},
    )


def a100_sxm() -> GPU:
    return gpu(
        id="a100-sxm4-80gb",
        name="A100 SXM4 80GB",
        architecture="ampere",
        vram_gib=80,
        board_power_w=400,
        form_factor="sxm",
        slot_width=None,
        length_mm=None,
        cooler="passive",
        nvlink_gb_s=600,
        nvlink_topology="nvswitch",
        power_connectors={},
    )


def rtx4060ti() -> GPU:
    return gpu(
        id="rtx-4060-ti-16gb",
        name="RTX 4060 Ti 16GB",
        vram_gib=16,
        board_power_w=165,
        pcie_lanes=8,
        slot_width=2,
        length_mm=240,
        p2p_pcie="unknown",
        power_connectors={"pcie_8pin": 1},
    )


def cpu(**kw: Any) -> CPU:
    base = {
        "id": "ryzen-9-7950x",
        "name": "Ryzen 9 7950X",
        "vendor": "AMD",
        "segment": "consumer",
        "socket": "AM5",
        "cores": 16,
        "threads": 32,
        "pcie_gen": 5,
        "pcie_lanes": 24,
        "memory_channels": 2,
        "memory_types": ["DDR5"],
        "dimm_types": ["UDIMM"],
        "max_memory_gib": 192,
        "ecc": False,
        "base_power_w": 170,
        "max_power_w": 230,
    }
    return CPU.model_validate(_COMMON | base | kw)


def tr_pro() -> CPU:
    return cpu(
        id="threadripper-pro-7975wx",
        name="Threadripper PRO 7975WX",
        segment="workstation",
        socket="sTR5",
        cores=32,
        threads=64,
        pcie_lanes=128,
        memory_channels=8,
        dimm_types=["RDIMM"],
        max_memory_gib=2048,
        ecc=True,
        base_power_w=350,
        max_power_w=None,
    )


def am5_board(**kw: Any) -> Motherboard:
    base = {
        "id": "am5-board",
        "name": "AM5 board",
        "socket": "AM5",
        "chipset": "X670E",
        "form_factor": "ATX",
        "memory_type": "DDR5",
        "dimm_types": ["UDIMM"],
        "memory_slots": 4,
        "max_memory_gib": 192,
        "pcie_slots": [
            {
                "id": "x16_1",
                "position": 1,
                "gen": 5,
                "lanes": 16,
                "attached_to": "cpu",
                "lane_rules": [{"when_populated": "x16_2", "lanes": 8}],
            },
            {"id": "x16_2", "position": 3, "gen": 5, "lanes": 8, "attached_to": "cpu"},
            {"id": "x16_3", "position": 5, "gen": 4, "lanes": 4, "attached_to": "chipset"},
        ],
        "m2_slots": [
            {"id": "m2_1", "gen": 5, "attached_to": "cpu"},
            {"id": "m2_2", "gen": 4, "attached_to": "chipset"},
        ],
        "chipset_uplink_gen": 4,
        "chipset_uplink_lanes": 4,
    }
    return Motherboard.model_validate(_COMMON | base | kw)


def wrx90_board() -> Motherboard:
    slots = [
        {"id": f"slot{i}", "position": i, "gen": 5, "lanes": 16, "attached_to": "cpu"}
        for i in range(1, 8)
    ]
    return am5_board(
        id="wrx90-board",
        name="WRX90 board",
        socket="sTR5",
        chipset="WRX90",
        form_factor="E-ATX",
        dimm_types=["RDIMM"],
        memory_slots=8,
        max_memory_gib=2048,
        pcie_slots=slots,
        m2_slots=[{"id": f"m2_{i}", "gen": 5, "attached_to": "cpu"} for i in range(1, 5)],
    )


def memory(**kw: Any) -> MemoryKit:
    base = {
        "id": "ddr5-2x32",
        "name": "DDR5 2x32GB",
        "memory_type": "DDR5",
        "dimm_type": "UDIMM",
        "modules": 2,
        "module_gib": 32,
        "speed_mt_s": 5600,
        "ecc": False,
    }
    return MemoryKit.model_validate(_COMMON | base | kw)


def nvme(**kw: Any) -> Drive:
    base = {
        "id": "nvme-2tb",
        "name": "NVMe 2TB",
        "interface": "nvme",
        "pcie_gen": 4,
        "form_factor": "m.2",
        "capacity_gb": 2000,
        "seq_read_mb_s": 7450,
        "power_w": 8,
    }
    return Drive.model_validate(_COMMON | base | kw)


FLAT_90 = [{"load_fraction": 0.1, "efficiency": 0.9}, {"load_fraction": 1.0, "efficiency": 0.9}]


def psu(**kw: Any) -> PSU:
    base = {
        "id": "psu-1600",
        "name": "PSU 1600",
        "wattage_w": 1600,
        "efficiency_rating": "80+ Test",
        "efficiency_curve": FLAT_90,
        "atx_version": "3.0",
        "connectors": {"12vhpwr": 1, "pcie_8pin": 8},
    }
    return PSU.model_validate(_COMMON | base | kw)


def case(**kw: Any) -> Case:
    base = {
        "id": "tower",
        "name": "Tower",
        "motherboard_form_factors": ["ATX", "E-ATX"],
        "max_gpu_length_mm": 360,
        "expansion_slots": 8,
    }
    return Case.model_validate(_COMMON | base | kw)


def build(**kw: Any) -> Build:
    base: dict[str, Any] = {
        "name": "test",
        "gpu": gpu(),
        "gpu_count": 1,
        "cpu": cpu(),
        "motherboard": am5_board(),
        "memory": memory(),
        "drives": [DriveSelection(drive=nvme())],
        "psu": psu(),
        "case": case(),
    }
    return Build.model_validate(base | kw)


def four_4090() -> Build:
    return build(gpu_count=4)


def two_3090_nvlink() -> Build:
    return build(
        gpu=rtx3090_blower(),
        gpu_count=2,
        nvlink_bridges=1,
        cpu=tr_pro(),
        motherboard=wrx90_board(),
        memory=memory(id="rdimm-8x32", dimm_type="RDIMM", modules=8, ecc=True),
        psu=psu(connectors={"12vhpwr": 1, "pcie_8pin": 8}),
    )


def eight_a100_sxm() -> Build:
    return build(
        gpu=a100_sxm(),
        gpu_count=8,
        cpu=tr_pro(),
        motherboard=wrx90_board(),
        memory=memory(id="rdimm-8x64", dimm_type="RDIMM", modules=8, module_gib=64, ecc=True),
    )


def one_4060ti() -> Build:
    return build(
        gpu=rtx4060ti(),
        cpu=cpu(id="ryzen-9-7950x3d", name="Ryzen 9 7950X3D", base_power_w=120, max_power_w=162),
        memory=memory(id="ddr5-2x16", module_gib=16),
        psu=psu(id="psu-550", wattage_w=550, atx_version="2.x", connectors={"pcie_8pin": 2}),
    )


def riser(**kw: Any) -> Riser:
    base = {"id": "riser-gen4", "name": "Riser Gen4", "pcie_gen": 4, "lanes": 16, "length_mm": 300}
    return Riser.model_validate(_COMMON | base | kw)


def open_frame(**kw: Any) -> Case:
    base = {
        "id": "frame",
        "name": "Open frame",
        "kind": "open_frame",
        "motherboard_form_factors": ["ATX", "E-ATX"],
        "max_gpu_length_mm": None,
        "expansion_slots": None,
        "gpu_mounts": 6,
    }
    return Case.model_validate(_COMMON | base | kw)
