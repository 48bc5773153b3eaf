"""Feed validation entry by entry, currency conversion, overrides and applying prices."""

import json
import math
from datetime import date
from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.errors import FileFormatError
from core.prices import apply_prices, convert, load_currency_table, parse_feed
from core.prices.models import FeedEntry
from core.prices.overrides import load_overrides, remove_override, set_override


def _feed(prices: dict[str, object]) -> bytes:
    return json.dumps({"format": "rigforge-price-feed", "version": 1, "prices": prices}).encode()


GOOD = {"price": 1500, "currency": "USD", "as_of": "2025-01-02", "source": "shop"}


def test_entries_rejected_one_by_one_with_summary() -> None:
    data = _feed(
        {
            "rtx-4090": GOOD,
            "no-such-part": GOOD,
            "rtx-3090": GOOD | {"price": -5},
            "ryzen-9-7950x": GOOD | {"source": ""},
            "corsair-rm850x-2021": GOOD | {"currency": "XYZ"},
            "titan-v": {"price": 100, "source": "x"},
        }
    )
    report = parse_feed(data, load_catalog(), load_currency_table())
    assert [p.part_id for p in report.accepted] == ["rtx-4090"]
    codes = {r.part_id: r.code for r in report.rejected}
    assert codes == {
        "no-such-part": "unknown_part",
        "rtx-3090": "invalid_entry",
        "ryzen-9-7950x": "invalid_entry",
        "corsair-rm850x-2021": "unknown_currency",
        "titan-v": "invalid_entry",
    }
    assert report.total == 6


def test_a_boolean_price_or_a_numeric_date_is_not_read_as_one() -> None:
    """JSON's true is not a price of $1, nor 0 a date of 1 January 1970: both entries are
    refused; a feed whose version is true (== 1 in Python) is not version 1."""
    data = _feed(
        {
            "rtx-4090": GOOD,
            "rtx-3090": GOOD | {"price": True},
            "ryzen-9-7950x": GOOD | {"as_of": 0},
        }
    )
    report = parse_feed(data, load_catalog(), load_currency_table())
    assert [p.part_id for p in report.accepted] == ["rtx-4090"]
    assert {r.part_id: r.code for r in report.rejected} == {
        "rtx-3090": "invalid_entry",
        "ryzen-9-7950x": "invalid_entry",
    }
    document = json.loads(data) | {"version": True}
    with pytest.raises(FileFormatError, match="version True is not supported"):
        parse_feed(json.dumps(document).encode(), load_catalog(), load_currency_table())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json", "not valid JSON"),
        (b"[]", "not a JSON object"),
        (b'{"format": "other", "version": 1, "prices": {}}', "not a price feed"),
        (b'{"format": "rigforge-price-feed", "version": 9, "prices": {}}', "version 9"),
        (b'{"format": "rigforge-price-feed", "version": 1, "prices": []}', "'prices'"),
    ],
)
def test_whole_document_errors(data: bytes, message: str) -> None:
    with pytest.raises(FileFormatError, match=message):
        parse_feed(data, load_catalog(), load_currency_table())


def test_currency_converts_through_euro_by_hand() -> None:
    table = load_currency_table()
    usd, gbp = table.per_base["USD"], table.per_base["GBP"]
    assert convert(100.0, "GBP", "USD", table) == pytest.approx(100.0 / gbp * usd)
    report = parse_feed(
        _feed({"rtx-4090": GOOD | {"currency": "EUR", "price": 1000}}),
        load_catalog(),
        table,
    )
    assert report.accepted[0].usd == pytest.approx(round(1000 * usd, 2))
    assert report.accepted[0].original_currency == "EUR"


def test_apply_prices_overrides_win_and_catalog_untouched() -> None:
    catalog = load_catalog()
    table = load_currency_table()
    feed = parse_feed(_feed({"rtx-4090": GOOD, "corsair-rm850x-2021": GOOD}), catalog, table)
    override = feed.accepted[0].model_copy(update={"usd": 999.0, "origin": "override"})
    priced = apply_prices(catalog, feed.accepted, [override])
    assert priced.gpu("rtx-4090").price.usd == 999.0
    assert priced.price_origins == {"rtx-4090": "override", "corsair-rm850x-2021": "feed"}
    assert priced.psu("corsair-rm850x-2021").price.usd == 1500
    assert catalog.psu("corsair-rm850x-2021").price.usd != 1500  # the original is unchanged
    assert not math.isnan(catalog.gpu("rtx-4090").price.usd or 0)


def test_overrides_file_round_trip(tmp_path: Path) -> None:
    catalog, table = load_catalog(), load_currency_table()
    path = tmp_path / "o.json"
    entry = FeedEntry(price=120.0, currency="USD", as_of=date(2025, 3, 1), source="my shop")
    set_override(path, catalog, "corsair-rm850x-2021", entry)
    report = load_overrides(path, catalog, table)
    assert [(p.part_id, p.usd, p.origin) for p in report.accepted] == [
        ("corsair-rm850x-2021", 120.0, "override")
    ]
    assert remove_override(path, "corsair-rm850x-2021")
    assert not remove_override(path, "corsair-rm850x-2021")
    assert load_overrides(path, catalog, table).accepted == ()


def test_a_damaged_or_unwritable_overrides_file_is_named(tmp_path: Path) -> None:
    """A broken overrides file is named as the price overrides (the command's own file is
    fine); a folder that cannot be made is an error in words, not a traceback."""
    from core.errors import RigForgeError

    catalog, table = load_catalog(), load_currency_table()
    broken = tmp_path / "price-overrides.json"
    broken.write_text("{bad", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"the price overrides file .* is damaged"):
        load_overrides(broken, catalog, table)
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    entry = FeedEntry(price=120.0, currency="USD", as_of=date(2025, 3, 1), source="my shop")
    with pytest.raises(RigForgeError, match="cannot make the folder for the price overrides"):
        set_override(blocker / "o.json", catalog, "corsair-rm850x-2021", entry)


def test_example_feed_is_valid() -> None:
    root = Path(__file__).resolve().parents[3]
    data = (root / "resources/prices/example-feed.json").read_bytes()
    report = parse_feed(data, load_catalog(), load_currency_table())
    assert report.rejected == ()
    assert len(report.accepted) >= 3


def test_shipped_feed_schema_matches_the_model_and_the_example_is_valid() -> None:
    import json
    from pathlib import Path

    from core.prices.models import PriceFeedDocument, feed_json_schema

    root = Path(__file__).parents[3] / "resources"
    shipped = json.loads((root / "schema" / "rigforge-price-feed-1.schema.json").read_text())
    assert shipped == feed_json_schema()
    example = json.loads((root / "prices" / "example-feed.json").read_text())
    document = PriceFeedDocument.model_validate(example)
    assert len(document.prices) >= 5


@pytest.mark.parametrize(
    ("literal", "code", "detail"),
    [
        ("NaN", "invalid_entry", "price: Input should be a finite number"),
        ("Infinity", "invalid_entry", "price: Input should be a finite number"),
        ("-Infinity", "invalid_entry", "price: Input should be a finite number"),
        ("1" + "0" * 300, "invalid_entry", "price: Input should be less than 100000000"),
    ],
)
def test_a_number_json_cannot_hold_rejects_its_entry_not_the_feed(
    literal: str, code: str, detail: str
) -> None:
    # Before: one NaN or 301-digit price refused the whole feed without naming the part.
    good = json.dumps(GOOD)
    bad = good.replace('"price": 1500', f'"price": {literal}')
    data = (
        '{"format": "rigforge-price-feed", "version": 1, "prices": '
        f'{{"rtx-4090": {good}, "rtx-3090": {bad}}}}}'
    ).encode()
    report = parse_feed(data, load_catalog(), load_currency_table())
    assert [p.part_id for p in report.accepted] == ["rtx-4090"]
    assert [(r.part_id, r.code) for r in report.rejected] == [("rtx-3090", code)]
    assert report.rejected[0].detail == detail


def test_a_build_file_with_nan_is_still_refused_whole() -> None:
    from core.files.safe_json import parse_json_bytes

    with pytest.raises(FileFormatError, match="NaN, which is not a number JSON allows"):
        parse_json_bytes(b'{"a": NaN}')
