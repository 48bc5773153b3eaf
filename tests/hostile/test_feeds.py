"""The hostile feed corpus through ``prices update``: the core updater and the command.

A refused feed keeps the prices in force and says why in one line; nothing invalid is
ever written to the cache; every case ends within the limits.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from core.catalog import load_catalog
from core.files.fetch import FetchLimits
from core.prices import cached_prices, load_currency_table, update_prices
from core.prices.feed import MAX_FEED_BYTES
from gui.main import main as rigforge
from tests.hostile.corpus import FEED_VALID, MARKUP, FeedCase, feed_cases
from tests.hostile.limits import bounded

CASES = feed_cases()
CATALOG = load_catalog()
CURRENCIES = load_currency_table()
LIMITS = FetchLimits(timeout_s=3.0, max_bytes=MAX_FEED_BYTES, max_redirects=3)


def _serve(server: HTTPServer, case: FeedCase) -> str:
    server.expect_request("/feed.json").respond_with_data(
        case.data, content_type="application/json"
    )
    return server.url_for("/feed.json")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_update_prices(case: FeedCase, httpserver: HTTPServer, tmp_path: Path) -> None:
    url = _serve(httpserver, case)
    with bounded():
        result = update_prices(url, tmp_path, CATALOG, CURRENCIES, limits=LIMITS)
    if case.expect == "updated":
        assert result.status in ("updated", "partial"), result.error
        assert [p.part_id for p in cached_prices(tmp_path)] == ["rtx-4090"]
    else:
        assert result.status == "failed" or (result.report and result.report.rejected)
        assert cached_prices(tmp_path) == ()  # nothing invalid persisted
    if case.name == "markup-source":
        assert cached_prices(tmp_path)[0].source == f"{MARKUP}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_prices_update_command(
    case: FeedCase, httpserver: HTTPServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = _serve(httpserver, case)
    with bounded():
        status = rigforge(["prices", "update", "--url", url, "--cache-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert status in (0, 1, 2)
    if case.expect == "updated":
        assert status == 0
    # `prices show` still works whatever the feed was (nothing invalid was cached)
    with bounded():
        assert rigforge(["prices", "show", "--cache-dir", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["parts"]
    assert any(r["id"] == "rtx-4090" for r in rows)


def test_a_shorter_feed_keeps_earlier_feed_prices(httpserver: HTTPServer, tmp_path: Path) -> None:
    entry = FEED_VALID["prices"]["rtx-4090"]  # type: ignore[index]
    both = {**FEED_VALID, "prices": {"rtx-4090": entry, "rtx-3090": {**entry, "price": 899.0}}}
    httpserver.expect_oneshot_request("/feed.json").respond_with_json(both)
    update_prices(httpserver.url_for("/feed.json"), tmp_path, CATALOG, CURRENCIES, limits=LIMITS)
    shorter = {**FEED_VALID, "prices": {"rtx-4090": {**entry, "price": 1899.0}}}
    httpserver.expect_oneshot_request("/feed.json").respond_with_json(shorter)
    result = update_prices(
        httpserver.url_for("/feed.json"), tmp_path, CATALOG, CURRENCIES, limits=LIMITS
    )
    assert result.status == "updated"
    prices = {p.part_id: p.usd for p in cached_prices(tmp_path)}
    # Before: the RTX 3090's feed price was dropped because the new feed omitted it.
    assert prices == {"rtx-4090": 1899.0, "rtx-3090": 899.0}
