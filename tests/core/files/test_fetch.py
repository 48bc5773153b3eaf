"""URL loading against a real HTTP server on 127.0.0.1."""

import time

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from core.errors import FetchError
from core.files.fetch import FetchLimits, fetch

SMALL = FetchLimits(timeout_s=2.0, max_bytes=10_000, max_redirects=3)


def test_good_json(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/b.json").respond_with_json({"format": "rigforge"})
    result = fetch(httpserver.url_for("/b.json"), limits=SMALL)
    assert result.status == 200
    assert b"rigforge" in result.body


def test_scheme_must_be_http(httpserver: HTTPServer) -> None:
    for url in ("file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)", "build.json"):
        with pytest.raises(FetchError, match="only http"):
            fetch(url, limits=SMALL)


def test_a_malformed_address_is_a_clear_error() -> None:
    """urllib raises ValueError for "http://[::1" (an IPv6 literal left open) or a port that
    is not a number; both are named as addresses, not a traceback."""
    for url in ("http://[::1", "http://127.0.0.1:99999x/feed.json"):
        with pytest.raises(FetchError, match="is not a valid web address"):
            fetch(url, limits=SMALL)


def test_html_is_refused(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/page").respond_with_data("<html></html>", content_type="text/html")
    with pytest.raises(FetchError, match="text/html, not JSON"):
        fetch(httpserver.url_for("/page"), limits=SMALL)


def test_http_error_status_named(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/gone").respond_with_data("nope", status=404)
    with pytest.raises(FetchError, match="404"):
        fetch(httpserver.url_for("/gone"), limits=SMALL)


def test_declared_oversize_refused(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/big").respond_with_data(
        b"x" * 20_000, content_type="application/json"
    )
    with pytest.raises(FetchError, match="larger than"):
        fetch(httpserver.url_for("/big"), limits=SMALL)


def test_undeclared_oversize_stopped_while_streaming(httpserver: HTTPServer) -> None:
    def endless(request: Request) -> Response:
        def chunks():  # no Content-Length: chunked transfer
            for _ in range(1000):
                yield b"x" * 4096

        return Response(chunks(), content_type="application/json")

    httpserver.expect_request("/stream").respond_with_handler(endless)
    with pytest.raises(FetchError, match="larger than"):
        fetch(httpserver.url_for("/stream"), limits=SMALL)


def test_redirect_loop_bounded(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/loop").respond_with_data(
        "", status=302, headers={"Location": "/loop"}
    )
    with pytest.raises(FetchError, match="more than 3 redirects"):
        fetch(httpserver.url_for("/loop"), limits=SMALL)


def test_slow_server_times_out(httpserver: HTTPServer) -> None:
    def slow(request: Request) -> Response:
        time.sleep(1.5)
        return Response("{}", content_type="application/json")

    httpserver.expect_request("/slow").respond_with_handler(slow)
    started = time.monotonic()
    with pytest.raises(FetchError, match="no answer within"):
        fetch(httpserver.url_for("/slow"), limits=FetchLimits(timeout_s=0.5))
    assert time.monotonic() - started < 1.4


def test_cancel_stops_download(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/c").respond_with_json({"a": 1})
    with pytest.raises(FetchError, match="cancelled"):
        fetch(httpserver.url_for("/c"), limits=SMALL, cancelled=lambda: True)


def test_not_modified_passes_through(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/feed", headers={"If-None-Match": '"v1"'}).respond_with_data(
        "", status=304
    )
    result = fetch(httpserver.url_for("/feed"), limits=SMALL, headers={"If-None-Match": '"v1"'})
    assert result.not_modified


def test_connection_refused_named() -> None:
    with pytest.raises(FetchError, match="cannot connect"):
        fetch("http://127.0.0.1:9/x.json", limits=SMALL)
