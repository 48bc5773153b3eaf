"""Untrusted JSON: every bad input gives a FileFormatError that says what is wrong."""

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import FileFormatError
from core.files.safe_json import MAX_DEPTH, parse_json_bytes


def test_valid_document_parses() -> None:
    assert parse_json_bytes(b'{"a": [1, 2.5, "x"]}') == {"a": [1, 2.5, "x"]}


def test_syntax_error_names_line_and_column() -> None:
    with pytest.raises(FileFormatError, match="line 3, column 1"):
        parse_json_bytes(b'{\n "a": 1,\n}')


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity"])
def test_non_finite_numbers_rejected(constant: bytes) -> None:
    with pytest.raises(FileFormatError, match="not a number JSON allows"):
        parse_json_bytes(b'{"x": ' + constant + b"}")


def test_too_large_rejected_before_parsing() -> None:
    with pytest.raises(FileFormatError, match=r"the file is 200 bytes; .* up to 100 bytes"):
        parse_json_bytes(b" " * 200, max_bytes=100)


def test_size_messages_name_the_limit_in_its_own_unit() -> None:
    """The 5 MiB file limit read "5 MB" beside a file size in MB (1e6 bytes)."""
    data = b" " * (6 * 2**20)
    with pytest.raises(FileFormatError) as raised:
        parse_json_bytes(data, max_bytes=5 * 2**20)
    assert str(raised.value) == "the file is 6.0 MiB; RigForge opens files up to 5 MiB"
    with pytest.raises(FileFormatError) as raised:
        parse_json_bytes(b" " * (5 * 2**20 + 1), max_bytes=5 * 2**20)
    assert str(raised.value) == "the file is 5.1 MiB; RigForge opens files up to 5 MiB"
    with pytest.raises(FileFormatError) as raised:
        parse_json_bytes(b" " * 70_000, max_bytes=64 * 1024)
    assert str(raised.value) == "the file is 69 KiB; RigForge opens files up to 64 KiB"


def test_deep_nesting_rejected() -> None:
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    with pytest.raises(FileFormatError, match="nested"):
        parse_json_bytes(deep)
    fine = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    assert isinstance(parse_json_bytes(fine), list)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"s": "[" * 500}).encode()
    assert parse_json_bytes(text) == {"s": "[" * 500}


def test_binary_and_bad_encoding_rejected() -> None:
    with pytest.raises(FileFormatError, match="binary"):
        parse_json_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(FileFormatError, match="UTF-8"):
        parse_json_bytes(b'{"a": "\xff\xfe"}')


@given(st.binary(max_size=300))
def test_arbitrary_bytes_parse_or_raise_our_error(data: bytes) -> None:
    with contextlib.suppress(FileFormatError):
        parse_json_bytes(data)


def test_lone_surrogates_are_refused_where_they_are() -> None:
    """ "\\ud800" is valid JSON but no character: a file holding it could never be saved
    back (UTF-8 cannot encode it), so it is refused on reading, naming the field."""
    with pytest.raises(FileFormatError, match=r"builds\[0\]\.name: .*surrogate"):
        parse_json_bytes(b'{"builds": [{"name": "\\ud800"}]}')
    with pytest.raises(FileFormatError, match="surrogate"):
        parse_json_bytes(b'{"\\udfff": 1}')
    assert parse_json_bytes(b'{"name": "\\ud83d\\ude00"}') == {"name": "\N{GRINNING FACE}"}


def test_very_long_lists_are_refused_before_anything_validates_them() -> None:
    from core.files.safe_json import MAX_LIST_ITEMS

    ok = b'{"a": [' + b",".join([b"1"] * MAX_LIST_ITEMS) + b"]}"
    assert len(parse_json_bytes(ok)["a"]) == MAX_LIST_ITEMS
    long = b'{"a": [' + b",".join([b"1"] * (MAX_LIST_ITEMS + 1)) + b"]}"
    with pytest.raises(FileFormatError, match="a: a list of 100,001 entries"):
        parse_json_bytes(long)


def test_a_file_of_a_million_empty_builds_is_refused_at_once() -> None:
    """1.7 million "{}" builds fit in 5 MB; validating each took gigabytes. The build
    count is checked first (a file holds at most 64)."""
    from core.catalog import load_catalog
    from core.files.io import parse_document

    data = b'{"format": "rigforge", "version": 4, "builds": [' + b",".join([b"{}"] * 90_000)
    with pytest.raises(FileFormatError, match="90,000 builds; a file holds at most 64"):
        parse_document(data + b"]}", load_catalog())
