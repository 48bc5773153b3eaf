"""Lookup of catalog parts by id or alias, and filtering by category and attributes."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import TypeVar

from core.errors import CatalogError, LookupFailed
from core.models.cost import PriceOrigin
from core.models.parts import (
    CPU,
    GPU,
    PSU,
    Case,
    Category,
    Drive,
    MemoryKit,
    Motherboard,
    Part,
    Riser,
)

P = TypeVar("P", bound=Part)

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def normalise_name(name: str) -> str:
    """Case- and punctuation-insensitive key: "RTX-2080 Ti" -> "rtx2080ti"."""
    return _NON_ALNUM.sub("", name.lower())


_MAKERS = ("nvidia", "geforce", "amd", "radeon", "intel")
"""Brand words a part's name may start with (normalised)."""


class Catalog:
    """An immutable set of validated parts with an id/alias index."""

    def __init__(
        self,
        parts: Iterable[Part],
        *,
        snapshot_date: str | None = None,
        price_origins: Mapping[str, PriceOrigin] | None = None,
    ) -> None:
        self._parts: dict[str, Part] = {}
        self._index: dict[str, str] = {}
        self._by_category: dict[str, tuple[Part, ...]] = {}
        self.snapshot_date = snapshot_date
        self.price_origins: Mapping[str, PriceOrigin] = dict(price_origins or {})
        """Parts whose price comes from the price feed or the user's override (by id)."""
        for part in parts:
            if part.id in self._parts:
                raise CatalogError(f"duplicate catalog id {part.id!r}")
            self._parts[part.id] = part
        for part in self._parts.values():
            for key in {normalise_name(n) for n in (part.id, part.name, *part.aliases)}:
                owner = self._index.setdefault(key, part.id)
                if owner != part.id:
                    raise CatalogError(
                        f"name or alias {key!r} of {part.id!r} is already used by {owner!r}"
                    )
        # "NVIDIA H100 PCIe" also answers to "H100 PCIe": a maker's name in front of a
        # model name tells no two parts apart (where it would, the explicit name wins)
        for key, owner in list(self._index.items()):
            for maker in _MAKERS:
                if key.startswith(maker) and len(key) > len(maker) + 2:
                    self._index.setdefault(key[len(maker) :], owner)

    def __len__(self) -> int:
        return len(self._parts)

    def __contains__(self, part_id: object) -> bool:
        return part_id in self._parts

    def parts_by_id(self) -> dict[str, Part]:
        return dict(self._parts)

    def by_id(self, part_id: str) -> Part | None:
        return self._parts.get(part_id)

    def parts(self, category: Category | None = None) -> tuple[Part, ...]:
        key = category or ""
        if key not in self._by_category:
            self._by_category[key] = tuple(
                p for p in self._parts.values() if category is None or p.category == category
            )
        return self._by_category[key]

    def find(self, name: str, category: Category | None = None) -> Part | None:
        """The part with this id, name or alias (ignoring case and punctuation), or
        ``None``: no close-match search (``get`` names close matches when it fails)."""
        part_id = self._index.get(normalise_name(name))
        part = self._parts.get(part_id) if part_id else None
        return part if part is not None and category in (None, part.category) else None

    def get(self, name: str, category: Category | None = None) -> Part:
        """Find a part by id, name or alias, ignoring case and punctuation.

        Raises ``LookupFailed`` naming close matches when nothing matches.
        """
        part_id = self._index.get(normalise_name(name))
        part = self._parts.get(part_id) if part_id else None
        if part is not None and (category is None or part.category == category):
            return part
        kind = category or "part"
        candidates = {n: p.id for p in self.parts(category) for n in (p.id, p.name, *p.aliases)}
        close = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise LookupFailed(f"no {kind} named {name!r} in the catalog{hint}")

    def _typed(self, name: str, category: Category, cls: type[P]) -> P:
        part = self.get(name, category)
        assert isinstance(part, cls)
        return part

    def gpu(self, name: str) -> GPU:
        return self._typed(name, "gpu", GPU)

    def cpu(self, name: str) -> CPU:
        return self._typed(name, "cpu", CPU)

    def motherboard(self, name: str) -> Motherboard:
        return self._typed(name, "motherboard", Motherboard)

    def memory(self, name: str) -> MemoryKit:
        return self._typed(name, "memory", MemoryKit)

    def drive(self, name: str) -> Drive:
        return self._typed(name, "drive", Drive)

    def psu(self, name: str) -> PSU:
        return self._typed(name, "psu", PSU)

    def case(self, name: str) -> Case:
        return self._typed(name, "case", Case)

    def riser(self, name: str) -> Riser:
        return self._typed(name, "riser", Riser)
