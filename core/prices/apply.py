"""Apply feed prices and manual overrides to a catalog, giving a new catalog."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.catalog import Catalog
from core.models.common import Price
from core.models.cost import PriceOrigin
from core.models.parts import Part
from core.prices.models import PartPrice


@dataclass(frozen=True)
class PricedCatalog:
    """A catalog with prices applied and, per part id, where its price came from."""

    catalog: Catalog
    origins: dict[str, PriceOrigin] = field(default_factory=dict)


def apply_prices(
    catalog: Catalog, feed: Iterable[PartPrice] = (), overrides: Iterable[PartPrice] = ()
) -> PricedCatalog:
    """Replace part prices: feed prices first, then manual overrides (which win).

    Ids the catalog lacks are ignored (the feed validation already reported them).
    The original catalog is not changed.
    """
    chosen: dict[str, PartPrice] = {}
    for price in (*feed, *overrides):
        if price.part_id in catalog:
            chosen[price.part_id] = price
    parts: list[Part] = []
    for part_id, part in catalog.parts_by_id().items():
        new = chosen.get(part_id)
        if new is None:
            parts.append(part)
            continue
        parts.append(
            part.model_copy(
                update={
                    "price": Price(usd=new.usd, as_of=new.as_of, kind=new.kind, source=new.source)
                }
            )
        )
    origins: dict[str, PriceOrigin] = {pid: p.origin for pid, p in chosen.items()}
    return PricedCatalog(Catalog(parts, snapshot_date=catalog.snapshot_date), origins)
