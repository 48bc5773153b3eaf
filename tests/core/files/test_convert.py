"""``rigforge convert`` and the bundled example files."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.cli import main
from core.files.io import open_file, parse_document

DATA = Path(__file__).parent / "data"


def test_convert_v1_to_current_keeps_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "old.json"
    source.write_bytes((DATA / "v1-build.json").read_bytes())
    before = open_file(source, load_catalog())
    assert main(["convert", str(source), "--to-version", "5"]) == 0
    raw = json.loads(source.read_text("utf-8"))
    assert raw["version"] == 5 and "build" not in raw
    assert all("snapshot" in b["gpu"] for b in raw["builds"])  # parts travel with the file
    after = open_file(source, load_catalog())
    assert after.session == before.session
    assert after.original_version == 5
    assert "version 1 -> 5" in capsys.readouterr().out


def test_convert_to_output_leaves_source(tmp_path: Path) -> None:
    source, target = tmp_path / "old.json", tmp_path / "new.json"
    source.write_bytes((DATA / "v1-build.json").read_bytes())
    assert main(["convert", str(source), "--to-version", "5", "-o", str(target)]) == 0
    assert json.loads(source.read_text("utf-8"))["version"] == 1
    assert json.loads(target.read_text("utf-8"))["version"] == 5


@pytest.mark.parametrize("version", ["1", "4", "6"])
def test_convert_refuses_other_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str
) -> None:
    source = tmp_path / "old.json"
    source.write_bytes((DATA / "v1-build.json").read_bytes())
    assert main(["convert", str(source), "--to-version", version]) == 2
    assert "writes format version 5 only" in capsys.readouterr().err
    assert json.loads(source.read_text("utf-8"))["version"] == 1


def test_convert_bad_file_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.json"
    source.write_bytes(b"{nope")
    assert main(["convert", str(source), "--to-version", "5"]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert source.read_bytes() == b"{nope"


@pytest.mark.parametrize(
    ("name", "count"), [("single-rtx-4090.json", 1), ("three-way-comparison.json", 3)]
)
def test_examples_load(name: str, count: int) -> None:
    data = resources.files("resources.examples").joinpath(name).read_bytes()
    opened = parse_document(data, load_catalog())
    assert len(opened.session.builds) == count
    catalog_ids = set(load_catalog().parts_by_id())
    for (
        build
    ) in opened.session.builds:  # made from catalog builds, so every part id is in the catalog
        parts = [build.gpu, build.cpu, build.motherboard, build.memory, build.psu, build.case]
        assert {p.id for p in parts if p is not None} <= catalog_ids
    assert json.loads(data)["kind"] == ("build" if count == 1 else "comparison")


def test_version_2_snapshots_upgrade_to_units_in_their_keys(tmp_path: Path) -> None:
    """Version 2 stored binary gigabytes under ``_gb`` keys; version 3 says ``_gib``."""
    data = resources.files("resources.examples").joinpath("single-rtx-4090.json").read_bytes()
    raw = json.loads(data)
    record = raw["builds"][0]
    record["gpu"]["snapshot"]["vram_gib"] = 48  # a modded card, so the snapshot is used
    for key, old in (("gpu", "vram_gib"), ("memory", "module_gib")):
        snap = record[key]["snapshot"]
        snap[old.replace("_gib", "_gb")] = snap.pop(old)
    for key in ("cpu", "motherboard"):
        snap = record[key]["snapshot"]
        snap["max_memory_gb"] = snap.pop("max_memory_gib")
    raw["version"] = 2
    opened = parse_document(json.dumps(raw).encode(), load_catalog())
    assert opened.original_version == 2
    build = opened.session.builds[0]
    assert build.gpu.vram_gib == 48
    assert build.memory.module_gib == record["memory"]["snapshot"]["module_gb"]
