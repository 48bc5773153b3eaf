"""Importing a PCPartPicker part list (its Markdown and Text exports) as a build."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.cli import main
from core.errors import FileFormatError, RigForgeError
from core.files.io import open_file
from core.files.pcpartpicker import import_list, parse_list
from core.prices.currency import load_currency_table

DATA = Path(__file__).parent / "data"
CATALOG = load_catalog()
RATES = load_currency_table()


def _import(text: str, today: date = date(2026, 12, 7)):  # type: ignore[no-untyped-def]
    return import_list(parse_list(text), CATALOG, RATES, today=today)


def test_the_default_builds_list_round_trips_to_its_parts() -> None:
    """The default build as PCPartPicker lists it (two RTX 4090 rows, a cooler RigForge
    does not model): the same parts, two GPUs, the cooler left out and said so."""
    result = _import((DATA / "pcpartpicker-default-build.md").read_text())
    build, default = result.build, default_build(CATALOG)
    for field in ("gpu", "cpu", "motherboard", "memory", "psu", "case"):
        assert getattr(build, field).id == getattr(default, field).id, field
    assert [d.drive.id for d in build.drives] == [d.drive.id for d in default.drives]
    assert (build.gpu_count, build.memory_kits) == (2, 1)
    assert [item.kind for item, _why in result.left_out] == ["CPU Cooler"]
    assert result.made == []


def test_the_lists_prices_are_dated_prices_from_the_list() -> None:
    """ "$2499.99 @ Best Buy" on a list generated 2026-11-30: the GPU's price is $2,499.99,
    street, as of that day, naming the list, the vendor and the product link."""
    gpu = _import((DATA / "pcpartpicker-default-build.md").read_text()).build.gpu
    assert (gpu.price.usd, gpu.price.kind, gpu.price.as_of) == (
        2499.99,
        "street",
        date(2026, 11, 30),
    )
    assert gpu.price.source.startswith("PCPartPicker list, 2026-11-30: $2,499.99 @ Best Buy")


def test_a_text_export_in_pounds(tmp_path: Path) -> None:
    """The Text export of a UK list: prices in pounds become dollars at the bundled ECB
    table's rates (GBP 0.82608 and USD 1.0411 per euro on 2025-02-28: £2,499 is
    2499 / 0.82608 × 1.0411 = $3,149.46); two identical drives are two drives; memory the
    catalog lacks (DDR5-6400 2 × 48 GB) becomes a custom kit made from its name."""
    result = _import((DATA / "pcpartpicker-uk.txt").read_text())
    build = result.build
    assert build.gpu.id == "rtx-5090"
    assert build.gpu.price.usd == pytest.approx(2499.0 / 0.82608 * 1.0411, abs=0.01)
    assert build.drives[0].count == 2
    [(item, kit)] = result.made
    assert item.name.startswith("Corsair Vengeance 96 GB (2 x 48 GB) DDR5-6400")
    assert kit.custom and (kit.modules, kit.module_gib, kit.speed_mt_s) == (2, 48.0, 6400)
    assert kit.dimm_type == "UDIMM" and kit.memory_type == "DDR5"


def test_a_gpu_the_catalog_lacks_names_the_closest_ones() -> None:
    text = (
        "Video Card: Sparkle Intel Arc A770 TITAN OC 16 GB Video Card\n"
        "CPU: AMD Ryzen 9 7950X 4.5 GHz 16-Core Processor\n"
    )
    with pytest.raises(RigForgeError, match=r"Arc A770 TITAN OC.*closest in the catalog"):
        _import(text)


def test_not_a_part_list() -> None:
    with pytest.raises(FileFormatError, match="no parts found"):
        parse_list("just some notes about a computer\nwith no rows")
    with pytest.raises(FileFormatError, match="far shorter"):
        parse_list("CPU: x\n" * 100_000)


def test_a_list_without_a_date_says_when_it_was_imported() -> None:
    text = (DATA / "pcpartpicker-default-build.md").read_text().replace("2026-11-30 09:14", "")
    gpu = _import(text, today=date(2026, 12, 7)).build.gpu
    assert gpu.price.as_of == date(2026, 12, 7)
    assert "imported 2026-12-07 (the list gives no date)" in gpu.price.source


def test_the_command_writes_a_build_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "imported.json"
    source = str(DATA / "pcpartpicker-default-build.md")
    assert main(["import", "pcpartpicker", source, "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["matched"]) == 8 and report["left_out"][0]["listed"].startswith("Noctua")
    opened = open_file(out, CATALOG)
    assert opened.session.builds[0].gpu.price.usd == 2499.99  # the list's price, kept
