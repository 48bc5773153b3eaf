"""``rigforge fix`` / *Make it work*: one plan of combined changes that converges."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from core.calc import analyze
from core.calc.fixplan import plan_fix
from core.calc.suggest.signable import blocking
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.cli import main
from core.files.io import open_file
from core.models.parts import Price
from core.models.settings import AnalysisSettings
from core.workloads import find_preset, make_workload

CATALOG = load_catalog()
EXAMPLE = Path(__file__).parents[3] / "resources" / "examples" / "single-rtx-4090.json"
LORA = make_workload(find_preset("llama-3-8b"), task="lora", seq_len=2048, checkpointing="full")


def four_3090_on_the_starter_platform(tmp_path: Path) -> Path:
    """The shipped single-RTX-4090 example with four RTX 3090s instead of its one card."""
    document = json.loads(EXAMPLE.read_text("utf-8"))
    build = document["builds"][0]
    build["gpu"] = {"id": "rtx-3090"}
    build["gpu_count"] = 4
    path = tmp_path / "four-3090.json"
    path.write_text(json.dumps(document), "utf-8")
    return path


def test_rigforge_fix_turns_four_3090s_on_the_starter_platform_into_a_passing_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = four_3090_on_the_starter_platform(tmp_path)
    out = tmp_path / "fixed.json"
    argv = ["fix", str(source), "--workload", "Llama-3 8B", "-o", str(out), "--json"]
    assert main(argv) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["found"] and plan["verdict_before"] == "fail" and plan["verdict_after"] == "pass"
    fixed = open_file(out, CATALOG).session.builds[0]
    assert (fixed.gpu.id, fixed.gpu_count) == ("rtx-3090", 4)  # the GPUs stay
    after = analyze(fixed, LORA, AnalysisSettings(circuit="us-120v-15a"), CATALOG)
    assert after.verdict == "pass" and not blocking(after)
    fields = {c["field"] for c in plan["changes"]}
    assert {"CPU", "Board", "PSU"} <= fields
    for change in plan["changes"]:
        assert change["before"] != change["after"]
    # parts the plan made unnecessary are gone: no second PSU beyond what the case holds
    assert fixed.psu_count <= (fixed.case.psu_bays or 1)  # type: ignore[union-attr]
    assert main(["check", str(out), "--workload", "Llama-3 8B"]) == 0


def test_a_build_that_already_passes_needs_no_change() -> None:
    build = default_build(CATALOG)
    plan = plan_fix(build, None, AnalysisSettings(), CATALOG)
    assert plan.found and plan.changes == () and plan.after is plan.before


def test_every_change_of_a_plan_is_costed_and_the_total_adds_up() -> None:
    build = open_file(EXAMPLE, CATALOG).session.builds[0].model_copy(update={"gpu_count": 2})
    plan = plan_fix(build, None, AnalysisSettings(), CATALOG)
    assert plan.found and plan.changes
    deltas = [c.usd_delta for c in plan.changes]
    assert all(d is not None for d in deltas)
    assert sum(d for d in deltas if d is not None) == pytest.approx(plan.cost_delta_usd, abs=0.02)


@pytest.mark.parametrize("quote_usd", [400.0, 2_000.0])
def test_a_part_the_plan_keeps_keeps_its_quoted_price(quote_usd: float) -> None:
    """A board priced by the user's quote (a file's dated price) stays at that price when
    the plan keeps it, and the listed changes add up to the plan's total either way: the
    catalog's copy of the same board (another price) must not slip in unlisted."""
    build = open_file(EXAMPLE, CATALOG).session.builds[0].model_copy(update={"gpu_count": 2})
    quote = Price(usd=quote_usd, as_of=date(2026, 11, 1), kind="street", source="a dealer's quote")
    board = build.motherboard.model_copy(update={"price": quote, "observations": ()})
    build = build.model_copy(update={"motherboard": board})
    plan = plan_fix(build, None, AnalysisSettings(), CATALOG)
    assert plan.found
    deltas = [c.usd_delta for c in plan.changes]
    assert None not in deltas
    assert sum(d for d in deltas if d is not None) == pytest.approx(plan.cost_delta_usd, abs=0.02)
    after = plan.after.build.motherboard
    if after.id == board.id:
        assert after.price.usd == quote_usd
    else:  # a $2,000 quote: a catalog board is cheaper, and the change says so
        assert quote_usd == 2_000.0 and "Board" in {c.field for c in plan.changes}


def test_when_nothing_passes_the_plan_says_which_checks_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Eight passive MI210s need a chassis rated for passive cards; the catalog's only
    rack chassis are rated for none: no build passes, and the cooling check is named."""
    document = json.loads(EXAMPLE.read_text("utf-8"))
    document["builds"][0]["gpu"] = {"id": "mi210"}
    document["builds"][0]["gpu_count"] = 8
    path = tmp_path / "mi210.json"
    path.write_text(json.dumps(document), "utf-8")
    assert main(["fix", str(path), "-o", str(tmp_path / "out.json")]) == 1
    out = capsys.readouterr().out
    assert "no build of the catalog with these GPUs passes every check" in out
    assert "Cooling" in out
    assert not (tmp_path / "out.json").exists()
