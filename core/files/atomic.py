"""Atomic file writes: a crash or full disk never leaves a half-written file.

Write to a temporary file in the same directory, flush, fsync, then rename
over the target (``os.replace`` is atomic on POSIX and Windows), then fsync
the directory so the rename itself survives a power cut.
Source: POSIX rename(2); LWN "Ensuring data reaches disk" (2011).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from core.errors import RigForgeError


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; the old file survives any failure."""
    path = Path(path)
    directory = path.parent
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise RigForgeError(f"cannot write to {directory}: {error.strerror}") from None
    try:
        os.chmod(temp_name, _mode_for(path))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _replace(temp_name, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        if isinstance(error, OSError):
            raise RigForgeError(f"cannot save {path.name}: {error.strerror}") from None
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; new files get 0666 less the umask.

    ``mkstemp`` creates 0600 files, which would make shared build files unreadable
    to colleagues on the same machine.
    """
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _replace(source: str, target: Path) -> None:
    """The single rename step (a seam tests use to simulate a crash before it)."""
    os.replace(source, target)
