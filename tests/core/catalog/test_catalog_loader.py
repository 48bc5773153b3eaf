"""Catalog loading: validation errors name file, entry and field; lookups."""

import json
from pathlib import Path

import pytest

from core.catalog import load_catalog_files, normalise_name
from core.errors import CatalogError, LookupFailed

GOOD_GPU = {
    "id": "test-gpu",
    "name": "Test GPU 24GB",
    "aliases": ["TG 24"],
    "price": {"usd": 999, "as_of": "2024-01-01", "kind": "msrp", "source": "a press release"},
    "sources": ["a datasheet"],
    "vendor": "NVIDIA",
    "architecture": "ada",
    "vram_gib": 24,
    "memory_bandwidth_gb_s": 1000,
    "fp32_tflops": 80,
    "board_power_w": 450,
    "pcie_gen": 4,
    "form_factor": "pcie",
}


def write(tmp_path: Path, name: str, category: str, entries: list) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"category": category, "entries": entries}))
    return path


def test_bad_field_names_file_entry_and_field(tmp_path: Path) -> None:
    bad = GOOD_GPU | {"memory_bandwidth_gb_s": -5}
    path = write(tmp_path, "gpus.json", "gpu", [bad])
    with pytest.raises(CatalogError) as error:
        load_catalog_files([path])
    message = str(error.value)
    assert "gpus.json" in message
    assert "'test-gpu'" in message
    assert "Memory bandwidth (GB/s)" in message  # the field as a person reads it


def test_missing_field_and_nested_field_are_named(tmp_path: Path) -> None:
    missing = {k: v for k, v in GOOD_GPU.items() if k != "vram_gib"}
    with pytest.raises(CatalogError, match="VRAM: Field required"):
        load_catalog_files([write(tmp_path, "a.json", "gpu", [missing])])
    undated = GOOD_GPU | {"price": {"usd": 5, "kind": "msrp", "source": "x"}}
    with pytest.raises(CatalogError, match=r"price.*date"):
        load_catalog_files([write(tmp_path, "b.json", "gpu", [undated])])


def test_malformed_json_gives_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"category": "gpu",\n "entries": [}')
    with pytest.raises(CatalogError, match=r"broken\.json.*line 2, column"):
        load_catalog_files([path])


def test_unknown_category_and_duplicate_ids_rejected(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="unknown category"):
        load_catalog_files([write(tmp_path, "x.json", "toaster", [])])
    with pytest.raises(CatalogError, match="duplicate catalog id 'test-gpu'"):
        load_catalog_files([write(tmp_path, "y.json", "gpu", [GOOD_GPU, GOOD_GPU])])


def test_alias_collision_rejected(tmp_path: Path) -> None:
    other = GOOD_GPU | {"id": "other-gpu", "name": "Other", "aliases": ["tg-24"]}
    with pytest.raises(CatalogError, match="already used"):
        load_catalog_files([write(tmp_path, "z.json", "gpu", [GOOD_GPU, other])])


def test_lookup_ignores_case_and_punctuation_and_suggests(tmp_path: Path) -> None:
    catalog = load_catalog_files([write(tmp_path, "g.json", "gpu", [GOOD_GPU])])
    assert catalog.gpu("tg-24").id == "test-gpu"
    assert catalog.get("TEST GPU 24gb", "gpu").id == "test-gpu"
    with pytest.raises(LookupFailed, match="did you mean"):
        catalog.gpu("Test GPU 42GB")
    with pytest.raises(LookupFailed):
        catalog.cpu("test-gpu")
    assert normalise_name("RTX-2080 Ti") == normalise_name("rtx 2080ti")


def test_a_makers_name_in_front_is_optional(tmp_path: Path) -> None:
    """ "NVIDIA H100 PCIe" (an alias) also answers to "H100 PCIe"; a name that is only
    the start of another part's ("Test GPU 2" of "Test GPU 24GB") finds nothing."""
    named = GOOD_GPU | {"aliases": ["NVIDIA Test Card"]}
    catalog = load_catalog_files([write(tmp_path, "g.json", "gpu", [named])])
    assert catalog.gpu("Test Card").id == "test-gpu"
    with pytest.raises(LookupFailed):
        catalog.gpu("Test GPU 2")
