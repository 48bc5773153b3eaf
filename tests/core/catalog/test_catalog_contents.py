"""The bundled catalog: complete, sourced, physically sane, and in agreement with
the reference tables in ``tests/core/data`` (copied from the project's sourced
hardware data)."""

import csv
import math
from pathlib import Path

import pytest

from core.catalog import load_catalog, normalise_name
from core.models.parts import CPU, GPU, Drive, Motherboard

DATA = Path(__file__).parents[1] / "data"
CATALOG = load_catalog()


def reference_rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_catalog_covers_every_category_with_minimum_counts() -> None:
    minimum = {
        "gpu": 40,
        "cpu": 20,
        "motherboard": 12,
        "memory": 6,
        "drive": 6,
        "psu": 6,
        "case": 4,
    }
    for category, count in minimum.items():
        assert len(CATALOG.parts(category)) >= count, category  # type: ignore[arg-type]


def test_every_entry_has_sources_and_a_dated_price_or_explicit_unknown() -> None:
    for part in CATALOG.parts():
        assert part.sources and all(s.strip() for s in part.sources), part.id
        if part.price.usd is None:
            assert part.price.kind == "unknown" and part.price.source.strip(), part.id
        else:
            assert part.price.as_of is not None and part.price.source.strip(), part.id


def test_ids_and_aliases_unique_after_normalisation() -> None:
    seen: dict[str, str] = {}
    for part in CATALOG.parts():
        for key in {normalise_name(n) for n in (part.id, part.name, *part.aliases)}:
            assert seen.setdefault(key, part.id) == part.id, (key, part.id, seen[key])


@pytest.mark.parametrize("row", reference_rows("gpu_specs.csv"), ids=lambda r: r["gpu_model"])
def test_every_reference_gpu_is_in_catalog_with_agreeing_specs(row: dict[str, str]) -> None:
    gpu = CATALOG.gpu(row["gpu_model"])
    pairs = {
        "vram_gib": gpu.vram_gib,
        "memory_bandwidth_gb_s": gpu.memory_bandwidth_gb_s,
        "fp32_tflops": gpu.fp32_tflops,
        "fp16_tensor_tflops_dense": gpu.tensor_tflops.fp16,
        "bf16_tensor_tflops_dense": gpu.tensor_tflops.bf16,
        "int8_tensor_tops_dense": gpu.tensor_tflops.int8_tops,
        "tdp_w": gpu.board_power_w,
        "pcie_gen": gpu.pcie_gen,
    }
    column_for = {"vram_gib": "vram_gb", "memory_bandwidth_gb_s": "memory_bandwidth_gbps"}
    for key, value in pairs.items():
        cell = row[column_for.get(key, key)].strip()
        if cell:
            assert value is not None, f"{gpu.id}.{key} is unknown but the reference gives {cell}"
            assert math.isclose(float(value), float(cell), rel_tol=0.02), (gpu.id, key, value, cell)


CALIBRATION_GPUS = [
    "Quadro RTX 8000",
    "RTX Quadro 8000",
    "RTX 2080Ti",
    "GTX 1080Ti",
    "RTX A40",
    "RTX A6000",
    "A6000",
    "NVIDIA RTX A6000",
    "V100 16GB (DGX-1)",
    "A100 80GB SXM4",
    "H100 80GB PCIe Gen5",
    "H100 80GB SXM5",
    "A100 40GB (AWS p4d.24xlarge)",
    "Quadro RTX 5000",
    "Titan RTX",
    "RTX 3080",
]


@pytest.mark.parametrize("name", CALIBRATION_GPUS)
def test_published_table_spellings_resolve(name: str) -> None:
    assert isinstance(CATALOG.get(name, "gpu"), GPU)


def test_issue_listed_gpus_present() -> None:
    for name in (
        "RTX 3070",
        "RTX 2080 Ti",
        "RTX A4500",
        "RTX A5500",
        "A10",
        "A40",
        "Quadro RTX 5000",
        "Quadro RTX 6000",
        "Quadro RTX 8000",
        "H200",
        "B200",
        "GH200",
    ):
        CATALOG.gpu(name)


def test_reference_cpus_present_and_agree() -> None:
    for row in reference_rows("cpu_specs.csv"):
        cpu = CATALOG.cpu(row["cpu_model"])
        if row["cores"].strip():
            assert cpu.cores == int(row["cores"]), cpu.id
        if row["cpu_pcie_lanes"].strip() and cpu.pcie_lanes is not None:
            assert cpu.pcie_lanes == int(row["cpu_pcie_lanes"]), cpu.id


def test_gpus_physically_sane() -> None:
    for gpu in CATALOG.parts("gpu"):
        assert isinstance(gpu, GPU)
        assert 4 <= gpu.vram_gib <= 300, gpu.id
        assert 100 <= gpu.memory_bandwidth_gb_s <= 10_000, gpu.id
        assert gpu.pcie_lanes in (1, 2, 4, 8, 16)
        tensor = gpu.tensor_tflops
        if tensor.fp16 and gpu.fp32_tflops and gpu.architecture not in ("rdna3", "cdna2", "cdna3"):
            assert tensor.fp16 >= gpu.fp32_tflops * 0.9, gpu.id  # tensor cores beat plain FP32
        if gpu.form_factor in ("sxm", "oam", "superchip"):
            assert gpu.slot_width is None, gpu.id
        if gpu.board_power_w is not None:
            assert 40 <= gpu.board_power_w <= 1500, gpu.id


def test_cpus_boards_and_drives_sane() -> None:
    sockets = {p.socket for p in CATALOG.parts("motherboard") if isinstance(p, Motherboard)}
    for cpu in CATALOG.parts("cpu"):
        assert isinstance(cpu, CPU)
        assert cpu.socket in sockets, f"no board in the catalog takes {cpu.id} ({cpu.socket})"
        if cpu.pcie_lanes is not None:
            assert 16 <= cpu.pcie_lanes <= 160, cpu.id
    for board in CATALOG.parts("motherboard"):
        assert isinstance(board, Motherboard)
        assert any(s.lanes == 16 for s in board.pcie_slots), board.id
    for drive in CATALOG.parts("drive"):
        assert isinstance(drive, Drive)
        if drive.seq_read_mb_s is not None:
            limit = {"sata": 600, "sas": 1200}.get(drive.interface, 16_000)
            assert 50 <= drive.seq_read_mb_s <= limit, drive.id


def test_default_build_and_every_example_have_a_complete_dated_total() -> None:
    """The issue's "done when": the bundled default build and every example file show a
    complete total with every line dated (tools/examples/make_examples.py keeps them so)."""
    from importlib import resources

    from core.calc import analyze
    from core.catalog import load_catalog
    from core.catalog.builds import default_build
    from core.files.io import parse_document

    catalog = load_catalog()
    builds = [default_build(catalog)]
    for entry in resources.files("resources.examples").iterdir():
        if entry.name.endswith(".json"):
            builds += parse_document(entry.read_bytes(), catalog).session.builds
    assert len(builds) >= 5
    for build in builds:
        cost = analyze(build, None, None, catalog).cost
        assert cost.parts.total_usd is not None, (build.name, cost.parts.unpriced_part_ids)
        assert all(line.as_of is not None for line in cost.lines), build.name
        assert build.psu is not None and build.case is not None, build.name


def test_every_example_opens_with_the_catalogs_own_parts() -> None:
    """A bundled example carries snapshots of today's catalog: opening it says nothing
    about parts differing from the catalog or priced in the file (a catalog change without
    ``python -m tools.examples.make_examples`` would show every user such a notice)."""
    from importlib import resources

    from core.catalog import load_catalog
    from core.files.io import parse_document

    catalog = load_catalog()
    for entry in resources.files("resources.examples").iterdir():
        if entry.name.endswith(".json"):
            opened = parse_document(entry.read_bytes(), catalog)
            assert opened.notices == (), (entry.name, opened.notices)
