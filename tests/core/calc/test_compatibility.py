"""Why a part cannot go into a build: the pickers' reasons, in words, never from unknowns."""

from __future__ import annotations

from typing import Any

import pytest

from core.calc.compatibility import PICKED_FIELDS, incompatibilities, incompatibility
from core.calc.platform.checks import run_checks
from core.catalog import Catalog, load_catalog
from core.models.build import Build
from core.models.parts import Category, Part
from core.models.settings import AnalysisSettings
from tests.core.am5 import two_4090_am5

CATALOG = load_catalog()
DEFAULT = two_4090_am5(CATALOG)


def part(part_id: str, category: Category) -> Part:
    return CATALOG.get(part_id, category)


def variant(**changes: Any) -> Build:
    """The default build with some fields changed (parts by id)."""
    fields: dict[str, Any] = dict(DEFAULT)
    for field, value in changes.items():
        fields[field] = part(value, field) if field in PICKED_FIELDS else value
    return Build.model_validate(fields)


def test_the_default_build_fits_itself() -> None:
    for field in PICKED_FIELDS:
        current = getattr(DEFAULT, field)
        if current is not None:
            assert incompatibility(DEFAULT, field, current) is None, field


def test_board_of_another_socket_names_both_sockets() -> None:
    assert DEFAULT.cpu.socket == "AM5"
    reason = incompatibility(
        DEFAULT, "motherboard", part("asus-rog-maximus-z790-formula", "motherboard")
    )
    assert reason == "socket LGA1700, the CPU needs AM5"
    assert (
        incompatibility(DEFAULT, "motherboard", part("asrock-x870e-taichi", "motherboard")) is None
    )


def test_cpu_of_another_socket_names_the_boards_socket() -> None:
    assert incompatibility(DEFAULT, "cpu", part("i9-13900k", "cpu")) == (
        "socket LGA1700, the board has AM5"
    )
    assert incompatibility(DEFAULT, "cpu", part("ryzen-9-9950x", "cpu")) is None


def test_memory_type_and_module_kind_against_the_board() -> None:
    ddr4 = incompatibility(
        DEFAULT, "memory", part("corsair-vengeance-lpx-ddr4-3200-2x32gb", "memory")
    )
    assert ddr4 == "DDR4, the board takes DDR5"
    rdimm = part("kingston-fury-renegade-pro-ddr5-6000-4x32gb-rdimm", "memory")
    assert incompatibility(DEFAULT, "memory", rdimm) == "RDIMM modules, the board takes UDIMM"
    assert (
        incompatibility(DEFAULT, "memory", part("crucial-pro-ddr5-5600-2x32gb", "memory")) is None
    )
    # from the board's side: a DDR4 board for the DDR5 kit (and an LGA1700 socket first)
    ddr4_board = part("msi-mag-b760-tomahawk-wifi-ddr4", "motherboard")
    intel = variant(cpu="i9-13900k", motherboard="asus-rog-maximus-z790-formula")
    assert incompatibility(intel, "motherboard", ddr4_board) == (
        "DDR4 memory slots, the memory kit is DDR5"
    )


def test_too_many_modules_and_too_much_memory() -> None:
    eight = variant(memory="corsair-vengeance-ddr5-5600-4x32gb", memory_kits=2)
    assert (
        incompatibility(eight, "memory", eight.memory) == "8 modules, the board has 4 memory slots"
    )
    assert incompatibility(eight, "motherboard", eight.motherboard) == (
        "4 memory slots, the memory is 8 modules"
    )
    big = variant(memory="gskill-flare-x5-ddr5-6000-2x64gb", memory_kits=2)  # 256 GB
    assert big.cpu.max_memory_gib == 128 and big.motherboard.max_memory_gib == 192
    assert incompatibility(big, "memory", big.memory) == "256 GB, the board holds at most 192 GB"
    assert incompatibility(big, "cpu", big.cpu) == (
        "holds at most 128 GB of memory, the build has 256 GB"
    )


def test_board_form_factor_against_the_case_both_ways() -> None:
    north = part("fractal-design-north", "case")  # ATX, mATX, Mini-ITX
    eatx = variant(motherboard="asus-rog-crosshair-x670e-extreme")
    assert incompatibility(eatx, "case", north) == (
        "takes ATX/mATX/Mini-ITX boards, the board is E-ATX"
    )
    in_north = variant(case="fractal-design-north")
    assert incompatibility(in_north, "motherboard", eatx.motherboard) == (
        "E-ATX board, the case takes ATX/mATX/Mini-ITX"
    )


def test_card_length_against_the_case_and_unknown_lengths_never_count() -> None:
    air540 = variant(gpu="rtx-3090", case="corsair-carbide-air-540")  # 336 mm in 320 mm
    assert incompatibility(air540, "gpu", air540.gpu) == (
        "336 mm long, the case takes cards up to 320 mm"
    )
    assert incompatibility(air540, "case", air540.case) == (  # type: ignore[arg-type]
        "takes cards up to 320 mm, the GPU is 336 mm"
    )
    unknown_length = part("rx-9070-xt", "gpu")
    assert unknown_length.length_mm is None  # type: ignore[attr-defined]
    assert incompatibility(air540, "gpu", unknown_length) is None
    define7 = DEFAULT.case
    assert define7 is not None and define7.max_gpu_length_mm is None  # room unknown
    assert incompatibility(variant(gpu="rtx-3090"), "case", define7) is None


def test_gpu_slots_on_the_board_and_modules() -> None:
    itx = part("asrock-b650i-lightning-wifi", "motherboard")
    assert incompatibility(DEFAULT, "motherboard", itx) == "room for 1 of the 2 GPUs (3-slot cards)"
    # the GPU count is the problem there, not the card: no GPU is blamed for it
    crowded = DEFAULT.model_copy(update={"motherboard": itx})
    assert incompatibility(crowded, "gpu", part("rtx-a4000", "gpu")) is None
    sxm = incompatibility(DEFAULT, "gpu", part("h100-sxm5-80gb", "gpu"))
    assert sxm is not None and sxm.startswith("SXM module") and "baseboard" in sxm


def test_psu_rating_and_gpu_cables() -> None:
    small = incompatibility(DEFAULT, "psu", part("corsair-rm550x-2021", "psu"))
    assert small is not None and small.startswith("550 W, the build draws")
    # two RTX 3080s (two 8-pin each) on a unit with three 8-pin leads
    short = variant(gpu="rtx-3080", gpu_power_limit_w=200.0, psu="antec-hcg-pro-1000-atx31")
    reason = incompatibility(short, "psu", short.psu)  # type: ignore[arg-type]
    assert reason == (
        "too few GPU power cables (1 8-pin short): 2 cards take 4 × 8-pin, "
        "the PSU has 1 × 16-pin and 3 × 8-pin"
    )
    assert incompatibility(short, "gpu", short.gpu) == reason
    unlisted = part("corsair-rm1000x-shift", "psu")
    assert unlisted.connectors is None  # type: ignore[attr-defined]
    assert incompatibility(short, "psu", unlisted) is None  # unknown cables: no reason


def test_parts_without_fit_rules_and_other_categories() -> None:
    for riser in CATALOG.parts("riser"):
        assert incompatibility(DEFAULT, "riser", riser) is None
    drives = incompatibilities(DEFAULT, "drive", CATALOG.parts("drive"))
    assert set(drives.values()) == {None}
    # a part of another category is never judged against the wrong field
    assert incompatibility(DEFAULT, "case", DEFAULT.gpu) is None


def _builds(catalog: Catalog) -> list[Build]:
    rdimm = "kingston-fury-renegade-pro-ddr5-6000-8x32gb-rdimm"
    return [
        DEFAULT,
        DEFAULT.model_copy(update={"gpu_count": 4}),
        variant(gpu="rtx-3090", case="corsair-carbide-air-540"),
        variant(
            cpu="epyc-9354",
            motherboard="supermicro-h13ssl-n",
            memory="kingston-fury-renegade-pro-ddr5-6000-4x32gb-rdimm",
            gpu_count=3,
            case="fractal-design-north",
        ),
        variant(
            cpu="threadripper-pro-7975wx",
            motherboard="asus-pro-ws-wrx90e-sage-se",
            memory=rdimm,
            gpu="rtx-3090",
            gpu_count=4,
            case="corsair-7000d-airflow",
            psu="seasonic-prime-tx-1600",
            psu_count=2,
        ),
        variant(
            case="open-air-8gpu-mining-frame-b0cqjqv6v9",
            riser=catalog.parts("riser")[0].id,
            gpu_count=6,
            motherboard="asus-rog-crosshair-x670e-extreme",
        ),
        variant(gpu="rtx-3080", gpu_power_limit_w=200.0, psu="antec-hcg-pro-1000-atx31"),
    ]


@pytest.mark.parametrize("index", range(7))
def test_every_reason_is_a_failing_check(index: int) -> None:
    """A greyed part is one the build's own checks fail, never a guess."""
    build = _builds(CATALOG)[index]
    settings = AnalysisSettings()
    greyed = 0
    for field in PICKED_FIELDS:
        for part_id, reason in incompatibilities(build, field, CATALOG.parts(field)).items():
            if reason is None:
                continue
            greyed += 1
            candidate = build.model_copy(update={field: CATALOG.get(part_id, field)})
            fails = [c.id for c in run_checks(candidate, settings) if c.severity == "fail"]
            assert fails, f"{field} {part_id}: {reason}"
    assert greyed > 0
