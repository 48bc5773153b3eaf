"""Download a small JSON document over HTTP(S) with hard limits.

Used for "Open from URL…" and the price feed. Every failure becomes a
``FetchError`` whose message names the cause in words. ``requests`` is imported
lazily so start-up does not pay for it.

Limits that hold whatever the server does:

- **Deadline** for the whole download (connect, redirects, headers, body), to within
  a tenth of a second: the transfer runs in a helper thread and the caller stops
  waiting at the deadline, so a server that drips one byte a second cannot stretch
  it. ``cancelled()`` is polled at the same rate, so Cancel answers within 0.1 s.
- **Size** counted on the *decoded* body while it streams (a gzip bomb stops at the
  limit), and refused up front when the declared length is larger.
- **Redirects** followed by hand, at most ``max_redirects``, each only to http(s).
- **Type**: JSON or plain text only (HTML error pages are refused).
- Text the server chooses (reason phrase, Content-Type) is reduced to printable
  characters and shortened before it reaches a message.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from core.errors import FetchError
from core.files.safe_json import MAX_FILE_BYTES
from core.files.safe_read import limit_text, size_text

JSON_TYPES = ("application/json", "text/json", "text/plain", "application/octet-stream")
CHUNK = 16 * 1024
POLL_S = 0.05
REDIRECTS = (301, 302, 303, 307, 308)
MAX_SERVER_TEXT = 80


@dataclass(frozen=True)
class FetchLimits:
    timeout_s: float = 10.0
    """Deadline for the whole download, connecting included."""
    max_bytes: int = MAX_FILE_BYTES
    max_redirects: int = 5


@dataclass(frozen=True)
class FetchResult:
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def not_modified(self) -> bool:
        return self.status == 304


def fetch(
    url: str,
    *,
    limits: FetchLimits = FetchLimits(),
    headers: Mapping[str, str] | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FetchResult:
    """GET ``url`` under ``limits``; ``FetchError`` names any problem.

    ``progress(received, total_or_None)`` and ``cancelled()`` are called on the
    caller's thread; when ``cancelled()`` returns true the download stops with
    ``FetchError("cancelled")``.
    """
    _check_scheme(url.strip(), "only http:// and https:// addresses can be opened")
    transfer = _Transfer(url.strip(), limits, dict(headers or {}))
    deadline = time.monotonic() + limits.timeout_s
    thread = threading.Thread(target=transfer.run, name="rigforge-fetch", daemon=True)
    thread.start()
    reported: tuple[int, int | None] = (-1, None)
    while True:
        thread.join(POLL_S)
        done = not thread.is_alive()
        now = (transfer.received, transfer.total)
        if progress is not None and now != reported and now[0] >= 0:
            reported = now
            progress(*now)
        if cancelled is not None and cancelled():
            transfer.abandon()
            raise FetchError("cancelled")
        if done:
            break
        if time.monotonic() >= deadline:
            transfer.abandon()
            raise FetchError(
                _timed_out(limits.timeout_s, transfer.received, answered=transfer.answered)
            )
    if transfer.error is not None:
        raise transfer.error
    assert transfer.result is not None
    return transfer.result


class _Transfer:
    """The blocking part of a download, run in a daemon thread.

    Socket timeouts equal the time left before the deadline, so an abandoned
    transfer ends by itself soon after ``fetch`` has given up on it.
    """

    def __init__(self, url: str, limits: FetchLimits, headers: dict[str, str]) -> None:
        self.url = url
        self.limits = limits
        self.headers = {"Accept-Encoding": "gzip, deflate", **headers}
        self.deadline = time.monotonic() + limits.timeout_s
        self.received = 0
        self.total: int | None = None
        self.result: FetchResult | None = None
        self.error: FetchError | None = None
        self.answered = False
        """Whether the server's answer (status and headers) arrived."""
        self._abandoned = threading.Event()

    def abandon(self) -> None:
        self._abandoned.set()

    def _left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0 or self._abandoned.is_set():
            raise _Stop
        return left

    def run(self) -> None:
        import requests

        session = requests.Session()
        try:
            self.result = self._download(session)
        except _Stop:
            self.error = FetchError(
                _timed_out(self.limits.timeout_s, self.received, answered=self.answered)
            )
        except FetchError as error:
            self.error = error
        except requests.Timeout:
            self.error = FetchError(_timed_out(self.limits.timeout_s, self.received))
        except Exception as error:  # requests / urllib3 / zlib / socket errors
            if self.answered and _is_timeout(error):
                # the socket's timeout is the time left: the deadline passed mid-download
                self.error = FetchError(
                    _timed_out(self.limits.timeout_s, self.received, answered=True)
                )
            else:
                connecting = isinstance(error, requests.ConnectionError) and not self.answered
                self.error = FetchError(_failure(error, _host(self.url), connecting=connecting))
        finally:
            session.close()

    def _download(self, session: Any) -> FetchResult:
        url = self.url
        for _ in range(self.limits.max_redirects + 1):
            left = self._left()
            response = session.get(
                url,
                stream=True,
                allow_redirects=False,
                timeout=(left, left),
                headers=self.headers,
            )
            with response:
                location = response.headers.get("Location")
                if response.status_code in REDIRECTS and location:
                    url = urljoin(url, location)
                    _check_scheme(url, "the server redirected to an address that is not http(s)")
                    continue
                return self._body(response)
        raise FetchError(f"more than {self.limits.max_redirects} redirects")

    def _body(self, response: Any) -> FetchResult:
        self.answered = True
        headers = dict(response.headers)
        if response.status_code == 304:
            return FetchResult(304, b"", headers)
        if response.status_code >= 300:
            reason = _server_text(response.reason or "")
            raise FetchError(f"the server answered {response.status_code} {reason}".rstrip())
        kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind and not (kind in JSON_TYPES or kind.endswith("+json")):
            raise FetchError(f"the server sent {_server_text(kind)}, not JSON")
        declared = response.headers.get("Content-Length", "").strip()
        total = int(declared) if declared.isascii() and declared.isdigit() else None
        if total is not None and total > self.limits.max_bytes:
            raise FetchError(_too_big(self.limits.max_bytes, f"{size_text(total)} declared"))
        self.total = total
        decoder = _decoder(response.headers.get("Content-Encoding", ""))
        body = bytearray()
        room = self.limits.max_bytes + 1
        while True:
            left = self._left()
            _sock_timeout(response, left)
            data = response.raw.read1(CHUNK, decode_content=False)
            if not data:
                break
            while data:
                out = decoder.decompress(data, room - len(body)) if decoder else data
                data = decoder.unconsumed_tail if decoder else b""
                body += out
                if len(body) > self.limits.max_bytes:
                    raise FetchError(_too_big(self.limits.max_bytes, "more"))
            self.received = len(body)
        if decoder is not None:
            body += decoder.flush()[: room - len(body)]
            if len(body) > self.limits.max_bytes:
                raise FetchError(_too_big(self.limits.max_bytes, "more"))
        self.received = len(body)
        return FetchResult(response.status_code, bytes(body), headers)


class _Stop(Exception):
    """The deadline passed or the caller gave up."""


def _sock_timeout(response: Any, seconds: float) -> None:
    """Shorten the socket's timeout to the time left (best effort: urllib3 internals)."""
    sock = getattr(getattr(response.raw, "_fp", None), "fp", None)
    raw = getattr(sock, "raw", None)
    inner = getattr(raw, "_sock", None)
    if inner is not None:
        inner.settimeout(max(seconds, 0.001))


def _decoder(encoding: str) -> Any:
    """A bounded decompressor for the body's Content-Encoding, or None for identity."""
    name = encoding.strip().lower()
    if name in ("", "identity"):
        return None
    if name in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if name == "deflate":
        return zlib.decompressobj()
    raise FetchError(f"the server compressed the download as {_server_text(name)!r}")


def _check_scheme(url: str, message: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port or IPv6 literal
    except ValueError:
        raise FetchError(f"{_server_text(url)!r} is not a valid web address") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise FetchError(f"{message}, not {_server_text(url)!r}")


def _host(url: str) -> str:
    return _server_text(urlsplit(url).hostname or url)


def _server_text(text: str) -> str:
    """Printable characters only, at most ``MAX_SERVER_TEXT`` of them."""
    clean = "".join(c if c.isprintable() else " " for c in str(text)).strip()
    return clean if len(clean) <= MAX_SERVER_TEXT else clean[:MAX_SERVER_TEXT] + "…"


def _timed_out(timeout_s: float, received: int, answered: bool = False) -> str:
    if received:
        return (
            f"timed out: the download took longer than {timeout_s:g} s and was stopped "
            f"after {size_text(received)}"
        )
    if answered:
        return f"timed out: the server answered but sent no data within {timeout_s:g} s"
    return f"timed out: no answer within {timeout_s:g} s"


def _is_timeout(error: BaseException) -> bool:
    """A socket or urllib3 read timeout, however requests wrapped it."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, TimeoutError) or "timed out" in str(current).lower():
            return True
        current = current.__cause__ or current.__context__
    return "Timeout" in type(error).__name__


def _too_big(limit: int, got: str) -> str:
    return f"the download is larger than {limit_text(limit)} ({got}); nothing was loaded"


_BROKEN_OFF = "the download from {host} broke off before the end; nothing was loaded"
_NOT_HTTP = "{host} did not answer in HTTP (a malformed or oversized header); nothing was loaded"
_FAILURES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("Connection refused",), "cannot connect to {host}: connection refused"),
    (
        ("Name or service not known", "Failed to resolve", "getaddrinfo", "nodename nor"),
        "cannot connect to {host}: the name could not be resolved",
    ),
    (("timed out",), "cannot connect to {host}: timed out"),
    (
        ("RemoteDisconnected", "closed connection without"),
        "{host} closed the connection without answering; nothing was loaded",
    ),
    (("Connection reset",), "{host} reset the connection; nothing was loaded"),
    (("IncompleteRead", "Connection broken", "InvalidChunkLength"), _BROKEN_OFF),
    (("LineTooLong", "BadStatusLine", "got more than", "HeaderParsingError"), _NOT_HTTP),
    (
        ("decompressing", "decompress", "ContentDecodingError", "Not a gzipped file"),
        "the compressed data from {host} is damaged; nothing was loaded",
    ),
    (
        ("CERTIFICATE_VERIFY_FAILED", "SSLError", "SSL:"),
        "cannot connect to {host} securely: its certificate could not be verified",
    ),
)
"""What a requests/urllib3/zlib error says, in the user's words: the first marker found
in the error's text picks the message (markers are the exception names and texts of
urllib3, http.client, socket and zlib)."""


def _failure(error: Exception, host: str, *, connecting: bool = False) -> str:
    """The message for a failed download: what went wrong in words, never an exception's
    repr; a connection error that happened after the server answered is not called a
    failure to connect."""
    text = f"{type(error).__name__} {error}"
    for markers, message in _FAILURES:
        if any(marker in text for marker in markers):
            return message.format(host=host)
    if connecting:
        return f"cannot connect to {host}"
    return f"the download from {host} failed ({type(error).__name__}); nothing was loaded"
