"""Apply feed prices and manual overrides to a catalog, giving a new catalog."""

from __future__ import annotations

from collections.abc import Iterable

from core.catalog import Catalog
from core.models.common import Price
from core.models.cost import PriceOrigin
from core.models.parts import Part
from core.prices.models import PartPrice


def apply_prices(
    catalog: Catalog, feed: Iterable[PartPrice] = (), overrides: Iterable[PartPrice] = ()
) -> Catalog:
    """A catalog whose part prices are the feed's, then the overrides' (which win).

    Ids the catalog lacks are ignored (the feed validation already reported them). The
    result's ``price_origins`` say which parts' prices came from where; the original
    catalog is not changed.
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
        priced = Price(usd=new.usd, as_of=new.as_of, kind=new.kind, source=new.source)
        parts.append(part.model_copy(update={"price": priced}))
    origins: dict[str, PriceOrigin] = {pid: p.origin for pid, p in chosen.items()}
    return Catalog(parts, snapshot_date=catalog.snapshot_date, price_origins=origins)
