"""Atomic saves: an interrupted save leaves the old file intact and no debris."""

from pathlib import Path

import pytest

from core.errors import RigForgeError
from core.files import atomic
from core.files.atomic import atomic_write_text


def test_write_replaces_content(tmp_path: Path) -> None:
    target = tmp_path / "build.json"
    atomic_write_text(target, "old")
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["build.json"]


def test_failure_before_rename_keeps_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "build.json"
    target.write_text("precious")

    def crash(source: str, dest: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "_replace", crash)
    with pytest.raises(RigForgeError, match="No space left"):
        atomic_write_text(target, "half")
    assert target.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["build.json"]


def test_unwritable_directory_gives_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RigForgeError, match="cannot write"):
        atomic_write_text(tmp_path / "missing-dir" / "x.json", "data")


def test_new_file_is_readable_by_others_per_umask(tmp_path: Path) -> None:
    import os

    umask = os.umask(0o022)
    try:
        target = tmp_path / "shared.json"
        atomic_write_text(target, "{}")
        assert target.stat().st_mode & 0o777 == 0o644
        target.chmod(0o600)
        atomic_write_text(target, "{}")
        assert target.stat().st_mode & 0o777 == 0o600  # an existing file keeps its mode
    finally:
        os.umask(umask)


def test_orphans_of_a_killed_save_are_removed(tmp_path: Path) -> None:
    # A save killed between mkstemp and rename leaves ".build.json.XXXX.tmp" behind.
    import os
    import time

    target = tmp_path / "build.json"
    old = tmp_path / ".build.json.abcd1234.tmp"
    old.write_bytes(b"x" * 1000)
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    fresh = tmp_path / ".build.json.efgh5678.tmp"  # another window saving right now
    fresh.write_bytes(b"y")
    other = tmp_path / ".notes.txt.abcd.tmp"  # not this file's
    other.write_bytes(b"z")
    os.utime(other, (time.time() - 3600, time.time() - 3600))
    atomic_write_text(target, "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["build.json", fresh.name, other.name]
    )


def test_save_through_a_symlink_replaces_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_save_over_a_fifo_is_refused_and_the_fifo_kept(tmp_path: Path) -> None:
    import os
    import stat

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(RigForgeError, match="not a regular file"):
        atomic_write_text(fifo, "data")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_save_over_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d.json").mkdir()
    with pytest.raises(RigForgeError, match="not a regular file"):
        atomic_write_text(tmp_path / "d.json", "data")
