"""``rigforge check`` gates a purchase: exit 1 when any check fails, JSON for scripts."""

import json
from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.cli import main
from core.files.io import open_file, save_file
from core.models.common import Price
from core.models.session import Session
from core.prices.currency import load_currency_table

CATALOG = load_catalog()


def test_default_build_prints_checks(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "--default"])
    out = capsys.readouterr().out
    assert "2× GeForce RTX 4090 workstation" in out
    assert "power.circuit" in out
    assert status == (1 if "FAIL " in out else 0)


def test_sxm_build_fails_with_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sxm = default_build(CATALOG).model_copy(
        update={"gpu": CATALOG.gpu("A100 80GB SXM4"), "gpu_count": 8, "name": "8x SXM"}
    )
    path = tmp_path / "sxm.json"
    save_file(path, Session(builds=(sxm,)))
    assert main(["check", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "fail"
    (build,) = report["builds"]
    failed = {c["id"] for c in build["checks"] if c["severity"] == "fail"}
    assert "physical.form_factor" in failed
    assert all(c["text"] for c in build["checks"])


def test_workload_adds_vram_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.json"
    save_file(path, Session(builds=(default_build(CATALOG),)))
    status = main(["check", str(path), "--workload", "Llama-2 70B", "--json"])
    report = json.loads(capsys.readouterr().out)
    vram = next(c for c in report["builds"][0]["checks"] if c["id"] == "vram.fit")
    # 70e9 parameters × 16 bytes (mixed-precision Adam) ≫ 24 GiB: cannot fit, so the gate fails.
    assert vram["severity"] == "fail"
    assert status == 1


def test_bad_file_gives_message_not_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "rigforge", "version": 2, "builds": [')
    assert main(["check", str(path)]) == 2
    assert "broken.json" in capsys.readouterr().err


def test_price_overrides_reach_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "overrides.json"
    main(["prices", "set", "rtx-4090", "1234", "--overrides", str(overrides)])
    capsys.readouterr()
    main(["check", "--default", "--json", "--overrides", str(overrides)])
    (build,) = json.loads(capsys.readouterr().out)["builds"]
    line = next(x for x in build["cost"]["lines"] if x["part_id"] == "rtx-4090")
    assert line["unit_usd"] == 1234.0 and line["origin"] == "override"
    assert build["cost"]["total_usd"] == pytest.approx(
        sum(x["line_usd"] for x in build["cost"]["lines"])
    )


def test_cost_json_keys_and_an_unpriced_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = default_build(CATALOG)
    gpu = build.gpu.model_copy(update={"price": Price(usd=None, kind="unknown", source="none")})
    path = tmp_path / "unpriced.json"
    save_file(path, Session(builds=(build.model_copy(update={"gpu": gpu}),)))
    main(["check", str(path), "--workload", "resnet50-v1.5", "--json"])
    cost = json.loads(capsys.readouterr().out)["builds"][0]["cost"]
    assert cost["total_usd"] is None  # never the other parts' sum
    assert cost["unpriced_parts"] == ["rtx-4090"]
    assert cost["per_throughput_usd"] is None


def test_currency_option_converts_and_names_its_rate(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--default", "--currency", "EUR"])
    out = capsys.readouterr().out
    table = load_currency_table()
    assert "€" in out and "$" not in out.split("Parts total:")[1].splitlines()[0]
    assert table.as_of.isoformat() in out


def test_apply_fix_writes_the_changed_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = default_build(CATALOG).model_copy(update={"psu": None})
    path = tmp_path / "no-psu.json"
    save_file(path, Session(builds=(build,)))
    out_path = tmp_path / "fixed.json"
    main(["check", str(path), "--apply-fix", "power.psu", "-o", str(out_path)])
    out = capsys.readouterr().out
    assert "applied use" in out and f"wrote {out_path}" in out
    fixed = open_file(out_path, CATALOG).session.build
    assert fixed.psu is not None  # the PSU the check proposed is now in the build
    assert open_file(path, CATALOG).session.build.psu is None  # the input is untouched
    main(["check", str(out_path), "--json"])
    after = json.loads(capsys.readouterr().out)["builds"][0]
    psu_check = next(c for c in after["checks"] if c["id"] == "power.psu")
    assert psu_check["severity"] in ("pass", "warn")


def test_apply_fix_of_an_advice_only_check_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "b.json"
    save_file(path, Session(builds=(default_build(CATALOG),)))
    before = path.read_bytes()
    assert main(["check", str(path), "--apply-fix", "power.summary"]) == 1
    assert "has no fix to apply" in capsys.readouterr().out
    assert path.read_bytes() == before


def test_region_utilization_and_electricity_price_reach_the_checks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 230 V / 16 A circuit carries 230 x 16 x 0.8 = 2,944 W continuously (80 % rule).
    The default build draws 2 x 320 W (its GPU limit) + 350 W (the 9965WX's package power)
    + 8 x 10 W (RDIMMs) + 8 W (NVMe) + 80 W (workstation board) + 30 W (fans) = 1,188 W DC,
    74.25 % of its 1,600 W PSU, whose published curve gives 0.94 - 0.04 x 0.2425 / 0.5 =
    92.06 % there: 1,290.5 W at the wall, i.e. 1,290.5 x 0.5 x 8,760 h = 5,652 kWh a year
    at 50 % utilization, and 5,652 x $0.30 = $1,696."""
    args = ["check", "--default", "--region", "eu-230v-16a", "--json"]
    main([*args, "--utilization", "0.5", "--electricity-price", "0.30"])
    build = json.loads(capsys.readouterr().out)["builds"][0]
    circuit = next(c for c in build["checks"] if c["id"] == "power.circuit")["numbers"]
    assert circuit["limit_w"] == pytest.approx(230 * 16 * 0.8)
    summary = next(c for c in build["checks"] if c["id"] == "power.summary")["numbers"]
    assert summary["steady_dc_w"] == 2 * 320 + 350 + 8 * 10 + 8 + 80 + 30
    efficiency = 0.94 - 0.04 * (1188 / 1600 - 0.5) / 0.5
    assert summary["wall_w"] == pytest.approx(1188 / efficiency, abs=1)
    assert summary["kwh_per_year"] == pytest.approx(1188 / efficiency * 0.5 * 8.76, abs=1)
    assert build["cost"]["electricity_usd_per_year"] == pytest.approx(
        1188 / efficiency * 0.5 * 8.76 * 0.30, abs=1
    )


def test_check_starts_from_the_same_recipe_as_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """``--workload llama-3-8b`` is LoRA on 2,048-token sequences with full checkpointing
    in memory/predict/suggest and the window; check used the preset's 8,192 tokens without
    checkpointing (75.8 GiB, FAIL) for the same build."""
    main(["memory", "--workload", "llama-3-8b", "--gpu", "RTX 4090", "--gpus", "2", "--json"])
    memory = json.loads(capsys.readouterr().out)
    main(["check", "--default", "--workload", "llama-3-8b", "--json"])
    report = json.loads(capsys.readouterr().out)
    vram = next(c for c in report["builds"][0]["checks"] if c["id"] == "vram.fit")
    assert vram["severity"] == "pass"
    assert vram["numbers"]["total_gib"] == round(memory["total_gib"], 1)
