"""Prices in the window: every part's price, your overrides, and updates from a feed.

Owns the price-aware catalog of the window (the bundled catalog with the cached feed
prices and your overrides, ``core.prices.store``). Setting or removing an override, or a
feed update, reloads it and emits ``catalog_changed``; the composition root hands the new
catalog to the analyses, so every tab, the PDF and Suggest use the new prices at once.
Overrides are the file ``rigforge prices set`` writes, so the CLI sees them too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal

from core.catalog import Catalog, load_catalog
from core.errors import RigForgeError, validation_message
from core.files.fetch import FetchLimits
from core.models.common import Price
from core.models.cost import PriceOrigin
from core.models.parts import Part
from core.prices import load_currency_table
from core.prices.feed import MAX_USD
from core.prices.models import MIN_PRICE, FeedEntry, UpdateResult
from core.prices.overrides import remove_override, set_override
from core.prices.store import (
    load_priced_catalog,
    user_cache_dir,
    user_overrides_path,
)
from core.prices.update import read_cache
from core.text.cost import update_text
from gui.workers.price_updater import PriceUpdater

STALE_DAYS = 365
"""A price older than this is flagged: parts prices move within a year."""


@dataclass(frozen=True)
class PriceRow:
    part: Part
    price: Price
    origin: PriceOrigin
    age_days: int | None
    """Days since the price's date; ``None`` when there is no price."""

    @property
    def stale(self) -> bool:
        return self.age_days is not None and self.age_days > STALE_DAYS


class PricesViewModel(QObject):
    catalog_changed = Signal(object)
    """Emitted with the new priced ``Catalog`` after an override or a feed update."""
    update_running = Signal(bool)
    update_progress = Signal(int, int)
    update_finished = Signal(str)
    """What the update did, in words (several lines)."""
    failed = Signal(str)

    def __init__(
        self,
        cache_dir: Path | None = None,
        overrides_path: Path | None = None,
        *,
        today: date | None = None,
        fixed: Catalog | None = None,
    ) -> None:
        """``fixed``: use this priced catalog as it is until a price is changed here."""
        super().__init__()
        self.cache_dir = cache_dir or user_cache_dir()
        self.overrides_path = overrides_path or user_overrides_path()
        self.bare = load_catalog()
        self.currencies = load_currency_table()
        self.today = today or date.today()
        self.limits: FetchLimits | None = None
        self.load_problem = ""
        """Why the overrides could not be read at start ("" when they could)."""
        self._catalog = fixed if fixed is not None else self._load()
        self._worker: PriceUpdater | None = None

    # -- state -------------------------------------------------------------------

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def feed_url(self) -> str:
        """The feed last downloaded ("" before the first update)."""
        return read_cache(self.cache_dir).url or ""

    def rows(self) -> list[PriceRow]:
        result = []
        for part in self._catalog.parts():
            as_of = part.price.as_of
            age = None if as_of is None or part.price.usd is None else (self.today - as_of).days
            origin = self._catalog.price_origins.get(part.id, "catalog")
            result.append(PriceRow(part, part.price, origin, age))
        return result

    # -- intents -------------------------------------------------------------------

    def set_price(
        self, part_id: str, amount: float, currency: str = "USD", source: str = "your price"
    ) -> str | None:
        """Override one part's price (today's date); a message when it is refused."""
        name = self.part_name(part_id)
        if not math.isfinite(amount) or not MIN_PRICE <= amount < MAX_USD:
            message = (
                f"{name}: a price must be from {MIN_PRICE} to {MAX_USD:,} {currency} "
                f"(you entered {amount:,.6g}); nothing was changed"
            )
            self.failed.emit(message)
            return message
        try:
            entry = FeedEntry(
                price=amount,
                currency=currency,
                as_of=self.today,
                kind="street",
                source=source or "your price",
            )
            set_override(self.overrides_path, self.bare, part_id, entry, self.currencies)
        except ValidationError as error:
            message = f"{name}: {validation_message(error)}; nothing was changed"
            self.failed.emit(message)
            return message
        except (RigForgeError, ValueError) as error:
            message = str(error).splitlines()[0].replace(f"for {part_id}:", f"for {name}:")
            self.failed.emit(message)
            return message
        self._reload()
        return None

    def part_name(self, part_id: str) -> str:
        """The part's name as the window shows it (its id when the catalog lacks it)."""
        try:
            return str(self._catalog.get(part_id).name)
        except RigForgeError:
            return part_id

    def remove_price(self, part_id: str) -> bool:
        """Drop your override of ``part_id``; whether it had one."""
        try:
            removed = remove_override(self.overrides_path, part_id)
        except RigForgeError as error:
            self.failed.emit(str(error))
            return False
        if removed:
            self._reload()
        return removed

    def start_update(self, url: str) -> bool:
        """Fetch the feed at ``url`` in the background; ``False`` when one is running."""
        if self._worker is not None:
            return False
        worker = PriceUpdater(url, self.cache_dir, self.bare, self.currencies, self.limits)
        worker.progress.connect(self._on_worker_progress)
        worker.done.connect(self._on_worker_done)
        worker.finished.connect(self._on_worker_finished)
        self._worker = worker
        self.update_running.emit(True)
        worker.start()
        return True

    def cancel_update(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def shutdown(self) -> None:
        """Stop a running update and wait for its thread (window closing)."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait(5000)

    # -- internals -----------------------------------------------------------------

    def _load(self) -> Catalog:
        try:
            return load_priced_catalog(self.cache_dir, self.overrides_path)
        except RigForgeError as error:  # a damaged overrides file: say so, use the rest
            self.load_problem = f"your price overrides could not be read: {error}"
            self.failed.emit(self.load_problem)
            return load_priced_catalog(self.cache_dir, self.overrides_path.with_suffix(".none"))

    def _reload(self) -> None:
        self._catalog = self._load()
        self.catalog_changed.emit(self._catalog)

    def _on_worker_progress(self, received: int, total: int) -> None:
        self.update_progress.emit(received, total)

    def _on_worker_done(self, result: UpdateResult) -> None:
        if result.status == "failed" and result.error == "cancelled":
            self.update_finished.emit("Update cancelled; the prices in force are kept.")
            return
        if result.status in ("updated", "partial"):
            self._reload()
        self.update_finished.emit("\n".join(update_text(result)))

    def _on_worker_finished(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.deleteLater()
        self.update_running.emit(False)
