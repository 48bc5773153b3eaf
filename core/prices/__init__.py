"""Prices: the feed format, "update prices" over HTTP, manual overrides, currency."""

from core.prices.apply import PricedCatalog, apply_prices
from core.prices.currency import convert, load_currency_table, to_usd
from core.prices.feed import parse_feed, validate_feed
from core.prices.models import CurrencyTable, FeedReport, PartPrice, Rejection, UpdateResult
from core.prices.update import cached_prices, update_prices

__all__ = [
    "CurrencyTable",
    "FeedReport",
    "PartPrice",
    "PricedCatalog",
    "Rejection",
    "UpdateResult",
    "apply_prices",
    "cached_prices",
    "convert",
    "load_currency_table",
    "parse_feed",
    "to_usd",
    "update_prices",
    "validate_feed",
]
