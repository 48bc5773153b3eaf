"""Manual per-part price overrides, kept in a small JSON file in the feed's format.

The file is the price-feed document (docs/prices.md) with ``format``
``rigforge-price-overrides``; it is written atomically.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from core.catalog import Catalog
from core.errors import FileFormatError, LookupFailed, RigForgeError
from core.files.atomic import atomic_write_text
from core.files.safe_json import parse_json_bytes
from core.files.safe_read import read_limited
from core.models.cost import CurrencyTable
from core.prices.feed import MAX_FEED_BYTES, check_version, validate_feed
from core.prices.models import FEED_FORMAT, FEED_VERSION, FeedEntry, FeedReport

OVERRIDES_FORMAT = "rigforge-price-overrides"


def load_overrides(path: Path, catalog: Catalog, currencies: CurrencyTable) -> FeedReport:
    """The overrides in ``path`` (empty when the file does not exist), entry by entry."""
    if not path.exists():
        return FeedReport(accepted=(), rejected=())
    document = _overrides_document(path)
    report = validate_feed(
        document | {"format": FEED_FORMAT},
        catalog,
        currencies,
        what=f"the price overrides file {str(path)!r}",
        overrides=True,
    )
    accepted = tuple(p.model_copy(update={"origin": "override"}) for p in report.accepted)
    return report.model_copy(update={"accepted": accepted})


def _parse(path: Path) -> object:
    """The overrides file's JSON; a damaged one is named as the user's price overrides
    (not mistaken for the build file the command was given)."""
    try:
        return parse_json_bytes(read_limited(path, MAX_FEED_BYTES), max_bytes=MAX_FEED_BYTES)
    except FileFormatError as error:
        raise FileFormatError(
            f"the price overrides file {str(path)!r} is damaged ({error}); fix or delete it"
        ) from None


def _overrides_document(path: Path, *, writing: bool = False) -> dict[str, object]:
    """The file's JSON object, when it is a price-overrides file of the version this
    RigForge writes; anything else is refused, so that no other file (a build, a newer
    overrides file) is ever rewritten as one."""
    kept = "; it was left as it is" if writing else ""
    document = _parse(path)
    if not isinstance(document, dict) or document.get("format") != OVERRIDES_FORMAT:
        raise FileFormatError(f"{path.name}: not a RigForge price-overrides file{kept}")
    check_version(document.get("version"), f"{path.name}: price-overrides", kept)
    return document


def _read_raw(path: Path) -> dict[str, object]:
    """The file's entries as they are; a file whose entries cannot be read is refused (and
    left byte for byte as it is), never rewritten without them."""
    if not path.exists():
        return {}
    prices = _overrides_document(path, writing=True).get("prices", {})
    if not isinstance(prices, dict):
        raise FileFormatError(
            f"{path.name}: its 'prices' is not an object (part id → price); it was left as it is"
        )
    return dict(prices)


def set_override(
    path: Path,
    catalog: Catalog,
    part_id: str,
    entry: FeedEntry,
    currencies: CurrencyTable | None = None,
) -> None:
    """Add or replace the override for ``part_id`` (which must be a catalog id).

    The entry is checked exactly as reading the file back will check it, so nothing
    that a later ``prices show`` would refuse is ever written.
    """
    if part_id not in catalog:
        raise LookupFailed(f"no part with id {part_id!r} in the catalog")
    record = entry.model_dump(mode="json")
    if currencies is not None:
        probe = {"format": FEED_FORMAT, "version": FEED_VERSION, "prices": {part_id: record}}
        report = validate_feed(probe, catalog, currencies)
        if report.rejected:
            problem = report.rejected[0]
            raise RigForgeError(f"price not set for {part_id}: {problem.detail or problem.code}")
    prices = _read_raw(path)
    prices[part_id] = record
    _write(path, prices)


def remove_override(path: Path, part_id: str) -> bool:
    """Remove ``part_id``'s override; ``False`` when it had none."""
    prices = _read_raw(path)
    if prices.pop(part_id, None) is None:
        return False
    _write(path, prices)
    return True


def _write(path: Path, prices: dict[str, object]) -> None:
    document = {
        "format": OVERRIDES_FORMAT,
        "version": FEED_VERSION,
        "published": date.today().isoformat(),
        "prices": dict(sorted(prices.items())),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RigForgeError(
            f"cannot make the folder for the price overrides {str(path.parent)!r}: "
            f"{error.strerror or error}"
        ) from None
    atomic_write_text(path, json.dumps(document, indent=1) + "\n")
