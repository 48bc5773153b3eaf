"""Parse untrusted JSON with limits on size and nesting, and messages that say where.

``json.loads`` executes nothing, but a hostile file can still be huge, nested deeply
enough to exhaust the stack, hold NaN/Infinity or integers of thousands of digits that
the standard parser accepts or chokes on, or repeat a key (the last one silently wins).
This module refuses all of them with a ``FileFormatError`` naming the problem, and reads
UTF-8 (with or without a byte-order mark), UTF-16/32 text that starts with one and
UTF-16 text of mostly ASCII characters without one.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from typing import Any

from core.errors import FileFormatError
from core.files.safe_read import limit_text, size_text

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest file RigForge opens (a comparison of many builds is well under 1 MB)."""
MAX_DEPTH = 64
MAX_LIST_ITEMS = 100_000
"""Longest list accepted (a comparison holds at most 64 builds)."""
MAX_NUMBER_CHARS = 40
"""Longest number literal accepted: an exact integer of 40 digits is far beyond any value
a build needs, and Python refuses to convert integers over 4,300 digits anyway."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _reject_constant(name: str) -> Any:
    raise FileFormatError(f"the file contains {name}, which is not a number JSON allows")


def _not_finite(_name: str) -> float:
    return math.nan


def _number(kind: type[int] | type[float], *, lenient: bool = False) -> Any:
    def parse(text: str) -> int | float:
        if len(text) > MAX_NUMBER_CHARS and lenient:
            # as a float (linear time, where int() of thousands of digits is not): a long
            # but ordinary price stays itself, a huge one becomes infinity; the entry's
            # own check refuses either by name
            return float(text)
        if len(text) > MAX_NUMBER_CHARS:
            raise FileFormatError(
                f"the file contains a number of {len(text):,} characters; "
                f"RigForge reads numbers of up to {MAX_NUMBER_CHARS}"
            )
        return kind(text)

    return parse


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 60 else key[:60] + "…"
            raise FileFormatError(f"the key {shown!r} appears twice in one object")
        result[key] = value
    return result


def _utf16_without_bom(data: bytes) -> str | None:
    """``"utf-16-le"`` or ``"utf-16-be"`` when ``data`` reads as UTF-16 text of mostly
    ASCII characters without a byte-order mark (every other byte zero, as RFC 8259 §3 of
    2014 detects JSON's encoding), else ``None``."""
    head = data[:4096]
    if len(head) < 2 or len(data) % 2:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) >= 0.9 * len(odd) and even.count(0) == 0:
        return "utf-16-le"
    if even.count(0) >= 0.9 * len(even) and odd.count(0) == 0:
        return "utf-16-be"
    return None


def decode_text(data: bytes) -> str:
    """Text of ``data``: UTF-8, or UTF-16/32 when a byte-order mark says so, or UTF-16
    without one when every other byte is zero (mostly ASCII text)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError as error:
                raise FileFormatError(
                    f"the file says it is {codec.upper()} but byte {error.start} is not"
                ) from None
    if b"\x00" in data[:4096]:
        wide = _utf16_without_bom(data)
        if wide is None:
            raise FileFormatError("the file is binary, not text")
        try:
            return data.decode(wide)
        except UnicodeDecodeError as error:
            raise FileFormatError(
                f"the file looks like {wide.upper()} text without a byte-order mark, but "
                f"byte {error.start} is not {wide.upper()}"
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileFormatError(
            f"the file is not UTF-8 text (byte {error.start} cannot be decoded)"
        ) from None


def parse_json_bytes(
    data: bytes, *, max_bytes: int = MAX_FILE_BYTES, lenient_numbers: bool = False
) -> Any:
    """Decode and parse ``data``; raise ``FileFormatError`` naming what is wrong.

    ``lenient_numbers``: NaN, Infinity and number literals over ``MAX_NUMBER_CHARS`` are
    read as NaN or infinity instead of refusing the whole file, for documents whose
    entries are checked one by one (a price feed rejects such an entry, not the feed).
    """
    if len(data) > max_bytes:
        raise FileFormatError(
            f"the file is {size_text(len(data))}; RigForge opens files up to "
            f"{limit_text(max_bytes)}"
        )
    text = decode_text(data)
    if not text.strip():
        raise FileFormatError("the file is empty")
    try:
        value = json.loads(
            text,
            parse_constant=_not_finite if lenient_numbers else _reject_constant,
            parse_int=_number(int, lenient=lenient_numbers),
            parse_float=_number(float, lenient=lenient_numbers),
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as error:
        raise FileFormatError(
            f"not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise FileFormatError(f"the file is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as error:  # e.g. a number Python cannot convert
        raise FileFormatError(f"the file holds a value RigForge cannot read: {error}") from None
    _check_values(value, text)
    return value


def _check_values(value: Any, text: str | None = None) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH``, lists longer than ``MAX_LIST_ITEMS``
    (validating millions of entries takes minutes and gigabytes) and text with lone UTF-16
    surrogates (``"\ud800"``: valid JSON, but no file can be written back with it),
    naming where they are. A first pass only looks (at the strings only when ``text`` has
    an escape that could make a surrogate); where it finds a problem, a second one works
    out its place. (Nesting deeper than Python's recursion limit has already been refused
    by the parser.)"""
    strings = text is None or _SURROGATE_ESCAPE.search(text) is not None
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _has_surrogate(item):
                break
        elif isinstance(item, list):
            if len(item) > MAX_LIST_ITEMS or depth >= MAX_DEPTH:
                break
            kinds = (list, dict, str) if strings else (list, dict)
            stack.extend((v, depth + 1) for v in item if isinstance(v, kinds))
        elif isinstance(item, dict):
            if depth >= MAX_DEPTH or (
                strings and any(not k.isascii() and _has_surrogate(k) for k in item)
            ):
                break
            kinds = (list, dict, str) if strings else (list, dict)
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, kinds))
    else:
        return
    _name_the_problem(value)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A ``\ud800``-``\udfff`` escape: the only way a lone surrogate reaches the parsed text
(UTF-8 and UTF-16 decoding refuse a raw one)."""


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _name_the_problem(value: Any) -> None:
    stack: list[tuple[str, Any, int]] = [("", value, 0)]
    while stack:
        where, item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, where)
            continue
        if isinstance(item, list | dict) and depth >= MAX_DEPTH:
            raise FileFormatError(
                f"the file is nested more than {MAX_DEPTH} levels deep (at {_shown(where)})"
            )
        if isinstance(item, list):
            if len(item) > MAX_LIST_ITEMS:
                raise FileFormatError(
                    f"{where or 'the file'}: a list of {len(item):,} entries; RigForge reads "
                    f"lists of up to {MAX_LIST_ITEMS:,}"
                )
            stack.extend((f"{where}[{i}]", v, depth + 1) for i, v in enumerate(item))
        elif isinstance(item, dict):
            for key, v in item.items():
                _check_text(key, where or "a key")
                stack.append((f"{where}.{key}" if where else key, v, depth + 1))


def _shown(where: str) -> str:
    return where if len(where) <= 80 else where[:80] + "…"


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = where if len(where) <= 80 else where[:80] + "…"
        raise FileFormatError(
            f"{shown.encode('utf-8', 'backslashreplace').decode('ascii', 'backslashreplace')}: "
            "the text holds a lone UTF-16 surrogate (an escape like \\ud800), which is not "
            "a character"
        ) from None
