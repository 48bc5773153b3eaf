"""``rigforge suggest`` and ``rigforge prices`` end to end (no network)."""

import json
from pathlib import Path

import pytest

from core.catalog import load_catalog
from core.cli import main


def test_prices_set_then_suggest_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "o.json"
    for part, usd in (
        ("corsair-vengeance-ddr5-5600-2x32gb", "180"),
        ("corsair-hx1500i-2025", "350"),
        ("asus-proart-x870e-creator-wifi", "480"),
    ):
        assert main(["prices", "set", part, usd, "--overrides", str(overrides)]) == 0
    capsys.readouterr()
    args = ["suggest", "--workload", "resnet50-v1.5", "--budget", "8000", "--json"]
    args += ["--overrides", str(overrides), "--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["front"] and data["best"]["cost_usd"] <= 8000
    assert data["skipped"]["unpriced"] > 0
    assert data["front"][0]["reasons_text"]


def test_prices_show_marks_override(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "o.json"
    main(["prices", "set", "corsair-rm850x-2021", "100", "--overrides", str(overrides)])
    capsys.readouterr()
    cache = str(tmp_path / "c")
    main(
        [
            "prices",
            "show",
            "--json",
            "--category",
            "psu",
            "--overrides",
            str(overrides),
            "--cache-dir",
            cache,
        ]
    )
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["parts"]}
    assert rows["corsair-rm850x-2021"]["origin"] == "override"
    assert rows["corsair-rm850x-2021"]["usd"] == 100
    other = load_catalog().psu("corsair-rm1000x-2021")
    assert rows["corsair-rm1000x-2021"]["origin"] == "catalog"
    assert rows["corsair-rm1000x-2021"]["usd"] == other.price.usd


@pytest.mark.parametrize(
    "given",
    [["--task", "lora", "--seq-len", "2048"], []],
    ids=["chosen-length", "preset-recipe"],
)
def test_suggest_llm_lora_for_3000_usd(
    given: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Llama-3 8B LoRA at 2,048 tokens for 3,000 USD: the CLI sets the task and length the
    user asks for, and with none given starts where the window does (LoRA on 2,048-token
    sequences with full checkpointing, core.workloads.recipe_settings), which a 24 GB card
    holds; at the preset's 8,192 tokens without checkpointing no card in that budget would.
    Every build on the front runs that workload, fully priced within the budget."""
    args = ["suggest", "--workload", "Llama-3 8B", *given, "--budget", "3000", "--json"]
    args += ["--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["front"]
    for item in data["front"]:
        assert item["workload"]["task"] == "lora"
        assert item["workload"]["seq_len"] == 2048
        assert item["workload"]["checkpointing"] == "full"
        assert item["cost_usd"] is not None and item["cost_usd"] <= 3000


def test_suggest_rejects_an_impossible_workload_setting(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["suggest", "--workload", "Llama-3 8B", "--task", "bogus", "--budget", "3000"])
    assert stop.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_an_empty_front_says_gpu_memory_binds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Llama-3 8B LoRA at its full 8,192 tokens with the default stack: the fp32 logits
    alone are 8,192 x 128,256 x 16 B = 16.8 GB beside 16 GB of bf16 weights, more than any
    card a 3,000 USD build can hold, so the front is empty and the text names the cause and
    what to change instead of leaving the user with a bare 'no build'."""
    args = ["suggest", "--workload", "Llama-3 8B", "--task", "lora", "--seq-len", "8192"]
    args += ["--budget", "3000", "--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "No fully priced build meets the budget" in out
    assert "run out of GPU memory" in out and "shorter sequence length" in out


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--budget", "100000001", "100000001 must be at least 1 and at most 100,000,000"),
        ("--budget", "1e9", "1e9 must be at least 1 and at most 100,000,000"),
        ("--max-gpus", "9", "9 must be between 1 and 8"),
        ("--max-gpus", "16", "16 must be between 1 and 8"),
    ],
)
def test_suggest_limits_are_refused_when_the_command_line_is_read(
    option: str, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser took --budget up to 1e8 and --max-gpus up to 16 while the search refused
    a budget of 1e8 and more than 8 GPUs from inside ("Max gpus: Input should be …")."""
    args = ["suggest", "--workload", "resnet-50", "--budget", "4000", option, value]
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: {message}" in err


def test_the_largest_budget_and_gpu_count_the_parser_takes_are_searchable() -> None:
    from core.models.suggest import MAX_BUDGET_USD, MAX_SUGGEST_GPUS, SuggestRequest

    request = SuggestRequest(budget_usd=MAX_BUDGET_USD, max_gpus=MAX_SUGGEST_GPUS)
    assert request.budget_usd == 100_000_000 and request.max_gpus == 8
