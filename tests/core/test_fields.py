"""``core.fields``: each setting declared once, and the rules that move settings together."""

from __future__ import annotations

import argparse

import pytest

from core import fields
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.cli.options import add_workload_options, workload_from
from core.models.workload import Workload
from core.workloads import find_preset, make_workload

CATALOG = load_catalog()


def _workload(preset: str, **settings: object) -> Workload:
    return make_workload(find_preset(preset), **settings)


def test_every_field_names_a_model_field_and_has_words() -> None:
    """The file key of each field is a field of the model (or of its block), so the table
    cannot drift from the file format; labels, help and flags are unique."""
    blocks = {"serving": "serving_settings", "lora": "lora_settings"}
    w = _workload("llama-3.1-8b", task="inference")
    for f in fields.WORKLOAD_FIELDS:
        if f.block == "target":
            continue
        holder = getattr(w, blocks[f.block]) if f.block else w
        assert f.name in type(holder).model_fields, f.key
        assert f.label and f.help
    flags = [f.flag for f in fields.WORKLOAD_FIELDS if f.flag]
    assert len(flags) == len(set(flags))
    labels = [f.label for f in (*fields.WORKLOAD_FIELDS, *fields.BUILD_FIELDS)]
    assert len(labels) == len(set(labels))
    for f in fields.BUILD_FIELDS:
        assert f.key in type(default_build(CATALOG)).model_fields


def test_what_applies_to_training_lora_and_serving() -> None:
    """Training-only settings are off for inference; adapters only for LoRA/QLoRA; a
    served LLM is sized by its streams and weights, so batch and precision are off."""
    train = _workload("resnet50-v1.5")
    lora = _workload("llama-3-8b", task="lora")
    serve = _workload("llama-3.1-8b", task="inference")
    on = {
        name: {f.key for f in fields.WORKLOAD_FIELDS if fields.applies(f, w)}
        for name, w in (("train", train), ("lora", lora), ("serve", serve))
    }
    assert {"optimizer", "parallelism", "batch_size"} <= on["train"]
    assert "lora.rank" not in on["train"] and "lora.rank" in on["lora"]
    assert "seq_len" not in on["train"]  # an image model has no sequence length
    assert on["serve"] & {"batch_size", "precision", "optimizer", "stack"} == set()
    assert {"serving.streams", "serving.weights", "serving.flash_attention"} <= on["serve"]
    assert "pp_virtual_stages" not in on["lora"]  # no pipeline: no chunks
    vllm = serve.model_copy(
        update={"serving": serve.serving_settings.model_copy(update={"engine": "vllm"})}
    )
    flash = fields.field("serving.flash_attention")
    assert fields.why_not(flash, vllm) == (
        "only llama.cpp has a choice: the other engines always fuse attention"
    )


def test_changes_move_the_settings_that_follow() -> None:
    """QLoRA keeps the adapters on a 4-bit base; vLLM does not load q4_k_m, so its
    nearest format (awq-int4, 4.25 bits vs 4.83) comes with it; one pipeline stage resets
    the chunks; a target amount of 0 becomes 1 epoch."""
    lora = _workload("llama-3-8b", task="lora", lora={"rank": 32, "targets": ("q", "v")})
    update = fields.changes(fields.field("task"), lora, "qlora")
    assert update["lora"]["base_bits"] == 4 and update["lora"]["rank"] == 32
    serve = _workload(
        "llama-3.1-8b", task="inference", serving={"engine": "llama.cpp", "weights": "q4_k_m"}
    )
    update = fields.changes(fields.field("serving.engine"), serve, "vllm")
    assert update["serving"]["weights"] == "awq-int4"
    piped = _workload("gpt2-small", pp_degree=2, pp_virtual_stages=2)
    assert fields.changes(fields.field("pp_degree"), piped, 1) == {
        "pp_degree": 1,
        "pp_virtual_stages": 1,
    }
    train = _workload("resnet50-v1.5")
    assert fields.changes(fields.field("target.kind"), train, "epochs") == {
        "target": {"epochs": 1.0}
    }
    assert fields.changes(fields.field("seq_len"), lora, 0) == {"seq_len": None}


def test_build_count_keeps_no_more_bridges_than_pairs() -> None:
    build = default_build(CATALOG).model_copy(update={"nvlink_bridges": 2, "gpu_count": 4})
    assert fields.build_changes(fields.field("gpu_count"), build, 3) == {
        "gpu_count": 3,
        "nvlink_bridges": 1,
    }
    assert fields.build_changes(fields.field("gpu_power_limit_w"), build, 0) == {
        "gpu_power_limit_w": None
    }


def test_words_for_undo_and_the_sheet() -> None:
    assert fields.edit_words(fields.field("gpu_count"), 3) == "Set GPU count to 3"
    assert fields.edit_words(fields.field("seq_len"), 0) == "Set sequence length to model default"
    assert (
        fields.edit_words(fields.field("serving.prompt_len"), 4096)
        == "Set prompt length to 4,096 tokens"
    )
    rows = dict(
        fields.workload_rows(_workload("resnet50-v1.5", batch_size=64, target={"epochs": 90}))
    )
    assert rows["Target"] == "90 epochs" and rows["Batch"] == "64"
    assert "Streams" not in rows


def test_every_flag_is_an_option_and_reaches_the_workload() -> None:
    """The options are made from the table: each flag parses, and ``workload_from`` puts
    the value where the table says."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--workload")
    add_workload_options(parser)
    args = parser.parse_args(
        [
            "--workload",
            "llama-3.1-8b",
            "--task",
            "inference",
            "--engine",
            "vllm",
            "--weights",
            "fp8",
            "--streams",
            "8",
            "--prompt-len",
            "1024",
        ]
    )
    w = workload_from(args)
    s = w.serving_settings
    assert (s.engine, s.weights, s.streams, s.prompt_len) == ("vllm", "fp8", 8, 1024)
    args = parser.parse_args(
        ["--workload", "llama-3-8b", "--lora-rank", "8", "--parallelism", "zero2", "--zero-offload"]
    )
    w = workload_from(args)
    assert w.lora_settings.rank == 8 and w.cpu_offload
    with pytest.raises(SystemExit):
        parser.parse_args(["--seq-len", "0"])  # on the command line, not given is "default"
