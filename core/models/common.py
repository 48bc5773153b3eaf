"""Shared building blocks of the part models: prices, sources and id rules.

Units live in field names (``_usd``, ``_w``, ``_gb_s``, ``_mm``); bandwidths
are decimal gigabytes per second (10^9 B/s), memory capacities are the
vendor's marketed gigabytes unless a field says ``_gib``.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

PartId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9.+-]*$", max_length=80)]
"""Catalog id: lowercase letters, digits, dots, plus signs and dashes."""

NonEmptyStr = Annotated[str, StringConstraints(min_length=1, max_length=2000)]

PriceKind = Literal["msrp", "street", "used", "unknown"]


class Frozen(BaseModel):
    """Base of every core model: immutable, strict about unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)


class Price(Frozen):
    """A dated price with where it came from, or an explicit unknown.

    ``usd`` is ``None`` when no source gives a price; ``source`` then says so
    (for example "no public list price; data-center part sold through OEMs").
    """

    usd: Annotated[float, Field(ge=0.01, lt=10_000_000)] | None
    as_of: date | None = None
    kind: PriceKind = "msrp"
    """``msrp``: launch price from the maker or its press release; ``street``: a named
    retailer's or a dated article's price; ``used``: a dated survey of second-hand listings."""
    source: NonEmptyStr

    @model_validator(mode="after")
    def _dated_when_known(self) -> Price:
        if self.usd is not None and self.as_of is None:
            raise ValueError("a known price needs its date (as_of)")
        if self.usd is None and self.kind != "unknown":
            raise ValueError("a price without usd must have kind 'unknown'")
        return self

    @property
    def known(self) -> bool:
        return self.usd is not None

    def age_days(self, today: date) -> int | None:
        """Days since the price was observed (``None`` when unknown)."""
        return None if self.as_of is None or self.usd is None else (today - self.as_of).days

    def stale(self, today: date) -> bool:
        """Older than ``STALE_AFTER_DAYS``: shown with its age and flagged wherever used."""
        age = self.age_days(today)
        return age is not None and age > STALE_AFTER_DAYS


STALE_AFTER_DAYS = 365
"""A price observed more than a year ago is stale: what buyers pay has moved since."""


def newest(prices: list[Price]) -> Price | None:
    """The most recent known price of ``prices`` (the first of equals), ``None`` if none."""
    known = [p for p in prices if p.usd is not None and p.as_of is not None]
    return max(known, key=lambda p: p.as_of or date.min, default=None)
