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
