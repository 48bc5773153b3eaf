"""Validate a price feed document, entry by entry, into USD prices.

The document (see docs/prices.md)::

    {"format": "rigforge-price-feed", "version": 1, "published": "2025-01-29",
     "prices": {"<part id>": {"price": 1599, "currency": "USD",
                               "as_of": "2025-01-29", "kind": "street",
                               "source": "..."}}}

A document that is not JSON, too big or of the wrong shape is refused whole
(``FileFormatError``); a bad entry (unknown part, negative or NaN price, unknown
currency, missing date or source) is refused alone and named in the report.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import ValidationError

from core.catalog import Catalog
from core.errors import FileFormatError, RigForgeError
from core.files.safe_json import parse_json_bytes
from core.models.cost import CurrencyTable
from core.prices.currency import to_usd
from core.prices.models import (
    FEED_FORMAT,
    FEED_VERSION,
    MIN_PRICE,
    FeedEntry,
    FeedReport,
    PartPrice,
    Rejection,
)

MAX_FEED_BYTES = 2 * 1024 * 1024
MAX_ENTRIES = 20_000
MAX_USD = 10_000_000


def parse_feed(data: bytes, catalog: Catalog, currencies: CurrencyTable) -> FeedReport:
    """Parse and validate feed bytes; raise ``FileFormatError`` if the whole feed is unusable."""
    document = parse_json_bytes(data, max_bytes=MAX_FEED_BYTES, lenient_numbers=True)
    return validate_feed(document, catalog, currencies)


def check_version(version: Any, what: str, after: str = "") -> None:
    """Refuse a ``version`` other than ``FEED_VERSION`` (``True`` is not 1 here), naming
    ``what`` carries it; ``after`` ends the message."""
    if type(version) is not int or version != FEED_VERSION:
        shown = repr(version)
        shown = shown if len(shown) <= 40 else shown[:40] + "…"
        raise FileFormatError(
            f"{what} version {shown} is not supported "
            f"(this RigForge reads version {FEED_VERSION}){after}"
        )


def validate_feed(
    document: Any,
    catalog: Catalog,
    currencies: CurrencyTable,
    *,
    what: str = "the price feed",
    overrides: bool = False,
) -> FeedReport:
    """Check a feed document entry by entry; ``what`` names it in messages. A feed dated
    in the future is refused (its date says how fresh its prices are); the user's own
    ``overrides`` file only carries the date it was last written, so there a future date
    is set aside with a note."""
    if not isinstance(document, dict):
        raise FileFormatError(f"{what} is not a JSON object")
    if document.get("format") != FEED_FORMAT:
        raise FileFormatError(f"not a price feed: 'format' must be {FEED_FORMAT!r}")
    check_version(document.get("version"), "price feed")
    prices = document.get("prices")
    if not isinstance(prices, dict):
        raise FileFormatError(f"{what} has no 'prices' object (part id → price)")
    if len(prices) > MAX_ENTRIES:
        raise FileFormatError(f"{what} has {len(prices)} entries; at most {MAX_ENTRIES}")
    published = _date_or_none(document.get("published"))
    notes: tuple[str, ...] = ()
    if published is not None and published > date.today():
        future = f"{what} has a 'published' date in the future ({published})"
        if not overrides:
            raise FileFormatError(future)
        notes, published = (f"{future}; the date was ignored",), None
    accepted: list[PartPrice] = []
    rejected: list[Rejection] = []
    for part_id, raw in prices.items():
        outcome = _entry(str(part_id), raw, catalog, currencies)
        (accepted if isinstance(outcome, PartPrice) else rejected).append(outcome)  # type: ignore[arg-type]
    return FeedReport(
        accepted=tuple(accepted), rejected=tuple(rejected), published=published, notes=notes
    )


def _entry(
    part_id: str, raw: Any, catalog: Catalog, currencies: CurrencyTable
) -> PartPrice | Rejection:
    label = part_id[:80]
    if part_id not in catalog:
        return Rejection(part_id=label, code="unknown_part", detail="no such catalog id")
    try:
        entry = FeedEntry.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(entry)"
        message = str(first["msg"]).removeprefix("Value error, ")
        return Rejection(part_id=label, code="invalid_entry", detail=f"{where}: {message}")
    try:
        usd = to_usd(entry.price, entry.currency, currencies)
    except RigForgeError as error:
        return Rejection(part_id=label, code="unknown_currency", detail=str(error))
    if not MIN_PRICE <= round(usd, 2) < MAX_USD:
        return Rejection(
            part_id=label,
            code="out_of_range",
            detail=f"{usd:.4g} USD is outside {MIN_PRICE} to {MAX_USD:,} USD",
        )
    return PartPrice(
        part_id=part_id,
        usd=round(usd, 2),
        as_of=entry.as_of,
        kind=entry.kind,
        source=entry.source,
        origin="feed",
        original_amount=entry.price,
        original_currency=entry.currency,
    )


def _date_or_none(value: Any) -> date | None:
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
