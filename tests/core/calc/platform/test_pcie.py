"""PCIe slot assignment, lane rules, chipset sharing and P2P."""

from __future__ import annotations

from core.calc.platform.pcie import assign_pcie, lanes_demanded, link_bandwidth_gb_s, pcie_checks
from core.models.build import DriveSelection
from tests.core import check_parts as parts


def _ids(build: object) -> dict[str, str]:
    checks = pcie_checks(build, assign_pcie(build))  # type: ignore[arg-type]
    return {c.id: c.severity for c in checks}


def test_link_bandwidth_per_direction() -> None:
    # pcie_interconnect.md: Gen4 x16 31.5 GB/s, Gen5 x16 63.0 GB/s per direction.
    assert round(link_bandwidth_gb_s(4, 16), 1) == 31.5
    assert round(link_bandwidth_gb_s(5, 16), 1) == 63.0


def test_two_slim_cards_split_x8_x8_by_lane_rule() -> None:
    build = parts.build(gpu=parts.gpu(slot_width=2), gpu_count=2)
    links = assign_pcie(build).gpu_links
    # Positions 1 and 3 give x8 + x8 on the CPU (lane rule): slowest link 8 × 1.969 GB/s;
    # positions 1 and 5 give x16 + x4 via chipset: slowest link 4 × 1.969 GB/s. The slowest
    # link bounds the all-reduce, so the balanced CPU-attached split wins.
    assert [(g.slot_id, g.lanes) for g in links] == [("x16_1", 8), ("x16_2", 8)]


def test_weak_link_warns_at_x8_gen3_equivalent() -> None:
    gen3 = parts.gpu(pcie_gen=3, pcie_lanes=8, slot_width=2, power_connectors={"pcie_8pin": 2})
    assert _ids(parts.build(gpu=gen3))["pcie.gpu_link.1"] == "warn"  # x8 Gen3 = 8 ≤ 8
    gen4 = parts.gpu(pcie_lanes=8, slot_width=2)
    assert _ids(parts.build(gpu=gen4))["pcie.gpu_link.1"] == "pass"  # x8 Gen4 = 16


def test_no_usable_slot_fails() -> None:
    assert _ids(parts.four_4090())["pcie.gpu_link.4"] == "fail"
    assert _ids(parts.build())["pcie.gpu_link.1"] == "pass"


def test_lane_budget() -> None:
    assert lanes_demanded(parts.four_4090()) == 4 * 16 + 4
    assert _ids(parts.four_4090())["pcie.lanes"] == "warn"
    assert _ids(parts.build())["pcie.lanes"] == "pass"  # 16 + 4 ≤ 24


def test_m2_slots_run_out() -> None:
    three = parts.build(drives=[DriveSelection(drive=parts.nvme(), count=3)])
    result = assign_pcie(three)
    assert len(result.drive_links) == 2 and result.drives_unplaced == ("nvme-2tb",)
    assert _ids(three)["pcie.m2"] == "fail"
    assert _ids(parts.build())["pcie.m2"] == "pass"


def test_drive_prefers_cpu_m2_and_second_drive_shares_chipset() -> None:
    two = parts.build(drives=[DriveSelection(drive=parts.nvme(), count=2)])
    links = assign_pcie(two).drive_links
    assert {d.attached_to for d in links} == {"cpu", "chipset"}
    assert _ids(two)["pcie.chipset"] == "pass"  # one x4 Gen4 drive fits the x4 Gen4 uplink


def test_p2p_and_nvlink() -> None:
    assert _ids(parts.two_3090_nvlink())["pcie.p2p"] == "pass"
    unbridged = parts.two_3090_nvlink().model_copy(update={"nvlink_bridges": 0})
    assert _ids(unbridged)["pcie.p2p"] == "warn"
    # 4090: no P2P on the stock driver, a fact of the card (already in the speed estimate)
    assert _ids(parts.build(gpu_count=2))["pcie.p2p"] == "info"
    assert "pcie.p2p" not in _ids(parts.build())


def test_a_gen4_riser_caps_a_gen5_link_at_gen4() -> None:
    gen5 = parts.gpu(pcie_gen=5, slot_width=2)
    board = parts.am5_board()
    direct = assign_pcie(parts.build(gpu=gen5, motherboard=board)).gpu_links[0]
    riser = assign_pcie(
        parts.build(gpu=gen5, motherboard=board, case=parts.open_frame(), riser=parts.riser())
    ).gpu_links[0]
    assert direct.gen == 5  # Gen5 card, Gen5 slot, Gen5 CPU
    assert riser.gen == 4
    assert riser.bandwidth_gb_s == link_bandwidth_gb_s(4, riser.lanes)
