"""Frozen models of the price feed, its validation report and applied prices."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, StringConstraints

from core.models.common import Frozen, NonEmptyStr, PartId
from core.models.cost import CurrencyCode

FEED_FORMAT = "rigforge-price-feed"
FEED_VERSION = 1

PriceKind = Literal["msrp", "street", "used"]
MIN_PRICE = 0.01
"""The smallest price a feed or override may state (one cent, in its currency)."""


def _not_future(value: date) -> date:
    if value > date.today():
        raise ValueError(f"{value.isoformat()} is in the future")
    return value


def _iso_text(value: object) -> object:
    """A date as the feed's text ("2025-03-01"), not a number (pydantic would read 0 as
    1970-01-01) or a boolean."""
    if not isinstance(value, str | date):
        raise ValueError("a date must be written as YYYY-MM-DD")
    return value


PastDate = Annotated[date, BeforeValidator(_iso_text), AfterValidator(_not_future)]


class FeedEntry(Frozen):
    """One price as a feed states it (before currency conversion)."""

    price: Annotated[float, Field(strict=True, ge=MIN_PRICE, lt=100_000_000)]
    """A number (``true`` is not a price of 1)."""
    currency: CurrencyCode = "USD"
    as_of: PastDate
    kind: PriceKind = "street"
    source: Annotated[str, StringConstraints(min_length=1, max_length=500)]


class PriceFeedDocument(Frozen):
    """The price-feed file as a whole (docs/prices.md): its JSON Schema ships as
    ``resources/schema/rigforge-price-feed-1.schema.json``. Reading is more forgiving than
    the schema: a bad entry is refused alone (``core.prices.feed``)."""

    format: Literal["rigforge-price-feed"] = "rigforge-price-feed"
    version: Literal[1] = 1
    published: PastDate | None = None
    notes: Annotated[str, StringConstraints(max_length=2000)] = ""
    prices: dict[PartId, FeedEntry]


def feed_json_schema() -> dict[str, object]:
    schema = PriceFeedDocument.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://rigforge.invalid/schema/rigforge-price-feed-1.json"
    schema["title"] = "RigForge price feed, version 1"
    return schema


class PartPrice(Frozen):
    """A price ready to apply to a catalog part, in USD, with where it came from."""

    part_id: PartId
    usd: Annotated[float, Field(gt=0, lt=10_000_000)]
    as_of: date
    kind: PriceKind = "street"
    source: NonEmptyStr
    origin: Literal["feed", "override"]
    original_amount: float | None = None
    original_currency: CurrencyCode | None = None


class Rejection(Frozen):
    """An entry the feed validation refused: where, a code and a detail."""

    part_id: str
    code: Literal["unknown_part", "invalid_entry", "unknown_currency", "out_of_range"]
    detail: str = ""


class FeedReport(Frozen):
    """Validation of a whole feed, entry by entry."""

    accepted: tuple[PartPrice, ...]
    rejected: tuple[Rejection, ...]
    published: date | None = None
    notes: tuple[str, ...] = ()
    """What the reader set aside without refusing the document (in words)."""

    @property
    def total(self) -> int:
        return len(self.accepted) + len(self.rejected)


UpdateStatus = Literal["updated", "partial", "not_modified", "failed"]


class UpdateResult(Frozen):
    """What a price update did; ``prices`` are the ones in force afterwards."""

    status: UpdateStatus
    prices: tuple[PartPrice, ...]
    report: FeedReport | None = None
    error: str | None = None
    """Why a failed update failed (the previous prices are kept)."""
    url: str
