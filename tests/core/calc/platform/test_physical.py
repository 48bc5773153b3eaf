"""Physical fit: form factor, slots on board and case, length, board in case, cooling."""

from __future__ import annotations

from core.calc.platform.pcie import assign_pcie, max_gpus_by_geometry
from core.calc.platform.physical import physical_checks
from tests.core import check_parts as parts


def _sev(build: object) -> dict[str, str]:
    checks = physical_checks(build, assign_pcie(build))  # type: ignore[arg-type]
    return {c.id: c.severity for c in checks}


def test_geometry_three_slot_cards() -> None:
    board = parts.am5_board()  # x16 slots at positions 1, 3, 5
    assert max_gpus_by_geometry(board, 3) == 2  # 1 (covers 1-3), then 5
    assert max_gpus_by_geometry(board, 2) == 3  # 1, 3, 5
    assert max_gpus_by_geometry(parts.wrx90_board(), 3) == 3  # 1, 4, 7


def test_form_factor() -> None:
    assert _sev(parts.eight_a100_sxm()) == {"physical.form_factor": "fail"}
    assert _sev(parts.build())["physical.form_factor"] == "pass"


def test_board_slots() -> None:
    assert _sev(parts.four_4090())["physical.board_slots"] == "fail"
    assert _sev(parts.build(gpu_count=2))["physical.board_slots"] == "pass"


def test_case_slots() -> None:
    # Two 3-slot cards at 1 and 5 reach slot 5 + 3 − 1 = 7.
    assert (
        _sev(parts.build(gpu_count=2, case=parts.case(expansion_slots=6)))["physical.case_slots"]
        == "fail"
    )
    assert (
        _sev(parts.build(gpu_count=2, case=parts.case(expansion_slots=7)))["physical.case_slots"]
        == "pass"
    )


def test_gpu_length() -> None:
    assert _sev(parts.build(case=parts.case(max_gpu_length_mm=300)))["physical.gpu_length"] == (
        "fail"
    )  # 304 mm card
    assert _sev(parts.build(case=parts.case(max_gpu_length_mm=304)))["physical.gpu_length"] == (
        "pass"
    )
    assert _sev(parts.build(gpu=parts.gpu(length_mm=None)))["physical.gpu_length"] == "info"


def test_board_in_case() -> None:
    atx_only = parts.case(motherboard_form_factors=["ATX"])
    assert (
        _sev(parts.two_3090_nvlink().model_copy(update={"case": atx_only}))["physical.case_board"]
        == "fail"
    )
    assert _sev(parts.build(case=atx_only))["physical.case_board"] == "pass"


def test_cooling() -> None:
    slim_open_air = parts.gpu(slot_width=2)  # at 1, 3: no gap
    checks = physical_checks(
        parts.build(gpu=slim_open_air, gpu_count=2),
        assign_pcie(parts.build(gpu=slim_open_air, gpu_count=2)),
    )
    cooling = {c.id: c for c in checks}["physical.cooling"]
    # The balanced x8/x8 split wins the link search, so the 2-slot cards sit at positions
    # 1 and 3: no free slot between them.
    assert cooling.severity == "warn"
    assert cooling.reason == "open_air_no_gap"
    assert cooling.numbers["min_gap_slots"] == 0
    wide = parts.wrx90_board()
    packed = parts.build(
        gpu=slim_open_air,
        gpu_count=2,
        cpu=parts.tr_pro(),
        motherboard=wide,
        memory=parts.memory(dimm_type="RDIMM"),
    )
    result = {c.id: c for c in physical_checks(packed, assign_pcie(packed))}["physical.cooling"]
    assert result.severity == "warn" and result.reason == "open_air_no_gap"
    assert result.fix is not None and result.fix.build["gpu_power_limit_w"] == 360  # 80 % × 450
    assert _sev(parts.two_3090_nvlink())["physical.cooling"] == "pass"  # blower cards
