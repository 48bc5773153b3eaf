"""Board form factors under their several spellings.

Makers write the same standard several ways: "SSI-EEB" and "EEB" (Server System
Infrastructure EEB 3.61: 12 × 13 in), "SSI CEB" and "CEB" (12 × 10.5 in), "Micro ATX"
and "mATX", "E-ATX" and "EATX". A board fits a case when both name the same standard.
"""

from __future__ import annotations

from functools import cache

from core.catalog.catalog import normalise_name

ALIASES = {
    "ssieeb": "eeb",
    "ssiceb": "ceb",
    "microatx": "matx",
    "uatx": "matx",
    "extendedatx": "eatx",
}


@cache
def canonical(name: str) -> str:
    key = normalise_name(name)
    return ALIASES.get(key, key)


def board_fits(board_form_factor: str, case_form_factors: tuple[str, ...]) -> bool:
    return canonical(board_form_factor) in {canonical(f) for f in case_form_factors}
