""" "Update prices": fetch the feed with a conditional request against an on-disk cache.

The cache directory is a parameter (the GUI passes the user cache directory,
tests a temporary one). It holds one file, ``price-feed.json``: the prices in
force, the feed URL and its ``ETag`` / ``Last-Modified`` validators. Nothing
here runs at start-up except ``cached_prices``, which reads that file only.

A failed update (network, HTTP error, timeout, oversized, not JSON, wrong
schema, no valid entry) keeps the previous prices and says why. A partial one
(some entries refused) applies the valid entries and keeps the previous price
of every refused part. Source: RFC 9110 §13.1 (If-None-Match, If-Modified-Since),
§15.4.5 (304 Not Modified).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from core.catalog import Catalog
from core.errors import FetchError, FileFormatError, RigForgeError
from core.files.atomic import atomic_write_text
from core.files.fetch import FetchLimits, fetch
from core.files.safe_read import read_limited
from core.models.common import Frozen
from core.models.cost import CurrencyTable
from core.prices.feed import MAX_FEED_BYTES, parse_feed
from core.prices.models import PartPrice, UpdateResult

CACHE_FILE = "price-feed.json"
DEFAULT_LIMITS = FetchLimits(timeout_s=15.0, max_bytes=MAX_FEED_BYTES, max_redirects=3)


class FeedCache(Frozen):
    version: int = 1
    url: str = ""
    etag: str | None = None
    last_modified: str | None = None
    prices: tuple[PartPrice, ...] = ()


def read_cache(cache_dir: Path) -> FeedCache:
    """The cache in ``cache_dir``; an empty one when missing or unreadable."""
    path = Path(cache_dir) / CACHE_FILE
    try:
        return FeedCache.model_validate_json(read_limited(path, 4 * MAX_FEED_BYTES))
    except (RigForgeError, ValidationError, ValueError):
        return FeedCache()


def cached_prices(cache_dir: Path) -> tuple[PartPrice, ...]:
    """The feed prices in force (no network)."""
    return read_cache(cache_dir).prices


def update_prices(
    url: str,
    cache_dir: Path,
    catalog: Catalog,
    currencies: CurrencyTable,
    *,
    limits: FetchLimits = DEFAULT_LIMITS,
    progress: Callable[[int, int | None], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> UpdateResult:
    """Fetch ``url`` (conditionally), validate it and store the prices in force."""
    cache_dir = Path(cache_dir)
    previous = read_cache(cache_dir)
    headers: dict[str, str] = {}
    if previous.url == url and previous.prices:
        if previous.etag:
            headers["If-None-Match"] = previous.etag
        if previous.last_modified:
            headers["If-Modified-Since"] = previous.last_modified
    try:
        response = fetch(
            url, limits=limits, headers=headers, progress=progress, cancelled=cancelled
        )
    except FetchError as error:
        return UpdateResult(status="failed", prices=previous.prices, error=str(error), url=url)
    if response.not_modified:
        return UpdateResult(status="not_modified", prices=previous.prices, url=url)
    try:
        report = parse_feed(response.body, catalog, currencies)
    except FileFormatError as error:
        return UpdateResult(status="failed", prices=previous.prices, error=str(error), url=url)
    if not report.accepted:
        return UpdateResult(
            status="failed",
            prices=previous.prices,
            report=report,
            error="no valid price in the feed",
            url=url,
        )
    # A part the new feed omits or states wrongly keeps its previous feed price: a shorter
    # or partly broken feed never makes known prices unknown again.
    fresh = {p.part_id for p in report.accepted}
    kept = tuple(p for p in previous.prices if p.part_id not in fresh and p.part_id in catalog)
    prices = (*report.accepted, *kept)
    header = {k.lower(): v for k, v in response.headers.items()}
    cache = FeedCache(
        url=url, etag=header.get("etag"), last_modified=header.get("last-modified"), prices=prices
    )
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(cache_dir / CACHE_FILE, cache.model_dump_json(indent=1))
    except (OSError, RigForgeError) as error:
        return UpdateResult(
            status="failed",
            prices=previous.prices,
            report=report,
            error=f"cannot write the price cache: {error}",
            url=url,
        )
    status = "partial" if report.rejected else "updated"
    return UpdateResult(status=status, prices=prices, report=report, url=url)


__all__ = ["CACHE_FILE", "FeedCache", "cached_prices", "read_cache", "update_prices"]
