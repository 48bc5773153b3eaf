"""How fresh the catalog's prices are: counts for ``rigforge prices show`` and the Prices
window."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from core.models.common import STALE_AFTER_DAYS, Price
from core.models.parts import Part


def _since(price: Price | None, since: date) -> bool:
    return price is not None and price.usd is not None and (price.as_of or date.min) >= since


def freshness(parts: Iterable[Part], today: date | None = None) -> dict[str, Any]:
    """Parts priced within the last ``STALE_AFTER_DAYS`` (by a new-part price, or a used
    one), by category; GPUs with a new-part price that recent and with a used price from
    this calendar year; and the stale ones."""
    today = today or date.today()
    since = today - timedelta(days=STALE_AFTER_DAYS)
    listed = list(parts)
    by_category: dict[str, dict[str, int]] = {}
    for part in listed:
        counts = by_category.setdefault(part.category, {"parts": 0, "priced_since": 0})
        counts["parts"] += 1
        counts["priced_since"] += _since(part.price, since) or _since(part.used_price, since)
    gpus = [p for p in listed if p.category == "gpu"]
    year_start = date(today.year, 1, 1)
    fresh = sum(c["priced_since"] for c in by_category.values())
    gpu_new = sum(_since(g.price, since) for g in gpus)
    return {
        "today": today.isoformat(),
        "since": since.isoformat(),
        "parts": len(listed),
        "parts_priced_since": fresh,
        "parts_share": round(fresh / len(listed), 3) if listed else None,
        "gpus": len(gpus),
        "gpus_new_price_since": gpu_new,
        "gpus_share": round(gpu_new / len(gpus), 3) if gpus else None,
        "gpus_used_price_this_year": sum(_since(g.used_price, year_start) for g in gpus),
        "stale_prices": sum(p.price.stale(today) for p in listed),
        "unknown_prices": sum(p.price.usd is None for p in listed),
        "by_category": by_category,
    }
