"""``rigforge memory``: the adapters a LoRA run asks for."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.cli import main

GIB = 2**30


def memory(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    base = ["memory", "--workload", "Llama-2 7B", "--seq-len", "512", "--json"]
    assert main([*base, *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_lora_targets_and_rank_set_the_adapters(capsys: pytest.CaptureFixture[str]) -> None:
    """Llama-2 7B (32 layers, hidden 4096, MLP 11008), rank 64 on every linear layer:
    32 x 64 x (4 x (4096 + 4096) + 3 x (4096 + 11008)) = 159,907,840 adapter weights, each
    with a 4-byte gradient; the default, rank 16 on q and v, has 32 x 16 x 2 x 8192 =
    8,388,608."""
    wide = memory(capsys, "--task", "lora", "--lora-rank", "64", "--lora-targets", "all")
    assert wide["breakdown"]["gradients_gib"] == pytest.approx(159_907_840 * 4 / GIB)
    plain = memory(capsys, "--task", "lora")
    assert plain["breakdown"]["gradients_gib"] == pytest.approx(8_388_608 * 4 / GIB)
    # QLoRA starts from rank 64 on every linear layer; a rank alone keeps those targets
    qlora = memory(capsys, "--task", "qlora", "--lora-rank", "16")
    assert qlora["breakdown"]["gradients_gib"] == pytest.approx(159_907_840 / 4 * 4 / GIB)


def test_lora_options_outside_lora_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["memory", "--workload", "Llama-2 7B", "--json"]
    assert main([*base, "--task", "training", "--lora-rank", "8"]) != 0
    assert "--task lora or qlora" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*base, "--task", "lora", "--lora-targets", "q,bogus"])
    assert "give projections from q, k, v, o, gate, up, down" in capsys.readouterr().err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main([*args, "--json"])
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_lora_starts_from_the_common_recipe_as_the_window_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Llama 3.1 8B's preset context is 131,072 tokens; a LoRA run starts, as in the
    window, from 2,048-token sequences with full checkpointing (PEFT/TRL and torchtune
    LoRA recipes on one consumer GPU), which fits a 24 GB card; options given win."""
    base = ["memory", "--workload", "Llama 3.1 8B", "--task", "lora", "--gpu", "rtx-4090"]
    default = run_json(capsys, *base)
    stated = run_json(capsys, *base, "--seq-len", "2048", "--checkpointing", "full")
    assert default["breakdown"] == stated["breakdown"]
    assert default["fits"]
    assert "checkpointing_full" not in [f["code"] for f in default["fixes"]]
    longer = run_json(capsys, *base, "--seq-len", "8192", "--checkpointing", "full")
    # the checkpointed layer inputs grow with the tokens: 4 x as many
    assert longer["breakdown"]["activations_gib"] > 3 * default["breakdown"]["activations_gib"]
    bare = run_json(capsys, *base, "--checkpointing", "none")
    assert "checkpointing_full" in [f["code"] for f in bare["fixes"]]
    assert bare["breakdown"]["activations_gib"] > 2 * default["breakdown"]["activations_gib"]


def test_predict_starts_from_the_same_recipe(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["predict", "--gpu", "rtx-4090", "--count", "1", "--workload", "Llama 3.1 8B"]
    default = run_json(capsys, *base, "--task", "lora")
    stated = run_json(
        capsys, *base, "--task", "lora", "--seq-len", "2048", "--checkpointing", "full"
    )
    assert default == stated


def test_fixes_name_what_they_cost_in_throughput(capsys: pytest.CaptureFixture[str]) -> None:
    """GPT-2 XL at batch 16 does not fit a 24 GiB card; each workload fix says what it
    costs. Full checkpointing runs the forward once more: a step of forward F and backward
    about 2F becomes 4F instead of 3F, about -25 % (Chen et al. 2016); a fix that changes
    the GPU count names no cost on this one GPU."""
    args = ["memory", "--workload", "GPT-2 1.5B", "--gpu", "RTX 4090", "--batch", "16"]
    assert main([*args, "--precision", "bf16", "--json"]) == 1
    fixes = {f["code"]: f for f in json.loads(capsys.readouterr().out)["fixes"]}
    assert -33 <= fixes["checkpointing_full"]["numbers"]["throughput_pct"] <= -15
    assert "throughput_pct" not in fixes["add_gpus_zero3"]["numbers"]
    assert main([*args, "--precision", "bf16"]) == 1
    full = next(line for line in capsys.readouterr().out.splitlines() if "full gradient" in line)
    assert full.endswith("% throughput") and "−" in full
