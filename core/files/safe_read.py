"""Read a file a user named, safely: open it once, refuse anything that is not a regular
file, never block, and read at most the limit plus one byte.

A path can name a FIFO (opening it waits for a writer for ever), a device such as
``/dev/zero`` or ``/dev/urandom`` (endless data; its size reads as 0), a directory, or a
symlink to any of these. The file is opened without blocking, the opened descriptor is
checked (not the path, which could change in between), and reading stops one byte past
the limit so an oversized file is refused without loading it.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path

from core.errors import RigForgeError


class UnreadableFile(RigForgeError):
    """The path is not a readable regular file; the message names it and says why."""


def read_limited(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of ``path``; ``UnreadableFile`` when it is not a regular file, cannot be
    read, or is larger than ``max_bytes``."""
    path = Path(path)
    name = path.name or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise UnreadableFile(f"cannot open {name}: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _kind(info.st_mode)
            raise UnreadableFile(f"{name} is {kind}, not a file RigForge can open")
        if info.st_size > max_bytes:
            raise UnreadableFile(_too_big(name, info.st_size, max_bytes))
        chunks: list[bytes] = []
        received = 0
        while received <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - received))
            if not chunk:
                break
            chunks.append(chunk)
            received += len(chunk)
        if received > max_bytes:  # it grew while being read
            raise UnreadableFile(_too_big(name, received, max_bytes))
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(f"cannot read {name}: {error.strerror or error}") from None
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def limit_text(limit: int) -> str:
    """A size limit in the unit it was set in: "5 MiB" for 5 × 2**20 bytes, "64 KiB" for
    65,536, "2 MB" for 2,000,000 (else as ``size_text``)."""
    if limit and limit % 2**20 == 0:
        return f"{limit // 2**20:,} MiB"
    if limit and limit < 2**20 and limit % 1024 == 0:
        return f"{limit // 1024:,} KiB"
    if limit and limit % 10**6 == 0:
        return f"{limit // 10**6:,} MB"
    return size_text(limit)


def size_text(size: int) -> str:
    """A measured size, rounded up so that one over a limit never reads as the limit:
    "5.1 MiB" for 5 MiB and one byte, "65 KiB" under a MiB."""
    if size < 1024:
        return f"{size:,} bytes"
    if size < 2**20:
        return f"{math.ceil(size / 1024):,} KiB"
    return f"{math.ceil(size * 10 / 2**20) / 10:,.1f} MiB"


def _too_big(name: str, size: int, limit: int) -> str:
    return f"{name} is {size_text(size)} or more; RigForge opens files up to {limit_text(limit)}"
