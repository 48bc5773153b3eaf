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
