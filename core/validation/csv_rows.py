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


def first_line(text: str) -> str:
    """The header line of CSV text, without splitting the whole text into lines."""
    end = min((i for i in (text.find("\n"), text.find("\r")) if i >= 0), default=len(text))
    return text[:end]


def csv_records(text: str) -> tuple[list[str], Iterator[tuple[int, list[str]]]]:
    """The header and ``(line number, cells)`` pairs, every row padded to the header's
    width; a cell over ``MAX_FIELD_CHARS`` or text that is not CSV raises
    ``FileFormatError`` naming the line."""
    csv.field_size_limit(MAX_FIELD_CHARS)  # the csv module refuses a longer cell itself
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, [])
    except csv.Error as error:
        raise FileFormatError(f"CSV line 1: {_csv_problem(error)}") from None
    width = len(header)

    def records() -> Iterator[tuple[int, list[str]]]:
        number = 1
        try:
            for number, cells in enumerate(reader, start=2):
                if len(cells) < width:
                    cells += [""] * (width - len(cells))
                yield number, cells
        except csv.Error as error:
            raise FileFormatError(f"CSV line {number + 1}: {_csv_problem(error)}") from None

    return header, records()


def csv_rows(text: str) -> tuple[list[str], Iterator[tuple[int, dict[str, str]]]]:
    """The header and ``(line number, row)`` pairs; a short row's missing cells are empty
    strings (never ``None``); errors as ``csv_records``."""
    header, records = csv_records(text)
    named = [(i, name) for i, name in enumerate(header) if name]
    return [name for _i, name in named], (
        (number, {name: cells[i] for i, name in named}) for number, cells in records
    )


def _csv_problem(error: csv.Error) -> str:
    if "field larger than field limit" in str(error):
        return f"a cell of more than {MAX_FIELD_CHARS:,} characters"
    return str(error)


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


MIN_MEASURED = 1e-6
MAX_MEASURED = 1e12
"""A published measurement (images, tokens or samples per second, GiB) lies in this range;
outside it a figure is a typo or a hostile file (5e-324 would make every ratio infinite)."""
MAX_ROW_BATCH = 1_000_000
"""Largest batch a row may name: the workload editor's own limit."""


def measurement(text: str, column: str) -> float:
    """A measured value from a cell: a finite number from ``MIN_MEASURED`` to
    ``MAX_MEASURED`` (``ValueError`` naming the column otherwise)."""
    value = finite(text)
    cell = text.strip()
    shown = repr(cell) if len(cell) <= 40 else repr(cell[:40]) + "…"
    if value <= 0:
        raise ValueError(f"{column} {shown} is not positive")
    if value < MIN_MEASURED:
        raise ValueError(f"{column} {shown} is too small to be a measurement (below 0.000001)")
    if value > MAX_MEASURED:
        raise ValueError(f"{column} {shown} is too large to be a measurement (above 10^12)")
    return value


def bounded_whole(text: str, column: str, low: int, high: int, *, fractions: bool = False) -> int:
    """A whole number from ``low`` to ``high`` in a cell ("32" or "32.0"; with
    ``fractions`` also "22.75", read as 22: per-GPU batches derived from a global batch);
    ``ValueError`` naming the column otherwise, without parsing a long number."""
    cell = text.strip()
    shown = repr(cell) if len(cell) <= 40 else repr(cell[:40]) + f"… ({len(cell):,} characters)"
    kind = "number" if fractions else "whole number"
    problem = ValueError(f"{column} {shown} is not a {kind} from {low:,} to {high:,}")
    if len(cell) > 24:
        raise problem
    try:
        value = finite(cell)
    except ValueError:
        raise problem from None
    if not ((fractions or value.is_integer()) and low <= value <= high):
        raise problem
    return int(value)


def stated_whole(digits: str, what: str, high: int) -> int:
    """A number a row's notes state (``digits`` as a regular expression matched them), from
    1 to ``high``; ``ValueError`` in words otherwise (never a 5,000-digit ``int``)."""
    if len(digits) > 15 or not 1 <= int(digits) <= high:
        shown = digits if len(digits) <= 20 else f"{digits[:20]}… ({len(digits):,} digits)"
        raise ValueError(f"the notes state {what} {shown}, not a whole number from 1 to {high:,}")
    return int(digits)


def whole(text: str, column: str) -> int:
    """A cell holding a whole number (``ValueError`` naming the column otherwise; a cell
    of more than 18 digits is refused before Python parses it)."""
    cell = text.strip()
    digits = cell.lstrip("+-")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 18:
        shown = repr(cell) if len(cell) <= 40 else repr(cell[:40]) + "…"
        raise ValueError(f"{column} {shown} is not a whole number")
    return int(cell)
