"""A raw-socket HTTP server on 127.0.0.1 that misbehaves on purpose.

Each test hands it a script: a function that receives the connected socket and
writes whatever bytes (or silences) the case needs. Used where a well-behaved
framework server cannot produce the fault: a reason phrase with control
characters, a Content-Length of ``²``, one byte a second.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

Script = Callable[[socket.socket], None]


@contextlib.contextmanager
def raw_server(script: Script) -> Iterator[str]:
    """Serve ``script`` to every connection; yields the base URL ``http://127.0.0.1:PORT``."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve_one(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(30)
            with contextlib.suppress(OSError):
                _read_request(conn)
                script(conn)

    def accept_loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve_one, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept_loop, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(2)
        listener.close()


def _read_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def respond(status_line: bytes, headers: dict[str, str | bytes], body: bytes = b"") -> Script:
    """A script that sends one fixed response."""

    def script(conn: socket.socket) -> None:
        head = status_line + b"\r\n"
        for name, value in headers.items():
            raw = value if isinstance(value, bytes) else value.encode("latin-1")
            head += name.encode() + b": " + raw + b"\r\n"
        conn.sendall(head + b"\r\n" + body)

    return script
