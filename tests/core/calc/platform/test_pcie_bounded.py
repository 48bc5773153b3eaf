"""The placement search does bounded work on any board the format accepts, and its greedy
fallback places GPUs and drives as well as the exhaustive search on every catalog board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from core.calc.platform import pcie
from core.catalog import load_catalog
from core.models.build import DriveSelection
from core.models.parts import Motherboard
from core.models.pcie import PcieAssignment
from tests.core import check_parts as parts

CATALOG = load_catalog()


def lane_chain_board(slots: int, m2: int) -> Motherboard:
    """``slots`` x16 slots, one position apart; slot N drops to 0 lanes when slot N-1 is
    populated. ``m2`` CPU-attached Gen5 M.2 slots."""
    return parts.am5_board(
        pcie_slots=[
            {
                "id": f"S{i}",
                "position": i,
                "gen": 5,
                "lanes": 16,
                "attached_to": "cpu",
                "lane_rules": [{"when_populated": f"S{i - 1}", "lanes": 0}] if i > 1 else [],
            }
            for i in range(1, slots + 1)
        ],
        m2_slots=[{"id": f"M{i}", "gen": 5, "attached_to": "cpu"} for i in range(1, m2 + 1)],
    )


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the placements the search scores."""
    count = [0]
    real = pcie._evaluate

    def counted(*args: Any) -> Any:
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(pcie, "_evaluate", counted)
    return count


# The greedy fallback's passes are bounded too: at most SWAP_PASSES passes of
# size × (slots − size) swaps plus (slots − size) additions, 16 × 14 per pass at most.
GREEDY_BOUND = 1 + pcie.SWAP_PASSES * (16 * 14 + 14)


@pytest.mark.parametrize(("slots", "m2", "placed"), [(14, 14, 7), (8, 8, 4)])
def test_lane_sharing_chain_is_placed_within_the_budget(
    evaluations: list[int], slots: int, m2: int, placed: int
) -> None:
    # Worked by hand: with every slot disabled by its upper neighbour, the most GPUs that
    # keep lanes are the odd slots S1, S3, … (7 of 14, 4 of 8), each at x16 Gen5 (the
    # test CPU has Gen5). Six x4 drives fit in six of the M.2 slots.
    build = parts.build(
        motherboard=lane_chain_board(slots, m2),
        gpu=parts.gpu(slot_width=1, pcie_gen=5),
        gpu_count=16,
        drives=[DriveSelection(drive=parts.nvme(), count=6)],
    )
    result = pcie.assign_pcie(build)
    assert [g.slot_id for g in result.gpu_links] == [f"S{i}" for i in range(1, 2 * placed, 2)]
    assert {g.lanes for g in result.gpu_links} == {16}
    assert result.gpus_unplaced == 16 - placed
    assert len(result.drive_links) == 6
    assert evaluations[0] <= pcie.PLACEMENT_BUDGET + GREEDY_BOUND


def test_a_lane_rule_naming_its_own_slot_is_refused() -> None:
    board = parts.am5_board().model_dump()
    board["pcie_slots"][0]["lane_rules"] = [{"when_populated": "x16_1", "lanes": 8}]
    with pytest.raises(ValidationError, match="cannot name its own slot"):
        Motherboard.model_validate(board)


def _summary(result: PcieAssignment) -> tuple[object, ...]:
    """What the checks and models read: each GPU's slot and link, the drives placed and
    their total bandwidth (which of two equal M.2 slots a drive takes does not matter)."""
    return (
        tuple((g.slot_id, g.gen, g.lanes, g.attached_to) for g in result.gpu_links),
        len(result.drive_links),
        round(sum(d.bandwidth_gb_s for d in result.drive_links), 3),
    )


@pytest.mark.parametrize("board", CATALOG.parts("motherboard"), ids=lambda b: b.id)
def test_greedy_fallback_equals_the_exhaustive_search_on_catalog_boards(
    board: Motherboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    sata = parts.nvme(id="sata", interface="sata", form_factor="2.5", pcie_gen=None)
    for width in (1, 2, 3):
        for gpus in (1, 2, 3, 4, 5, 7, 8):
            for nvme in range(len(board.m2_slots) + 2):
                drives = [DriveSelection(drive=parts.nvme(), count=nvme)] if nvme else []
                build = parts.build(
                    motherboard=board,
                    gpu=parts.gpu(slot_width=width),
                    gpu_count=gpus,
                    drives=drives or [DriveSelection(drive=sata)],
                )
                exhaustive = pcie.assign_pcie(build)
                with monkeypatch.context() as patched:
                    patched.setattr(pcie, "PLACEMENT_BUDGET", 0)  # greedy from the start
                    greedy = pcie.assign_pcie(build)
                assert _summary(greedy) == _summary(exhaustive), (width, gpus, nvme)


def test_catalog_boards_are_searched_exhaustively(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is above what any catalog board needs (the 7-slot boards need C(7,k)
    GPU sets × their M.2 sets), so their results never depend on the greedy fallback."""

    def no_greedy(*_args: object) -> object:
        raise AssertionError("the greedy fallback ran")

    monkeypatch.setattr(pcie, "_greedy_search", no_greedy)
    monkeypatch.setattr(pcie, "_greedy_m2_set", no_greedy)
    for board in CATALOG.parts("motherboard"):
        for gpus in range(1, 9):
            for nvme in range(1, len(board.m2_slots) + 1):
                build = parts.build(
                    motherboard=board,
                    gpu=parts.gpu(slot_width=1),
                    gpu_count=gpus,
                    drives=[DriveSelection(drive=parts.nvme(), count=nvme)],
                )
                pcie.assign_pcie(build)
