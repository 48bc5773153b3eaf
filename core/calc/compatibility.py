"""Why a part cannot go into a build, in a user's words, for the part pickers.

``incompatibility(build, category, part)`` puts ``part`` in the build's ``category`` field
and asks the platform checks' own helpers (``core.calc.platform``) whether the result can
work: socket, memory type and DIMM kind, DIMM slots and capacity, GPU slots on the board
and in the case, card length, board form factor in the case, PSU rating and GPU power
cables. The answer is the first reason found, or ``None``.

Only a conclusive failure is a reason: a spec no source gives (a card's length, a case's
room, a PSU's cables) never produces one, so a greyed part is one that cannot fit, never
one we know too little about. A reason names only a problem the candidate causes: when
the build's GPU count exceeds the board's slots at any card width, no GPU is blamed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from core.calc.platform.compat import connector_needs, connectors_ok, same_socket
from core.calc.platform.form_factors import board_fits
from core.calc.platform.pcie import assign_pcie, gpu_slot_width, max_gpus_by_geometry
from core.calc.platform.power import power_budget
from core.models.build import Build
from core.models.parts import Category, Part
from core.models.settings import AnalysisSettings

Reason = str | None
PICKED_FIELDS: tuple[Category, ...] = (
    "gpu",
    "cpu",
    "motherboard",
    "memory",
    "psu",
    "case",
    "riser",
)
"""Build fields a picker fills with one part (drives are a list: never incompatible here)."""


def incompatibility(build: Build, category: str, part: Part) -> Reason:
    """Why ``part`` cannot be the build's ``category`` part (``None``: nothing known
    against it)."""
    return incompatibilities(build, category, (part,))[part.id]


def incompatibilities(build: Build, category: str, parts: Iterable[Part]) -> dict[str, Reason]:
    """``part id -> reason or None`` for every part of ``category`` (one pass: what the
    build alone determines is computed once)."""
    parts = tuple(parts)
    if category not in PICKED_FIELDS:
        return {p.id: None for p in parts}
    judge = _JUDGES.get(category)
    context = _Context(build)
    result: dict[str, Reason] = {}
    for part in parts:
        if part.category != category or judge is None:
            result[part.id] = None
            continue
        candidate = build if getattr(build, category) is part else _with(build, category, part)
        result[part.id] = judge(candidate, context)
    return result


# -- helpers ----------------------------------------------------------------------------


class _Context:
    """What the build alone determines, computed on first use."""

    def __init__(self, build: Build) -> None:
        self.build = build
        self._steady_w: float | None = None
        self._case_slots_needed: int | None = None

    @property
    def steady_w(self) -> float:
        """Steady DC draw; a PSU does not change it (unknown draws count 0: a lower bound,
        so a PSU it overloads is overloaded whatever the unknowns are)."""
        if self._steady_w is None:
            self._steady_w = power_budget(self.build, AnalysisSettings()).steady_dc_w
        return self._steady_w

    @property
    def case_slots_needed(self) -> int:
        """Rear slot positions the placed GPUs cover (the case does not move them)."""
        if self._case_slots_needed is None:
            width = gpu_slot_width(self.build)
            links = assign_pcie(self.build).gpu_links
            self._case_slots_needed = max((g.position + width - 1 for g in links), default=0)
        return self._case_slots_needed


def _with(build: Build, field: str, part: Part) -> Build:
    # Not re-validated: the build's own limits do not involve which model a part is, and a
    # candidate is only judged, never kept.
    return build.model_copy(update={field: part})


def _num(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:,.1f}"


def _types(values: tuple[str, ...]) -> str:
    return "/".join(values)


def _first(*reasons: Callable[[], Reason]) -> Reason:
    for reason in reasons:
        found = reason()
        if found is not None:
            return found
    return None


# -- relations, each worded from the candidate's side ---------------------------------------


def _socket(build: Build, candidate: str) -> Reason:
    cpu, board = build.cpu, build.motherboard
    if same_socket(cpu, board):
        return None
    if candidate == "cpu":
        return f"socket {cpu.socket}, the board has {board.socket}"
    return f"socket {board.socket}, the CPU needs {cpu.socket}"


def _memory_vs_cpu(build: Build, candidate: str) -> Reason:
    cpu, kit = build.cpu, build.memory
    if kit.memory_type not in cpu.memory_types:
        if candidate == "cpu":
            return f"takes {_types(cpu.memory_types)}, the memory kit is {kit.memory_type}"
        return f"{kit.memory_type}, the CPU takes {_types(cpu.memory_types)}"
    if kit.dimm_type not in cpu.dimm_types:
        if candidate == "cpu":
            return f"takes {_types(cpu.dimm_types)} modules, the memory kit is {kit.dimm_type}"
        return f"{kit.dimm_type} modules, the CPU takes {_types(cpu.dimm_types)}"
    return None


def _memory_vs_board(build: Build, candidate: str) -> Reason:
    board, kit = build.motherboard, build.memory
    if kit.memory_type != board.memory_type:
        if candidate == "motherboard":
            return f"{board.memory_type} memory slots, the memory kit is {kit.memory_type}"
        return f"{kit.memory_type}, the board takes {board.memory_type}"
    if kit.dimm_type not in board.dimm_types:
        if candidate == "motherboard":
            return f"takes {_types(board.dimm_types)} modules, the memory kit is {kit.dimm_type}"
        return f"{kit.dimm_type} modules, the board takes {_types(board.dimm_types)}"
    return None


def _board_vs_cpu_memory(build: Build, candidate: str) -> Reason:
    """A board whose memory type the CPU cannot drive fits no memory kit at all."""
    cpu, board = build.cpu, build.motherboard
    if board.memory_type in cpu.memory_types:
        return None
    if candidate == "cpu":
        return f"takes {_types(cpu.memory_types)}, the board is {board.memory_type}"
    return f"{board.memory_type} memory, the CPU takes {_types(cpu.memory_types)}"


def _dimm_slots(build: Build, candidate: str) -> Reason:
    dimms, slots = build.dimm_count, build.motherboard.memory_slots
    if dimms <= slots:
        return None
    if candidate == "motherboard":
        return f"{slots} memory slots, the memory is {dimms} modules"
    return f"{dimms} modules, the board has {slots} memory slots"


def _capacity(build: Build, candidate: str) -> Reason:
    gib = build.memory_gib
    sides = (
        ("board", build.motherboard.max_memory_gib, "motherboard"),
        ("CPU", build.cpu.max_memory_gib, "cpu"),
    )
    for side, limit, field in sides:
        if limit is None or gib <= limit:
            continue
        if candidate == field:
            return f"holds at most {_num(limit)} GB of memory, the build has {_num(gib)} GB"
        if candidate == "memory":
            return f"{_num(gib)} GB, the {side} holds at most {_num(limit)} GB"
    return None


def _board_in_case(build: Build, candidate: str) -> Reason:
    board, case = build.motherboard, build.case
    if case is None or board_fits(board.form_factor, case.motherboard_form_factors):
        return None
    forms = _types(case.motherboard_form_factors)
    if candidate == "case":
        return f"takes {forms} boards, the board is {board.form_factor}"
    return f"{board.form_factor} board, the case takes {forms}"


def _module(build: Build) -> Reason:
    gpu = build.gpu
    if gpu.form_factor == "pcie":
        return None
    kind = {"sxm": "SXM module", "oam": "OAM module"}.get(gpu.form_factor, gpu.form_factor)
    return f"{kind}: needs a vendor baseboard, not a PCIe slot"


def _board_gpu_slots(build: Build, candidate: str) -> Reason:
    gpu, board, count = build.gpu, build.motherboard, build.gpu_count
    if gpu.form_factor != "pcie":
        return None
    width = gpu_slot_width(build)
    fitting = max_gpus_by_geometry(board, width)
    if fitting >= count:
        return None
    if candidate == "gpu":
        if max_gpus_by_geometry(board, 1) < count:
            return None  # too few slots for any card: the count is the problem, not the GPU
        return f"{width} slots wide: the board has room for {fitting} of the {count} cards"
    cards = f" ({width}-slot cards)" if width > 1 else ""
    return f"room for {fitting} of the {count} GPUs{cards}"


def _case_gpu_slots(build: Build, context: _Context) -> Reason:
    """Case candidates: the placed GPUs' reach against the case's rear slots."""
    case = build.case
    if case is None or case.expansion_slots is None or build.gpu.form_factor != "pcie":
        return None
    needed = context.case_slots_needed
    if needed <= case.expansion_slots:
        return None
    return f"{case.expansion_slots} expansion slots, the GPUs reach slot {needed}"


def _gpu_case_slots(build: Build) -> Reason:
    """GPU candidates: ``n`` cards ``w`` slots wide reach at least slot ``n × w`` (a lower
    bound of the placement the check uses, so never a false reason)."""
    case, gpu = build.case, build.gpu
    if case is None or case.expansion_slots is None or gpu.form_factor != "pcie":
        return None
    width = gpu_slot_width(build)
    placed = min(build.gpu_count, max_gpus_by_geometry(build.motherboard, width))
    if placed * width <= case.expansion_slots or placed > case.expansion_slots:
        return None
    return (
        f"{width} slots wide: {placed} cards need {placed * width} expansion slots, "
        f"the case has {case.expansion_slots}"
    )


def _gpu_length(build: Build, candidate: str) -> Reason:
    case, length = build.case, build.gpu.length_mm
    if case is None or case.kind == "open_frame" or length is None:
        return None
    room = case.max_gpu_length_mm
    if room is None or length <= room:
        return None
    if candidate == "case":
        return f"takes cards up to {_num(room)} mm, the GPU is {_num(length)} mm"
    return f"{_num(length)} mm long, the case takes cards up to {_num(room)} mm"


def _frame_mounts(build: Build) -> Reason:
    case = build.case
    if case is None or case.kind != "open_frame" or case.gpu_mounts is None:
        return None
    if build.gpu_count <= case.gpu_mounts:
        return None
    return f"holds {case.gpu_mounts} GPUs, the build has {build.gpu_count}"


def _cables(counts: dict[str, float]) -> str:
    listed = [f"{_num(n)} × {kind}" for kind, n in counts.items() if n]
    return " and ".join(listed) or "none"


def _gpu_cables(build: Build) -> Reason:
    psu = build.psu
    if psu is None or connectors_ok(build, psu, build.psu_count) is not False:
        return None  # fits, or either side's cables are not listed: nothing known against it
    needs = connector_needs(build, psu, build.psu_count)
    assert needs is not None  # connectors_ok is False only when the needs are known
    gpu_in = build.gpu.power_connectors or {}
    per_card = {
        "16-pin": sum(gpu_in.get(c, 0) for c in ("12vhpwr", "12v_2x6")),
        "8-pin": gpu_in.get("pcie_8pin", 0),
        "6-pin": gpu_in.get("pcie_6pin", 0),
    }
    take = _cables({k: v * build.gpu_count for k, v in per_card.items()})
    have = _cables(
        {"16-pin": needs["have_16pin"], "8-pin": needs["have_8pin"], "6-pin": needs["have_6pin"]}
    )
    short = f"{_num(needs['short_8pin'])} 8-pin short"
    cards = "1 card takes" if build.gpu_count == 1 else f"{build.gpu_count} cards take"
    psus = "PSU has" if build.psu_count == 1 else f"{build.psu_count} PSUs have"
    return f"too few GPU power cables ({short}): {cards} {take}, the {psus} {have}"


def _psu_rating(build: Build, context: _Context) -> Reason:
    psu = build.psu
    if psu is None:
        return None
    rated = psu.wattage_w * build.psu_count
    steady = context.steady_w
    if steady <= rated:
        return None
    units = f"{build.psu_count} × " if build.psu_count > 1 else ""
    return f"{units}{_num(psu.wattage_w)} W, the build draws {_num(steady)} W steady"


# -- per category -----------------------------------------------------------------------------


def _judge_gpu(b: Build, c: _Context) -> Reason:
    return _first(
        lambda: _module(b),
        lambda: _board_gpu_slots(b, "gpu"),
        lambda: _gpu_length(b, "gpu"),
        lambda: _gpu_case_slots(b),
        lambda: _gpu_cables(b),
    )


def _judge_cpu(b: Build, c: _Context) -> Reason:
    return _first(
        lambda: _socket(b, "cpu"),
        lambda: _board_vs_cpu_memory(b, "cpu"),
        lambda: _memory_vs_cpu(b, "cpu"),
        lambda: _capacity(b, "cpu"),
    )


def _judge_motherboard(b: Build, c: _Context) -> Reason:
    return _first(
        lambda: _socket(b, "motherboard"),
        lambda: _board_vs_cpu_memory(b, "motherboard"),
        lambda: _memory_vs_board(b, "motherboard"),
        lambda: _dimm_slots(b, "motherboard"),
        lambda: _capacity(b, "motherboard"),
        lambda: _board_gpu_slots(b, "motherboard"),
        lambda: _board_in_case(b, "motherboard"),
    )


def _judge_memory(b: Build, c: _Context) -> Reason:
    return _first(
        lambda: _memory_vs_board(b, "memory"),
        lambda: _memory_vs_cpu(b, "memory"),
        lambda: _dimm_slots(b, "memory"),
        lambda: _capacity(b, "memory"),
    )


def _judge_psu(b: Build, c: _Context) -> Reason:
    return _first(lambda: _psu_rating(b, c), lambda: _gpu_cables(b))


def _judge_case(b: Build, c: _Context) -> Reason:
    return _first(
        lambda: _board_in_case(b, "case"),
        lambda: _gpu_length(b, "case"),
        lambda: _case_gpu_slots(b, c),
        lambda: _frame_mounts(b),
    )


_JUDGES: dict[str, Callable[[Build, _Context], Reason]] = {
    "gpu": _judge_gpu,
    "cpu": _judge_cpu,
    "motherboard": _judge_motherboard,
    "memory": _judge_memory,
    "psu": _judge_psu,
    "case": _judge_case,
}
"""Risers have no hard fit rule (a slow cable is a warning, not a misfit)."""
