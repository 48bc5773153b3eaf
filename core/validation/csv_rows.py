"""CSV rows of an untrusted file, with a message naming the line when the text is not CSV."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator

from core.errors import FileFormatError

MAX_FIELD_CHARS = 100_000
"""Longest cell read (the csv module's own limit is 131,072; a longer cell is refused)."""
MAX_ROW_GPUS = 16_384
"""Most GPUs a published row may name: the largest training clusters published run
16,384 GPUs (Meta, "The Llama 3 Herd of Models", 2024, sec. 3.3); a larger count is a
typo or a hostile file, and predicting it would take time in proportion."""


def csv_rows(text: str) -> tuple[list[str], Iterator[tuple[int, dict[str, str]]]]:
    """The header and ``(line number, row)`` pairs; a short row's missing cells are empty
    strings (never ``None``); a cell over ``MAX_FIELD_CHARS`` or text that is not CSV
    raises ``FileFormatError`` naming the line."""
    reader = csv.DictReader(io.StringIO(text), restval="")
    try:
        header = list(reader.fieldnames or [])
    except csv.Error as error:
        raise FileFormatError(f"CSV line 1: {error}") from None

    def rows() -> Iterator[tuple[int, dict[str, str]]]:
        number = 1
        try:
            for number, raw in enumerate(reader, start=2):
                row = {k: v if isinstance(v, str) else "" for k, v in raw.items() if k}
                if any(len(v) > MAX_FIELD_CHARS for v in row.values()):
                    raise FileFormatError(
                        f"CSV line {number}: a cell of more than {MAX_FIELD_CHARS:,} characters"
                    )
                yield number, row
        except csv.Error as error:
            if "field larger than field limit" in str(error):
                raise FileFormatError(
                    f"CSV line {number + 1}: a cell of more than {MAX_FIELD_CHARS:,} characters"
                ) from None
            raise FileFormatError(f"CSV line {number + 1}: {error}") from None

    return header, rows()


def finite(text: str) -> float:
    """A finite number from a cell (``ValueError`` for text, infinity or NaN)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        shown = repr(str(text).strip())
        shown = shown if len(shown) <= 40 else shown[:40] + "…"
        raise ValueError(f"{shown} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{text.strip()!r} is not a finite number")
    return value


def gpu_count(text: str | None) -> int:
    """A row's GPU count, a whole number from 1 to ``MAX_ROW_GPUS`` (``ValueError`` naming
    the cell otherwise)."""
    cell = (text or "").strip()
    try:
        value = finite(cell)
    except ValueError:
        value = 0.0
    if not (value.is_integer() and 1 <= value <= MAX_ROW_GPUS):
        raise ValueError(f"gpu_count {cell!r} is not a whole number from 1 to {MAX_ROW_GPUS:,}")
    return int(value)


def whole(text: str, column: str) -> int:
    """A cell holding a whole number (``ValueError`` naming the column otherwise; a cell
    of more than 18 digits is refused before Python parses it)."""
    cell = text.strip()
    digits = cell.lstrip("+-")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 18:
        shown = repr(cell) if len(cell) <= 40 else repr(cell[:40]) + "…"
        raise ValueError(f"{column} {shown} is not a whole number")
    return int(cell)
