"""The one price-aware catalog every entry point uses (window, CLI, PDF, suggest).

The bundled catalog with the cached price-feed prices and the user's overrides applied.
Both live in the user's folders (``$XDG_CACHE_HOME/rigforge`` for the feed cache,
``$XDG_CONFIG_HOME/rigforge/price-overrides.json`` for overrides) unless a caller names
other ones. Nothing here touches the network.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.catalog import Catalog, load_catalog
from core.prices.apply import apply_prices
from core.prices.currency import load_currency_table
from core.prices.models import Rejection
from core.prices.overrides import load_overrides
from core.prices.update import cached_prices


def user_cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "rigforge"


def user_config_dir() -> Path:
    root = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(root) / "rigforge"


def user_overrides_path() -> Path:
    return user_config_dir() / "price-overrides.json"


def load_priced_catalog(
    cache_dir: Path | None = None,
    overrides: Path | None = None,
    rejected: list[Rejection] | None = None,
    notes: list[str] | None = None,
) -> Catalog:
    """The bundled catalog with feed prices, then the user's overrides, applied;
    ``rejected`` (when given) receives each override entry that was ignored, ``notes``
    what else the overrides file's reader set aside."""
    catalog = load_catalog()
    feed = cached_prices(cache_dir or user_cache_dir())
    manual = load_overrides(overrides or user_overrides_path(), catalog, load_currency_table())
    if rejected is not None:
        rejected.extend(manual.rejected)
    if notes is not None:
        notes.extend(manual.notes)
    return apply_prices(catalog, feed, manual.accepted)
