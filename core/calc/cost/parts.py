"""Cost of a build from its parts' dated, sourced prices.

A part without a sourced price is listed as unpriced, never guessed; totals
then cover the priced parts only and say so (``PartsCost.complete``).
"""

from __future__ import annotations

from collections.abc import Mapping

from core.models.build import Build
from core.models.cost import PriceLine, PriceOrigin
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


def price_lines(
    build: Build, origins: Mapping[str, PriceOrigin] | None = None
) -> tuple[PriceLine, ...]:
    """One line per part with quantity, price, date, kind, source and origin.

    ``origins`` (from ``core.prices.apply_prices``) says which prices came from
    the feed or a manual override; any other part's price is the catalog's.
    """
    origins = origins or {}
    return tuple(
        PriceLine(
            part_id=part.id,
            category=part.category,
            quantity=quantity,
            unit_usd=part.price.usd,
            line_usd=None if part.price.usd is None else quantity * part.price.usd,
            as_of=part.price.as_of,
            kind=part.price.kind,
            source=part.price.source,
            origin=origins.get(part.id, "catalog"),
        )
        for quantity, part in bill_of_materials(build)
    )
