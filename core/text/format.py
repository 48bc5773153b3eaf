"""Number formatting and template filling shared by every text renderer."""

from __future__ import annotations

from collections.abc import Mapping

from core.models.checks import Number


def fmt_number(value: Number) -> str:
    """Integers with thousands separators, other numbers to two decimals, text as is."""
    if isinstance(value, str):
        return value
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


class _Numbers(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def render_template(template: str, numbers: Mapping[str, object]) -> str:
    """``template`` with ``{name}`` filled from ``numbers`` ("?" where one is missing)."""
    shown = {
        k: fmt_number(v) if isinstance(v, int | float | str) and not isinstance(v, bool) else str(v)
        for k, v in numbers.items()
    }
    return template.format_map(_Numbers(shown))


def use_of(used_gib: float, capacity_gib: float) -> str:
    """ "7.0 of 24.0 GiB" with as many decimals (up to three) as it takes for the two to
    read as they compare: 23.97 of 24 GiB fits and must not read "24.0 of 24.0"."""
    for places in (1, 2, 3):
        used, capacity = round(used_gib, places), round(capacity_gib, places)
        if (used < capacity) == (used_gib < capacity_gib) and (used > capacity) == (
            used_gib > capacity_gib
        ):
            break
    return f"{used_gib:.{places}f} of {capacity_gib:.{places}f} GiB"
