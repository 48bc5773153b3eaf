"""The versioned file format: round trips, upgrades, snapshots and hostile input."""

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.catalog import Catalog, load_catalog
from core.catalog.builds import default_build
from core.errors import FileFormatError, RigForgeError
from core.files.document import CURRENT_VERSION, json_schema
from core.files.io import dumps, open_file, parse_document, save_file, to_document
from core.models.session import Session
from core.models.settings import AnalysisSettings

DATA = Path(__file__).parent / "data"
CATALOG = load_catalog()
BUILD = default_build(CATALOG)


def doc_bytes(document: Any) -> bytes:
    return json.dumps(document).encode()


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    custom_gpu = BUILD.gpu.model_copy(
        update={"id": "my-gpu", "name": "My modded 4090", "vram_gib": 48.0, "custom": True}
    )
    variant = BUILD.model_copy(
        update={"name": "Variant", "gpu": custom_gpu, "gpu_count": 1, "gpu_power_limit_w": 300.0}
    )
    settings = AnalysisSettings(
        circuit="eu-230v-16a", electricity_usd_per_kwh=0.31, utilization=0.7
    )
    session = Session(
        builds=(BUILD, variant), settings=settings, title="Options", notes="for the lab", shown=1
    )
    path = tmp_path / "cmp.rigforge.json"
    save_file(path, session)
    opened = open_file(path, CATALOG)
    assert opened.session == session
    assert opened.notices == ()
    raw = json.loads(path.read_text())
    assert raw["format"] == "rigforge"
    assert raw["version"] == CURRENT_VERSION
    assert raw["kind"] == "comparison"
    assert raw["builds"][0]["gpu"]["id"] == "rtx-4090"
    assert raw["builds"][1]["gpu"]["snapshot"]["custom"] is True


def test_equal_copies_of_a_files_own_part_become_one_part() -> None:
    """Builds of one file that carry the same custom part share it (work keyed on parts,
    such as PCIe placement, is done once); different copies stay apart."""
    custom = BUILD.gpu.model_copy(update={"id": "my-gpu", "name": "Modded", "custom": True})
    other = custom.model_copy(update={"vram_gib": 96.0})
    builds = tuple(
        BUILD.model_copy(update={"name": f"B{i}", "gpu": gpu})
        for i, gpu in enumerate((custom, custom, other))
    )
    raw = to_document(Session(builds=builds)).model_dump(mode="json")
    opened = parse_document(doc_bytes(raw), CATALOG).session.builds
    assert opened[0].gpu is opened[1].gpu
    assert opened[2].gpu is not opened[0].gpu and opened[2].gpu.vram_gib == 96.0
    assert opened[0].cpu is CATALOG.by_id(BUILD.cpu.id)  # catalog parts stay the catalog's


def test_every_earlier_version_loads() -> None:
    opened = open_file(DATA / "v1-build.json", CATALOG)
    assert opened.original_version == 1
    (build,) = opened.session.builds
    assert build.gpu.id == "rtx-4090"
    assert build.gpu_count == 2
    assert build.drives[0].count == 2
    assert build.case is None


def test_newer_version_says_so() -> None:
    newer = {"format": "rigforge", "version": CURRENT_VERSION + 1, "builds": []}
    with pytest.raises(FileFormatError, match="made by a newer RigForge"):
        parse_document(doc_bytes(newer), CATALOG)


def test_part_missing_from_catalog_uses_snapshot_and_says_so() -> None:
    raw = to_document(Session(builds=(BUILD,))).model_dump(mode="json")
    small = Catalog(p for p in CATALOG.parts() if p.id != BUILD.gpu.id)
    opened = parse_document(doc_bytes(raw), small)
    assert opened.session.builds[0].gpu == BUILD.gpu
    assert any("not in this catalog" in n for n in opened.notices)


def test_changed_catalog_data_keeps_file_numbers() -> None:
    raw = to_document(Session(builds=(BUILD,))).model_dump(mode="json")
    raw["builds"][0]["gpu"]["snapshot"]["memory_bandwidth_gb_s"] = 999.0
    opened = parse_document(doc_bytes(raw), CATALOG)
    assert opened.session.builds[0].gpu.memory_bandwidth_gb_s == 999.0
    assert any("differs" in n for n in opened.notices)


def test_unknown_part_without_snapshot_is_named() -> None:
    raw = to_document(Session(builds=(BUILD,))).model_dump(mode="json")
    raw["builds"][0]["cpu"] = {"id": "ryzen-99-99999x"}
    with pytest.raises(FileFormatError, match=r"builds\.0\.cpu.*ryzen-99-99999x"):
        parse_document(doc_bytes(raw), CATALOG)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("builds", 0, "gpu_count"), -2, "^Build 1, GPU count: "),
        (("builds", 0, "gpu_count"), 10**9, "^Build 1, GPU count: "),
        (("builds", 0, "gpu_count"), "two", "^Build 1, GPU count: "),
        (("settings", "utilization"), 7, "^Settings, utilization: "),
        (("builds", 0, "gpu", "snapshot", "vram_gib"), -24, r"^Build 1, GPU, VRAM: "),
    ],
)
def test_bad_values_name_their_field(path: tuple, value: Any, message: str) -> None:
    raw = to_document(Session(builds=(BUILD,))).model_dump(mode="json")
    target = raw
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(FileFormatError, match=message):
        parse_document(doc_bytes(raw), CATALOG)


def test_nan_and_missing_fields_rejected() -> None:
    text = dumps(to_document(Session(builds=(BUILD,)))).replace(
        '"gpu_count": 2', '"gpu_count": NaN'
    )
    with pytest.raises(FileFormatError, match="not a number"):
        parse_document(text.encode(), CATALOG)
    raw = to_document(Session(builds=(BUILD,))).model_dump(mode="json")
    del raw["builds"][0]["motherboard"]
    with pytest.raises(FileFormatError, match=r"Build 1, motherboard: Field required"):
        parse_document(doc_bytes(raw), CATALOG)


def test_not_a_rigforge_file() -> None:
    with pytest.raises(FileFormatError, match="not a RigForge file: its \"format\" is 'kicad'"):
        parse_document(b'{"format": "kicad", "version": 1}', CATALOG)
    # a bare build, like the app's bundled default: the message says where it belongs
    bare = b'{"name": "Two RTX 4090", "gpu": "rtx-4090", "gpu_count": 2}'
    with pytest.raises(FileFormatError) as caught:
        parse_document(bare, CATALOG)
    words = str(caught.value)
    assert 'it has no "format": "rigforge" entry' in words
    assert "looks like a single build" in words and '"builds": [...]' in words
    assert "None" not in words
    with pytest.raises(FileFormatError, match="JSON object"):
        parse_document(b"[1, 2, 3]", CATALOG)


def test_shipped_schema_matches_models() -> None:
    shipped = Path(__file__).parents[3] / "resources" / "schema" / "rigforge-5.schema.json"
    assert json.loads(shipped.read_text()) == json_schema()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
keys = st.sampled_from(["format", "version", "builds", "kind", "settings", "workload", "build"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(keys, json_values, max_size=6), st.booleans())
def test_generated_documents_load_or_raise_our_error(document: dict, header: bool) -> None:
    if header:
        document = {**document, "format": "rigforge", "version": CURRENT_VERSION}
    try:
        opened = parse_document(doc_bytes(document), CATALOG)
    except RigForgeError:
        return
    assert opened.session.builds


@settings(max_examples=100)
@given(
    st.sampled_from(["gpu_count", "memory_kits", "psu_count", "nvlink_bridges"]),
    json_values,
)
def test_mutated_real_document_loads_or_raises_our_error(field: str, value: Any) -> None:
    raw = to_document(Session(builds=(BUILD,))).model_dump(mode="json")
    raw["builds"][0][field] = value
    with contextlib.suppress(RigForgeError):
        parse_document(doc_bytes(raw), CATALOG)
