"""Property-based fuzzing of the file loader and the price-feed parser.

Arbitrary JSON, valid files with one value replaced (numeric extremes included) and
valid feeds mutated the same way: only the project's own errors may escape, and every
document that is accepted analyses, saves and re-opens identically. The example counts
are a bounded profile so the suite stays quick; raise ``RIGFORGE_FUZZ_EXAMPLES`` to
search longer.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.calc import analyze
from core.catalog import load_catalog
from core.errors import FileFormatError, RigForgeError
from core.files.document import CURRENT_VERSION
from core.files.io import dumps, parse_document, to_document
from core.prices import load_currency_table
from core.prices.feed import MAX_USD, parse_feed
from core.prices.models import MIN_PRICE
from gui.viewmodels.session import default_workload
from tests.hostile.corpus import FEED_VALID, VALID

CATALOG = load_catalog()
CURRENCIES = load_currency_table()
EXAMPLES = int(os.environ.get("RIGFORGE_FUZZ_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

EXTREMES = st.sampled_from(
    [
        0,
        -1,
        1,
        2,
        7,
        0.5,
        1e-300,
        5e-324,
        -5e-324,
        1e308,
        1.7e308,
        -1.7e308,
        2**31 - 1,
        2**63,
        10**30,
        10**400,
        "",
        "x" * 300,
        "<b>x</b>",
        None,
        True,
        [],
        {},
    ]
)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | EXTREMES
)
JSON = st.recursive(
    LEAVES,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=24,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (leaves and containers)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


DOCUMENT_PATHS = _paths(VALID)
FEED_PATHS = _paths(FEED_VALID)


def _replace(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    changed = copy.deepcopy(document)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


def _encode(document: Any) -> bytes:
    return json.dumps(document, allow_nan=False).encode()


def _accepted_round_trips(data: bytes) -> None:
    try:
        opened = parse_document(data, CATALOG)
    except RigForgeError:
        return
    session = opened.session
    workload = session.workload or default_workload()
    for build in session.builds:
        try:
            analysis = analyze(build, workload, session.settings, CATALOG)
        except RigForgeError:
            continue  # refused in words (AnalysisFailed): allowed
        assert analysis.checks
    again = parse_document(dumps(to_document(session)).encode(), CATALOG).session
    assert again == session


@FUZZ
@given(JSON)
def test_arbitrary_json_loads_or_is_refused(document: Any) -> None:
    _accepted_round_trips(_encode(document))


@FUZZ
@given(st.dictionaries(st.sampled_from(sorted(VALID)), JSON, max_size=8))
def test_documents_with_the_right_header_load_or_are_refused(fields: dict[str, Any]) -> None:
    _accepted_round_trips(_encode({**fields, "format": "rigforge", "version": CURRENT_VERSION}))


@FUZZ
@given(st.sampled_from(DOCUMENT_PATHS), JSON)
def test_a_valid_file_with_one_value_replaced(path: tuple[Any, ...], value: Any) -> None:
    _accepted_round_trips(_encode(_replace(VALID, path, value)))


@FUZZ
@given(st.sampled_from(DOCUMENT_PATHS), EXTREMES)
def test_numeric_extremes_anywhere(path: tuple[Any, ...], value: Any) -> None:
    _accepted_round_trips(_encode(_replace(VALID, path, value)))


def _feed_accepts_only_valid_prices(data: bytes) -> None:
    try:
        report = parse_feed(data, CATALOG, CURRENCIES)
    except FileFormatError:
        return
    for price in report.accepted:
        assert price.part_id in CATALOG
        assert MIN_PRICE <= price.usd < MAX_USD


@FUZZ
@given(JSON)
def test_arbitrary_feed_json(document: Any) -> None:
    _feed_accepts_only_valid_prices(_encode(document))


@FUZZ
@given(st.sampled_from(FEED_PATHS), JSON)
def test_a_valid_feed_with_one_value_replaced(path: tuple[Any, ...], value: Any) -> None:
    _feed_accepts_only_valid_prices(_encode(_replace(FEED_VALID, path, value)))


@FUZZ
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes) -> None:
    _accepted_round_trips(data)
    _feed_accepts_only_valid_prices(data)
