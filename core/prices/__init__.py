"""Prices: the feed format, "update prices" over HTTP, manual overrides, currency."""

from core.models.cost import CurrencyTable
from core.prices.apply import apply_prices
from core.prices.currency import convert, load_currency_table, to_usd
from core.prices.feed import parse_feed, validate_feed
from core.prices.models import FeedReport, PartPrice, Rejection, UpdateResult
from core.prices.store import load_priced_catalog
from core.prices.update import cached_prices, update_prices

__all__ = [
    "CurrencyTable",
    "FeedReport",
    "PartPrice",
    "Rejection",
    "UpdateResult",
    "apply_prices",
    "cached_prices",
    "convert",
    "load_currency_table",
    "load_priced_catalog",
    "parse_feed",
    "to_usd",
    "update_prices",
    "validate_feed",
]
