"""Cost of a build from its parts' dated, sourced prices.

A part without a sourced price leaves the total unknown (``None``): it is listed as
unpriced and never counted as zero. A part's price is the one in the build (its catalog
entry or the file's snapshot) unless the user's price feed or override sets one for that
part id (``Catalog.price_origins``), which then wins everywhere.
"""

from __future__ import annotations

from datetime import date

from core.catalog import Catalog
from core.models.build import Build
from core.models.common import Price
from core.models.cost import PartsCost, PriceLine, PriceOrigin
from core.models.parts import Part

NO_USED_PRICE = "no used price for this part; enter one or buy it new"


def effective_price(
    part: Part, catalog: Catalog | None, *, used: bool = False
) -> tuple[Price, PriceOrigin]:
    """The price that applies to ``part`` (new, or second-hand with ``used``), and where it
    comes from. A part bought used without a used price has an unknown price."""
    if used:
        current = catalog.by_id(part.id) if catalog is not None else None
        if current is not None and current.used_price is not None:
            return current.used_price, "catalog"
        if part.used_price is None:
            return Price(usd=None, kind="unknown", source=NO_USED_PRICE), "catalog"
        return part.used_price, "catalog" if catalog is None else "file"
    if catalog is None:
        return part.price, "catalog"
    if part.id in catalog.price_origins:
        priced = catalog.by_id(part.id)
        if priced is not None:
            return priced.price, catalog.price_origins[part.id]
    bundled = catalog.by_id(part.id)
    if bundled is None or bundled.price != part.price:
        return part.price, "file"  # the file's own snapshot or custom part
    return part.price, "catalog"


def price_lines(
    build: Build, catalog: Catalog | None = None, today: date | None = None
) -> tuple[PriceLine, ...]:
    """One line per part with quantity, price, date, kind, source, origin and age (stale
    when observed more than a year before ``today``, by default the system's date)."""
    today = today or date.today()
    lines = []
    for quantity, part in build.bill_of_materials():
        used = build.is_used(part)
        price, origin = effective_price(part, catalog, used=used)
        lines.append(
            PriceLine(
                part_id=part.id,
                name=part.name,
                category=part.category,
                quantity=quantity,
                unit_usd=price.usd,
                line_usd=None if price.usd is None else quantity * price.usd,
                as_of=price.as_of,
                kind=price.kind,
                source=price.source,
                origin=origin,
                condition="used" if used else "new",
                stale=price.stale(today),
                age_days=price.age_days(today),
            )
        )
    return tuple(lines)


def parts_cost(lines: tuple[PriceLine, ...]) -> PartsCost:
    """The total of ``lines``; unknown (``None``) when any line is unpriced."""
    priced = sum(line.line_usd for line in lines if line.line_usd is not None)
    unpriced = tuple(dict.fromkeys(line.part_id for line in lines if line.line_usd is None))
    return PartsCost(
        total_usd=None if unpriced else priced, priced_usd=priced, unpriced_part_ids=unpriced
    )
