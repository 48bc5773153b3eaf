"""Physical fit and cooling: GPU modules vs PCIe boards, slot widths vs board and case,
card length vs case, open-air cards packed without a gap.

Sources: blower-style cards are recommended for 3- and 4-GPU workstations and
the RTX 3090 FE takes 3 slots (Lambda blog, RTX 30xx hardware deep dive);
consumer RTX 4080/4090 cards are unsuitable beyond 2 GPUs because of cooling and
size (Puget Systems hardware recommendations, copy at sipoch.com); 4× RTX 3090
at 80 % power kept > 95 % performance (Puget Systems Labs). SXM and OAM modules
need a vendor baseboard, not a PCIe slot.
"""

from __future__ import annotations

import itertools

from core.calc.platform.compat import price_key
from core.calc.platform.form_factors import board_fits
from core.calc.platform.pcie import gpu_slot_width, gpu_slots
from core.calc.platform.power import power_limit_throughput_factor
from core.catalog.catalog import Catalog
from core.models.build import Build
from core.models.checks import Check, Fix, Number
from core.models.parts import GPU, Case, Riser
from core.models.pcie import PcieAssignment

COOLING_LIMIT_FRACTION = 0.8
"""Power limit suggested for packed open-air cards: Puget's 280 W of 350 W."""


def _pick_case(build: Build, slots_needed: int, catalog: Catalog) -> Fix | None:
    length = build.gpu.length_mm
    cases = [
        c
        for c in catalog.parts("case")
        if isinstance(c, Case)
        and board_fits(build.motherboard.form_factor, c.motherboard_form_factors)
        and c.expansion_slots is not None
        and c.expansion_slots >= slots_needed
        and (length is None or (c.max_gpu_length_mm or 0) >= length)
    ]
    if not cases:
        return None
    case = min(cases, key=price_key)
    return Fix(
        code="use_case",
        build={"case": case.id},
        numbers={"expansion_slots": case.expansion_slots, "name": case.name},
    )


def _pick_gpu(build: Build, catalog: Catalog, *, cooler: str | None) -> Fix | None:
    """A PCIe card with at least this GPU's VRAM (and the given cooler), same vendor, cheapest."""
    gpus = [
        g
        for g in catalog.parts("gpu")
        if isinstance(g, GPU)
        and g.form_factor == "pcie"
        and g.vendor == build.gpu.vendor
        and g.vram_gib >= build.gpu.vram_gib
        and (cooler is None or g.cooler == cooler)
        and g.id != build.gpu.id
    ]
    same_chip = [g for g in gpus if build.gpu.chip and g.chip == build.gpu.chip]
    pool = same_chip or gpus
    if not pool:
        return None
    gpu = min(pool, key=lambda g: (g.vram_gib, price_key(g)))
    code = "use_blower_gpu" if cooler == "blower" else "use_pcie_gpu"
    return Fix(
        code=code, build={"gpu": gpu.id}, numbers={"vram_gib": gpu.vram_gib, "name": gpu.name}
    )


def physical_checks(
    build: Build, assignment: PcieAssignment, catalog: Catalog | None = None
) -> tuple[Check, ...]:
    """Form factor, slot room on board and case, board in case, card length, spacing."""
    gpu = build.gpu
    if gpu.form_factor != "pcie":
        fix = _pick_gpu(build, catalog, cooler=None) if catalog else None
        return (
            Check(
                id="physical.form_factor",
                severity="fail",
                reason="module_needs_baseboard",
                numbers={"form_factor": gpu.form_factor, "gpus": build.gpu_count},
                fix=fix,
            ),
        )
    checks = [Check(id="physical.form_factor", severity="pass", reason="pcie_card")]
    width = gpu_slot_width(build)
    if gpu.slot_width is None:
        checks.append(Check(id="physical.slot_width", severity="info", reason="slot_width_unknown"))
    # on risers the cards sit away from the board: its slot pitch does not matter
    if not build.motherboard.slot_positions_sourced and build.gpu_count > 1 and not build.riser:
        checks.append(
            Check(
                id="physical.slot_spacing",
                severity="warn",
                reason="slot_positions_unknown",
                numbers={"gpus": build.gpu_count, "slot_width": gpu.slot_width or "unknown"},
            )
        )
    board_numbers: dict[str, Number] = {
        "gpus": build.gpu_count,
        "slot_width": width,
        "slot_word": "slot" if width == 1 else "slots",
        "x16_slots": len(gpu_slots(build.motherboard)),
        "fitting": assignment.gpus_fitting_geometry,
    }
    # placed by width only where the board's slot positions are sourced and the cards sit
    # on it (not on risers); otherwise only the count of x16 slots limits them
    by_width = build.motherboard.slot_positions_sourced and build.riser is None
    if assignment.gpus_fitting_geometry < build.gpu_count:
        # cards wider than the slot pitch: on risers they sit away from the board
        fix = _riser_mount(build, catalog) if by_width and catalog is not None else None
        checks.append(
            Check(
                id="physical.board_slots",
                severity="fail",
                reason="gpus_do_not_fit_board" if by_width else "gpus_exceed_board_slots",
                numbers=board_numbers,
                fix=fix,
            )
        )
    else:
        checks.append(
            Check(
                id="physical.board_slots",
                severity="pass",
                reason=(
                    "gpus_fit_board"
                    if build.motherboard.slot_positions_sourced
                    else "gpus_placed_board_spacing_unknown"
                ),
                numbers=board_numbers,
            )
        )
    checks += _case_checks(build, assignment, width, catalog)
    checks.append(_cooling_check(build, assignment, width, catalog))
    return tuple(checks)


def _case_checks(
    build: Build, assignment: PcieAssignment, width: int, catalog: Catalog | None
) -> list[Check]:
    case = build.case
    if case is None:
        return [Check(id="physical.case", severity="info", reason="no_case")]
    if case.kind == "open_frame":
        return _frame_checks(build, case, catalog)
    needed = max((g.position + width - 1 for g in assignment.gpu_links), default=0)
    fix = _pick_case(build, needed, catalog) if catalog else None
    checks: list[Check] = []
    board_numbers: dict[str, Number] = {
        "board_form_factor": build.motherboard.form_factor,
        "case_form_factors": "/".join(case.motherboard_form_factors),
    }
    if board_fits(build.motherboard.form_factor, case.motherboard_form_factors):
        checks.append(
            Check(
                id="physical.case_board",
                severity="pass",
                reason="board_fits_case",
                numbers=board_numbers,
            )
        )
    else:
        checks.append(
            Check(
                id="physical.case_board",
                severity="fail",
                reason="board_not_in_case",
                numbers=board_numbers,
                fix=fix,
            )
        )
    slots = case.expansion_slots
    assert slots is not None  # towers and racks always state theirs (Case validator)
    slot_numbers: dict[str, Number] = {"needed": needed, "case_slots": slots}
    if needed > slots:
        checks.append(
            Check(
                id="physical.case_slots",
                severity="fail",
                reason="case_slots_short",
                numbers=slot_numbers,
                fix=fix,
            )
        )
    else:
        checks.append(
            Check(
                id="physical.case_slots",
                severity="pass",
                reason="case_slots_enough",
                numbers=slot_numbers,
            )
        )
    checks.append(_psu_bays_check(build, case))
    length, room = build.gpu.length_mm, case.max_gpu_length_mm
    if length is None:
        checks.append(Check(id="physical.gpu_length", severity="info", reason="gpu_length_unknown"))
    elif room is None:
        checks.append(
            Check(
                id="physical.gpu_length",
                severity="info",
                reason="case_room_unknown",
                numbers={"length_mm": length},
            )
        )
    else:
        ok = length <= room
        checks.append(
            Check(
                id="physical.gpu_length",
                severity="pass" if ok else "fail",
                reason="gpu_length_fits" if ok else "gpu_too_long",
                numbers={"length_mm": length, "max_mm": room},
                fix=None if ok else fix,
            )
        )
    return checks


def _psu_bays_check(build: Build, case: Case) -> Check:
    """The PSUs must fit the case: one always does (every tower, chassis and frame mounts
    one); more need as many bays, stated by the case's maker."""
    count, bays = build.psu_count if build.psu is not None else 1, case.psu_bays
    numbers: dict[str, Number] = {"psus": count, "case": case.name, "bays": bays or "unknown"}
    cid = "physical.psu_bays"
    if count == 1:
        return Check(id=cid, severity="pass", reason="one_psu_fits", numbers=numbers)
    if bays is None:
        return Check(id=cid, severity="warn", reason="psu_bays_unknown", numbers=numbers)
    if count > bays:
        return Check(id=cid, severity="fail", reason="psu_bays_short", numbers=numbers)
    return Check(id=cid, severity="pass", reason="psu_bays_enough", numbers=numbers)


def _passive_check(build: Build, numbers: dict[str, Number]) -> Check:
    """A passive (fanless) card needs a chassis whose fans push air through it: in a
    desktop tower or on an open frame it overheats and throttles (NVIDIA data-center
    product briefs: "passive thermal solution, requires system airflow")."""
    cid, case = "physical.cooling", build.case
    if case is None:
        return Check(id=cid, severity="warn", reason="passive_needs_airflow", numbers=numbers)
    numbers = numbers | {"case": case.name}
    if case.server_airflow:
        return Check(id=cid, severity="pass", reason="passive_server_airflow", numbers=numbers)
    if case.kind == "rack" and case.server_airflow is None:
        return Check(id=cid, severity="warn", reason="passive_airflow_unknown", numbers=numbers)
    return Check(id=cid, severity="fail", reason="passive_overheats", numbers=numbers)


def _frame_checks(build: Build, frame: Case, catalog: Catalog | None) -> list[Check]:
    """An open frame: the board must fit, every GPU needs a riser and a mount on the frame."""
    board_numbers: dict[str, Number] = {
        "board_form_factor": build.motherboard.form_factor,
        "case_form_factors": "/".join(frame.motherboard_form_factors),
    }
    fits = board_fits(build.motherboard.form_factor, frame.motherboard_form_factors)
    checks = [
        Check(
            id="physical.case_board",
            severity="pass" if fits else "fail",
            reason="board_fits_case" if fits else "board_not_in_case",
            numbers=board_numbers,
        )
    ]
    riser_numbers: dict[str, Number] = {"gpus": build.gpu_count}
    if build.riser is None:
        fix = _pick_riser(build, catalog) if catalog else None
        checks.append(
            Check(
                id="physical.riser",
                severity="fail",
                reason="frame_needs_risers",
                numbers=riser_numbers,
                fix=fix,
            )
        )
    else:
        riser_numbers |= {"riser": build.riser.name, "riser_gen": build.riser.pcie_gen}
        checks.append(
            Check(
                id="physical.riser", severity="pass", reason="risers_chosen", numbers=riser_numbers
            )
        )
    mounts = frame.gpu_mounts
    mount_numbers: dict[str, Number] = {"gpus": build.gpu_count, "mounts": mounts or "unknown"}
    if mounts is None:
        checks.append(
            Check(
                id="physical.frame_mounts",
                severity="warn",
                reason="frame_mounts_unknown",
                numbers=mount_numbers,
            )
        )
    else:
        ok = build.gpu_count <= mounts
        checks.append(
            Check(
                id="physical.frame_mounts",
                severity="pass" if ok else "fail",
                reason="frame_mounts_enough" if ok else "frame_mounts_short",
                numbers=mount_numbers,
            )
        )
    return checks


def _riser_mount(build: Build, catalog: Catalog) -> Fix | None:
    """Risers for every GPU and, unless the case is already an open frame, the cheapest
    priced open frame that takes the board and holds the GPUs."""
    riser_fix = _pick_riser(build, catalog)
    if riser_fix is None:
        return None
    if build.case is not None and build.case.kind == "open_frame":
        return riser_fix
    frames = [
        c
        for c in catalog.parts("case")
        if isinstance(c, Case)
        and c.kind == "open_frame"
        and c.price.usd is not None
        and board_fits(build.motherboard.form_factor, c.motherboard_form_factors)
        and (c.gpu_mounts or 0) >= build.gpu_count
    ]
    if not frames:
        return None
    frame = min(frames, key=price_key)
    return Fix(
        code="use_frame_and_risers",
        build={"riser": riser_fix.build["riser"], "case": frame.id},
        numbers={**riser_fix.numbers, "frame": frame.name},
    )


def _pick_riser(build: Build, catalog: Catalog) -> Fix | None:
    """The cheapest priced riser rated for the GPU's PCIe generation (else the fastest)."""
    risers = [r for r in catalog.parts("riser") if isinstance(r, Riser)]
    if not risers:
        return None
    fast = [r for r in risers if r.pcie_gen >= build.gpu.pcie_gen]
    pool = fast or [max(risers, key=lambda r: r.pcie_gen)]
    riser = min(pool, key=price_key)
    return Fix(
        code="use_riser",
        build={"riser": riser.id},
        numbers={"name": riser.name, "gpus": build.gpu_count, "riser_gen": riser.pcie_gen},
    )


def _cooling_check(
    build: Build, assignment: PcieAssignment, width: int, catalog: Catalog | None
) -> Check:
    gpu, cid = build.gpu, "physical.cooling"
    positions = [g.position for g in assignment.gpu_links]
    gaps = [b - (a + width) for a, b in itertools.pairwise(positions)]
    if not build.motherboard.slot_positions_sourced:
        gaps = []  # positions are only the slots' order: no gap can be computed
    numbers: dict[str, Number] = {"gpus": build.gpu_count, "cooler": gpu.cooler or "unknown"}
    if gaps:
        numbers["min_gap_slots"] = min(gaps)
    if gpu.cooler is None:
        return Check(id=cid, severity="info", reason="cooler_unknown", numbers=numbers)
    if gpu.cooler == "passive":
        return _passive_check(build, numbers)
    if gpu.cooler != "open-air" or build.gpu_count == 1:
        return Check(id=cid, severity="pass", reason="cooling_ok", numbers=numbers)
    if build.riser is not None and build.case is not None and build.case.kind == "open_frame":
        # on an open frame each card sits on its own riser along the rail, in open air
        return Check(id=cid, severity="pass", reason="open_air_on_frame", numbers=numbers)
    if not build.motherboard.slot_positions_sourced:
        return Check(id=cid, severity="warn", reason="open_air_spacing_unknown", numbers=numbers)
    if not gaps:
        return Check(id=cid, severity="info", reason="cooling_not_evaluated", numbers=numbers)
    packed = min(gaps) <= 0
    if not packed and build.gpu_count < 3:
        return Check(id=cid, severity="pass", reason="open_air_spaced", numbers=numbers)
    fix = _pick_gpu(build, catalog, cooler="blower") if catalog else None
    if fix is None and gpu.board_power_w is not None:
        limit = round(gpu.board_power_w * COOLING_LIMIT_FRACTION)
        fix = Fix(
            code="power_limit_for_cooling",
            build={"gpu_power_limit_w": limit},
            numbers={
                "limit_w": limit,
                "throughput_pct": round(100 * power_limit_throughput_factor(gpu, limit), 1),
            },
        )
    reason = "open_air_no_gap" if packed else "open_air_many"
    return Check(id=cid, severity="warn", reason=reason, numbers=numbers, fix=fix)
