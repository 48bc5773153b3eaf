"""Atomic file writes: a crash or full disk never leaves a half-written file.

Write to a temporary file in the same directory, flush, fsync, then rename
over the target (``os.replace`` is atomic on POSIX and Windows), then fsync
the directory so the rename itself survives a power cut.
Source: POSIX rename(2); LWN "Ensuring data reaches disk" (2011).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from pathlib import Path

from core.errors import RigForgeError

ORPHAN_AGE_S = 60.0
"""Temporary files of this target older than this are left over from a crash."""


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; the old file survives any failure.

    A symbolic link is followed: its target is replaced and the link stays. A path
    that exists but is not a regular file (a FIFO, a device, a directory) is refused.
    Temporary files that an earlier crash left next to the target are removed.
    """
    path = _target(check_save_path(Path(os.path.abspath(path))))  # a command's relative path
    directory = path.parent
    _remove_orphans(path)
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


MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255
"""Linux's PATH_MAX and NAME_MAX: a longer path cannot be opened."""


def check_save_path(path: Path) -> Path:
    """``path`` if a document can be saved there, else ``RigForgeError`` saying why: an
    absolute path without control characters, within the system's length limits, in a
    folder that exists, and not an existing non-regular file. Every save target goes
    through it, whether the user chose it or the app remembered it (autosave metadata)."""
    text = str(path)
    shown = "".join(c if c.isprintable() else "?" for c in text)[:120]
    if any(not c.isprintable() for c in text):
        raise RigForgeError(f"cannot save to {shown!r}: the path holds control characters")
    if not path.is_absolute():
        raise RigForgeError(f"cannot save to {shown!r}: not an absolute path")
    encoded = os.fsencode(path)
    if len(encoded) > MAX_PATH_BYTES or len(os.fsencode(path.name)) > MAX_NAME_BYTES:
        raise RigForgeError(f"cannot save to {shown!r}: the path is too long")
    if not path.name:
        raise RigForgeError(f"cannot save to {shown!r}: it names no file")
    if not path.parent.is_dir():
        raise RigForgeError(f"cannot write to {path.parent}: the folder does not exist")
    _target(path)
    return path


def _target(path: Path) -> Path:
    """The file a save really replaces: a link's target; refuse what is not a regular file."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return path
    except OSError as error:
        raise RigForgeError(f"cannot save {path.name}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        raise RigForgeError(f"cannot save over {path.name}: it is not a regular file")
    return path


def _remove_orphans(path: Path) -> None:
    """Delete ``.<name>.*.tmp`` files a killed save left behind (older than a minute, so a
    save running at this moment in another window is never disturbed)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            name = entry.name
            if not (name.startswith(f".{path.name}.") and name.endswith(".tmp")):
                continue
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > ORPHAN_AGE_S:
                    os.unlink(entry.path)


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
