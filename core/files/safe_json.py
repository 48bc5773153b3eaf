"""Parse untrusted JSON with limits on size and nesting, and messages that say where.

``json.loads`` executes nothing, but a hostile file can still be huge, nested
deeply enough to exhaust the stack, or hold NaN/Infinity that the standard
parser accepts. This module rejects all three with a ``FileFormatError``.
"""

from __future__ import annotations

import json
from typing import Any

from core.errors import FileFormatError

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest file RigForge opens (a comparison of many builds is well under 1 MB)."""
MAX_DEPTH = 64


def _reject_constant(name: str) -> Any:
    raise FileFormatError(f"the file contains {name}, which is not a number JSON allows")


def _check_depth(text: str) -> None:
    """Reject nesting deeper than ``MAX_DEPTH`` before parsing (no recursion)."""
    depth = 0
    in_string = False
    escaped = False
    line = 1
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise FileFormatError(
                    f"the file is nested more than {MAX_DEPTH} levels deep (line {line})"
                )
        elif char in "]}":
            depth -= 1
        elif char == "\n":
            line += 1


def parse_json_bytes(data: bytes, *, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """Decode and parse ``data``; raise ``FileFormatError`` naming what is wrong."""
    if len(data) > max_bytes:
        raise FileFormatError(
            f"the file is {len(data) / 1e6:.1f} MB; RigForge opens files up to "
            f"{max_bytes / 1e6:.0f} MB"
        )
    if b"\x00" in data[:4096]:
        raise FileFormatError("the file is binary, not a RigForge JSON file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileFormatError(
            f"the file is not UTF-8 text (byte {error.start} cannot be decoded)"
        ) from None
    _check_depth(text)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise FileFormatError(
            f"not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise FileFormatError(f"the file is nested more than {MAX_DEPTH} levels deep") from None
