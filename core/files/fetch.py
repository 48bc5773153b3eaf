"""Download a small JSON document over HTTP(S) with hard limits.

Used for "Open from URL…" and the price feed. Every failure becomes a
``FetchError`` whose message names the cause. ``requests`` is imported lazily
so start-up does not pay for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from core.errors import FetchError
from core.files.safe_json import MAX_FILE_BYTES

JSON_TYPES = ("application/json", "text/json", "text/plain", "application/octet-stream")
CHUNK = 64 * 1024


@dataclass(frozen=True)
class FetchLimits:
    timeout_s: float = 10.0
    """Connect and per-read timeout, and the deadline for the whole download."""
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
    """GET ``url``; enforce scheme, redirects, size (while streaming), type and a deadline.

    ``progress(received, total_or_None)`` is called per chunk; when ``cancelled()``
    returns true the download stops with ``FetchError("cancelled")``.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise FetchError(f"only http:// and https:// addresses can be opened, not {url!r}")
    import requests

    session = requests.Session()
    session.max_redirects = limits.max_redirects
    deadline = time.monotonic() + limits.timeout_s
    try:
        with session.get(
            url, stream=True, timeout=limits.timeout_s, headers=dict(headers or {})
        ) as response:
            if response.status_code == 304:
                return FetchResult(304, b"", dict(response.headers))
            if response.status_code >= 400:
                raise FetchError(f"the server answered {response.status_code} {response.reason}")
            kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind and not (kind in JSON_TYPES or kind.endswith("+json")):
                raise FetchError(f"the server sent {kind}, not JSON")
            declared = response.headers.get("Content-Length")
            total = int(declared) if declared and declared.isdigit() else None
            if total is not None and total > limits.max_bytes:
                raise FetchError(_too_big(limits.max_bytes, f"{total / 1e6:.1f} MB"))
            body = bytearray()
            for chunk in response.iter_content(CHUNK):
                if cancelled is not None and cancelled():
                    raise FetchError("cancelled")
                body += chunk
                if len(body) > limits.max_bytes:
                    raise FetchError(_too_big(limits.max_bytes, "more"))
                if time.monotonic() > deadline:
                    raise FetchError(
                        f"the download took longer than {limits.timeout_s:g} s and was stopped"
                    )
                if progress is not None:
                    progress(len(body), total)
            return FetchResult(response.status_code, bytes(body), dict(response.headers))
    except requests.TooManyRedirects:
        raise FetchError(f"more than {limits.max_redirects} redirects") from None
    except requests.Timeout:
        raise FetchError(f"no answer within {limits.timeout_s:g} s") from None
    except requests.ConnectionError as error:
        raise FetchError(f"cannot connect: {_reason(error)}") from None
    except requests.RequestException as error:
        raise FetchError(f"download failed: {_reason(error)}") from None
    finally:
        session.close()


def _too_big(limit: int, got: str) -> str:
    return f"the download is larger than {limit / 1e6:.0f} MB ({got}); nothing was loaded"


def _reason(error: Exception) -> str:
    text = str(error)
    return text if len(text) < 200 else text[:200] + "…"
