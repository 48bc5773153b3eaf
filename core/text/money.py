"""The one money formatter: USD amounts shown in the user's currency.

Amounts are stored and computed in USD (every catalog price is a dated USD price). Another
currency is converted with the bundled, dated reference-rate table
(``resources/prices/currency.json``, ECB reference rates of the stated day), and every
place that shows converted money can say which rate and day it used (``Money.note``).
"""

from __future__ import annotations

from core.models.cost import CurrencyTable

SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
UNKNOWN = "unknown"


class Money:
    """``money(usd)`` → "€3,608"; ``money(None)`` → "unknown"."""

    def __init__(self, currency: str = "USD", table: CurrencyTable | None = None) -> None:
        if currency != "USD" and (
            table is None or currency not in table.per_base or "USD" not in table.per_base
        ):
            raise ValueError(f"no conversion rate from USD to {currency}")
        self.currency = currency
        self.table = table
        self.per_usd = (
            1.0
            if currency == "USD" or table is None
            else table.per_base[currency] / table.per_base["USD"]
        )
        """Units of ``currency`` per US dollar."""

    def amount(self, usd: float) -> float:
        return usd * self.per_usd

    def __call__(self, usd: float | None, digits: int = 0) -> str:
        if usd is None:
            return UNKNOWN
        value = self.amount(usd)
        symbol = SYMBOLS.get(self.currency)
        text = f"{value:,.{digits}f}"
        return f"{symbol}{text}" if symbol else f"{self.currency} {text}"

    def signed(self, usd: float) -> str:
        """A difference: "+$1,200", "−$80", "$0"."""
        if round(self.amount(usd)) == 0:
            return self(0.0)
        return ("+" if usd > 0 else "−") + self(abs(usd))

    def note(self) -> str:
        """Which rate and day converted the amounts ("" for USD)."""
        if self.currency == "USD" or self.table is None:
            return ""
        publisher = self.table.source.split(" (")[0]
        return (
            f"Amounts converted from USD at {self.per_usd:.4f} {self.currency} per USD "
            f"({publisher}; rates of {self.table.as_of.isoformat()})"
        )


USD = Money()
"""Plain US dollars (the CLI's and the PDF's default)."""
