"""Argument types for the command line: each refuses what the models would refuse, in words.

argparse turns the ``ValueError`` a type raises into ``rigforge: error: argument --x:
invalid ... value`` and exit status 2, so ``nan``, ``-5`` or ``2025-13-01`` never reach
the models as tracebacks. ``argparse.ArgumentTypeError`` carries the reason.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from datetime import date

MAX_PRICE = 10_000_000.0
MIN_PRICE = 0.01


def number(low: float, high: float, *, low_open: bool = False) -> Callable[[str], float]:
    """A finite float in ``[low, high]`` (``(low, high]`` with ``low_open``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if value < low or (low_open and value == low) or value > high:
            side = "above" if low_open else "at least"
            raise argparse.ArgumentTypeError(
                f"{text} must be {side} {_shown(low)} and at most {_shown(high)}"
            )
        return value

    parse.__name__ = "number"
    return parse


def _shown(value: float) -> str:
    """A limit as people write it: 100,000,000 rather than 1e+08."""
    return f"{int(value):,}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number in ``[low, high]``."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if text.strip().lstrip("+-").isdigit() else None
        except ValueError:
            value = None
        if value is None or len(text) > 12:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} must be between {low} and {high}")
        return value

    parse.__name__ = "whole number"
    return parse


def past_date(text: str) -> date:
    """An ISO date (YYYY-MM-DD) that is not in the future."""
    try:
        value = date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None
    if value > date.today():
        raise argparse.ArgumentTypeError(f"{text} is in the future")
    return value


price = number(MIN_PRICE, MAX_PRICE)
seconds = number(0.0, 600.0, low_open=True)
