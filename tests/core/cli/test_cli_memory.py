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
