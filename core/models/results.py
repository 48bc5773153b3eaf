"""Frozen results of the calculations."""

from __future__ import annotations

from core.models.common import Frozen


class PartsCost(Frozen):
    total_usd: float
    """Sum over parts with a known price."""
    unpriced_part_ids: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.unpriced_part_ids
