""" "Update prices" against a real HTTP server on 127.0.0.1 (pytest-httpserver)."""

import json
import time
from pathlib import Path

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from core.catalog import load_catalog
from core.files.fetch import FetchLimits
from core.prices import cached_prices, load_currency_table, update_prices

LIMITS = FetchLimits(timeout_s=1.0, max_bytes=20_000, max_redirects=2)
ENTRY = {"price": 1400, "currency": "USD", "as_of": "2025-02-01", "source": "shop"}


def _doc(prices: dict[str, object]) -> dict[str, object]:
    return {"format": "rigforge-price-feed", "version": 1, "prices": prices}


def _update(server: HTTPServer, cache: Path, path: str = "/feed.json"):  # type: ignore[no-untyped-def]
    return update_prices(
        server.url_for(path), cache, load_catalog(), load_currency_table(), limits=LIMITS
    )


def _seed(server: HTTPServer, cache: Path) -> None:
    server.expect_oneshot_request("/feed.json").respond_with_json(
        _doc({"rtx-4090": ENTRY, "rtx-3090": ENTRY}), headers={"ETag": '"v1"'}
    )
    assert _update(server, cache).status == "updated"


def test_good_feed_is_cached(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)
    assert {p.part_id for p in cached_prices(tmp_path)} == {"rtx-4090", "rtx-3090"}


def test_conditional_request_304_keeps_prices(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)
    httpserver.expect_oneshot_request(
        "/feed.json", headers={"If-None-Match": '"v1"'}
    ).respond_with_data("", status=304)
    result = _update(httpserver, tmp_path)
    assert result.status == "not_modified"
    assert len(result.prices) == 2


def test_last_modified_is_sent_back(httpserver: HTTPServer, tmp_path: Path) -> None:
    stamp = "Wed, 21 Oct 2025 07:28:00 GMT"
    httpserver.expect_oneshot_request("/feed.json").respond_with_json(
        _doc({"rtx-4090": ENTRY}), headers={"Last-Modified": stamp}
    )
    _update(httpserver, tmp_path)
    httpserver.expect_oneshot_request(
        "/feed.json", headers={"If-Modified-Since": stamp}
    ).respond_with_data("", status=304)
    assert _update(httpserver, tmp_path).status == "not_modified"


def test_404_keeps_previous(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)
    httpserver.expect_request("/gone.json").respond_with_data("no", status=404)
    result = _update(httpserver, tmp_path, "/gone.json")
    assert result.status == "failed" and "404" in (result.error or "")
    assert len(result.prices) == 2
    assert len(cached_prices(tmp_path)) == 2


def test_timeout_keeps_previous(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)

    def slow(_: Request) -> Response:
        time.sleep(1.5)
        return Response(json.dumps(_doc({})), content_type="application/json")

    httpserver.expect_request("/slow.json").respond_with_handler(slow)
    result = _update(httpserver, tmp_path, "/slow.json")
    assert result.status == "failed"
    assert len(result.prices) == 2


def test_malformed_json_keeps_previous(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)
    httpserver.expect_request("/bad.json").respond_with_data(
        '{"format": ', content_type="application/json"
    )
    result = _update(httpserver, tmp_path, "/bad.json")
    assert result.status == "failed" and "JSON" in (result.error or "")
    assert len(cached_prices(tmp_path)) == 2


def test_wrong_schema_keeps_previous(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)
    httpserver.expect_request("/other.json").respond_with_json({"format": "something"})
    result = _update(httpserver, tmp_path, "/other.json")
    assert result.status == "failed" and "not a price feed" in (result.error or "")
    assert len(result.prices) == 2


def test_oversized_body_refused(httpserver: HTTPServer, tmp_path: Path) -> None:
    _seed(httpserver, tmp_path)
    big = json.dumps(_doc({"rtx-4090": ENTRY | {"source": "x" * 400}} | {"pad": "y" * 30_000}))
    httpserver.expect_request("/big.json").respond_with_data(big, content_type="application/json")
    result = _update(httpserver, tmp_path, "/big.json")
    assert result.status == "failed" and "larger than" in (result.error or "")
    assert len(cached_prices(tmp_path)) == 2


def test_partial_update_keeps_previous_price_of_refused_part(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    _seed(httpserver, tmp_path)
    httpserver.expect_request("/p.json").respond_with_json(
        _doc({"rtx-4090": ENTRY | {"price": 1300}, "rtx-3090": ENTRY | {"price": -1}})
    )
    result = _update(httpserver, tmp_path, "/p.json")
    assert result.status == "partial"
    prices = {p.part_id: p.usd for p in result.prices}
    assert prices == {"rtx-4090": 1300, "rtx-3090": 1400}
    assert result.report is not None and result.report.rejected[0].part_id == "rtx-3090"
