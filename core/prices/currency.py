"""Currency conversion with the bundled, dated table (ECB reference rates)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from core.errors import RigForgeError
from core.models.cost import CurrencyTable


@cache
def load_currency_table() -> CurrencyTable:
    """The bundled table (resources/prices/currency.json), validated once."""
    text = resources.files("resources").joinpath("prices/currency.json").read_text("utf-8")
    return CurrencyTable.model_validate(json.loads(text))


def convert(amount: float, source: str, target: str, table: CurrencyTable) -> float:
    """``amount`` in ``source`` currency expressed in ``target`` through the table's base."""
    rates = table.per_base
    for code in (source, target):
        if code not in rates:
            raise RigForgeError(f"no conversion rate for {code}; known: {', '.join(sorted(rates))}")
    return amount / rates[source] * rates[target]


def to_usd(amount: float, currency: str, table: CurrencyTable) -> float:
    return amount if currency == "USD" else convert(amount, currency, "USD", table)
