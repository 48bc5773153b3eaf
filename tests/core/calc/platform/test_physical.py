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


def test_too_many_cards_for_a_board_without_sourced_positions_is_a_count() -> None:
    """The AM5 test board has three x16 slots. Four 3-slot cards: with its slot positions
    sourced they fail by width (two fit: 1-3 and 5-7); with the positions unknown they are
    placed one per slot, and the text says so by count, not as "1 slots wide"."""
    from core.text.checks import render_reason

    def board_check(build: object) -> object:
        checks = physical_checks(build, assign_pcie(build))  # type: ignore[arg-type]
        return next(c for c in checks if c.id == "physical.board_slots")

    sourced = board_check(parts.four_4090())
    assert sourced.reason == "gpus_do_not_fit_board"  # type: ignore[attr-defined]
    assert "3 slots wide" in render_reason(sourced)  # type: ignore[arg-type]
    board = parts.am5_board().model_copy(update={"slot_positions_sourced": False})
    unsourced = board_check(parts.build(gpu_count=4, motherboard=board))
    text = render_reason(unsourced)  # type: ignore[arg-type]
    assert text == "Only 3 of 4 cards fit the board's 3 x16 slots", text


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
    assert cooling.fix is not None and cooling.fix.build["gpu_power_limit_w"] == 360  # 80 % × 450
    # On a board of seven CPU x16 slots the placement leaves a free slot between open-air
    # cards (positions 1 and 4: 4 - (1 + 2) = 1 slot), so they pass.
    wide = parts.wrx90_board()
    spaced = parts.build(
        gpu=slim_open_air,
        gpu_count=2,
        cpu=parts.tr_pro(),
        motherboard=wide,
        memory=parts.memory(dimm_type="RDIMM"),
    )
    placed = assign_pcie(spaced)
    assert [g.position for g in placed.gpu_links] == [1, 4]
    result = {c.id: c for c in physical_checks(spaced, placed)}["physical.cooling"]
    assert (result.severity, result.reason) == ("pass", "open_air_spaced")
    assert result.numbers["min_gap_slots"] == 1
    assert _sev(parts.two_3090_nvlink())["physical.cooling"] == "pass"  # blower cards


def test_ssi_eeb_and_eeb_are_one_form_factor() -> None:
    # SSI EEB 3.61 is the standard both spellings name (12 × 13 in).
    from core.calc.platform.form_factors import board_fits

    assert board_fits("EEB", ("SSI-EEB", "ATX"))
    assert board_fits("SSI CEB", ("CEB",))
    assert board_fits("Micro ATX", ("mATX",))
    assert not board_fits("EEB", ("E-ATX", "ATX"))


def test_open_frame_needs_a_riser_per_gpu_and_enough_mounts() -> None:
    frame = parts.open_frame(gpu_mounts=4)
    four = parts.build(gpu_count=4, case=frame)
    assert _sev(four)["physical.riser"] == "fail"
    with_risers = parts.build(gpu_count=4, case=frame, riser=parts.riser())
    severities = _sev(with_risers)
    assert severities["physical.riser"] == "pass"
    assert severities["physical.frame_mounts"] == "pass"
    # On risers the 3-slot cards no longer cover their neighbours: all 3 x16 slots take one.
    three_slot = parts.gpu(slot_width=3)
    three = parts.build(gpu=three_slot, gpu_count=3, case=frame, riser=parts.riser())
    assert _sev(three)["physical.board_slots"] == "pass"
    assert _sev(parts.build(gpu=three_slot, gpu_count=3))["physical.board_slots"] == "fail"
    five = parts.build(gpu_count=5, case=parts.open_frame(gpu_mounts=4), riser=parts.riser())
    assert _sev(five)["physical.frame_mounts"] == "fail"


def test_risers_are_one_line_per_gpu_in_the_bill_of_materials() -> None:
    build = parts.build(gpu_count=3, case=parts.open_frame(), riser=parts.riser())
    assert (3, build.riser) in build.bill_of_materials()


def test_passive_card_fails_in_a_tower_and_passes_in_a_rated_chassis() -> None:
    passive = parts.gpu(cooler="passive")
    assert _sev(parts.build(gpu=passive))["physical.cooling"] == "fail"
    rated = parts.case(kind="rack", server_airflow=True)
    assert _sev(parts.build(gpu=passive, case=rated))["physical.cooling"] == "pass"
    unstated = parts.case(kind="rack")
    assert _sev(parts.build(gpu=passive, case=unstated))["physical.cooling"] == "warn"


def test_slot_pitch_unknown_matters_only_for_cards_on_the_board() -> None:
    """A board whose slot positions no source gives: two cards on it may cover each other
    (an advisory); the same cards on risers sit away from the board, so its pitch does not
    matter and nothing is left to check by hand."""
    board = parts.am5_board().model_copy(update={"slot_positions_sourced": False})

    def spacing(build: object) -> list[str]:
        checks = physical_checks(build, assign_pcie(build))  # type: ignore[arg-type]
        return [c.reason for c in checks if c.id == "physical.slot_spacing"]

    assert spacing(parts.build(gpu_count=2, motherboard=board)) == ["slot_positions_unknown"]
    on_risers = parts.build(
        gpu_count=2, motherboard=board, case=parts.open_frame(), riser=parts.riser()
    )
    assert spacing(on_risers) == []
