"""Fetch the price feed in a worker thread, with progress and cancel.

``core.prices.update.update_prices`` does the conditional download (deadline, size,
redirects), validates the feed entry by entry and keeps the previous prices of parts it
omits or states wrongly; this thread only runs it off the GUI thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal

from core.catalog import Catalog
from core.files.fetch import FetchLimits
from core.models.cost import CurrencyTable
from core.prices import update_prices
from core.prices.models import UpdateResult
from gui.workers.base import CancellableWorker


class PriceUpdater(CancellableWorker):
    progress = Signal(int, int)
    """Bytes received and the total (``-1`` when the server did not say)."""
    done = Signal(object)
    """The ``UpdateResult`` (status "failed" with the reason, previous prices kept)."""

    def __init__(
        self,
        url: str,
        cache_dir: Path,
        catalog: Catalog,
        currencies: CurrencyTable,
        limits: FetchLimits | None = None,
    ) -> None:
        super().__init__()
        self.url, self.cache_dir = url, cache_dir
        self.catalog, self.currencies = catalog, currencies
        self.limits = limits

    def run(self) -> None:
        options = {} if self.limits is None else {"limits": self.limits}
        try:
            result = update_prices(
                self.url,
                self.cache_dir,
                self.catalog,
                self.currencies,
                progress=lambda got, total: self.progress.emit(got, -1 if total is None else total),
                cancelled=self._cancel.is_set,
                **options,
            )
        except Exception as error:  # a worker must always report back
            result = UpdateResult(status="failed", prices=(), error=str(error), url=self.url)
        self.done.emit(result)
