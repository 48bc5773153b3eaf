"""Cost of a build from its parts' dated, sourced prices."""

from __future__ import annotations

from core.models.build import Build
from core.models.results import PartsCost
from core.text.parts import bill_of_materials


def parts_cost(build: Build) -> PartsCost:
    """Sum of known part prices; parts without a sourced price are listed, not guessed."""
    total = 0.0
    unknown: list[str] = []
    for quantity, part in bill_of_materials(build):
        if part.price.usd is None:
            unknown.append(part.id)
        else:
            total += quantity * part.price.usd
    return PartsCost(total_usd=total, unpriced_part_ids=tuple(unknown))
