"""``rigforge predict``: one configuration from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import main


def predict(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    base = ["predict", "--gpu", "H100 SXM5 80GB", "--workload", "BERT-large SQuAD", "--json"]
    assert main([*base, *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_json_names_the_configuration_and_its_curve(capsys: pytest.CaptureFixture[str]) -> None:
    data = predict(capsys, "--count", "8", "--precision", "fp16", "--batch", "32")
    assert (data["gpu"], data["gpus"], data["unit"]) == ("h100-sxm5-80gb", 8, "sequences/s")
    assert data["link"] == "nvswitch"
    curve = data["scaling"]
    assert [p["gpus"] for p in curve] == list(range(1, 9))
    assert curve[-1]["total_throughput"] == pytest.approx(data["total_throughput"])
    assert all(0.0 < p["efficiency"] <= 1.0 for p in curve)
    parts = data["breakdown"]
    summed = sum(v for k, v in parts.items() if k != "step_s")
    assert summed == pytest.approx(parts["step_s"])


def test_host_staged_exchange_is_slower_than_nvswitch(capsys: pytest.CaptureFixture[str]) -> None:
    nvswitch = predict(capsys, "--count", "8", "--batch", "16")
    host = predict(capsys, "--count", "8", "--batch", "16", "--interconnect", "host")
    assert host["link"] == "pcie_host"
    assert host["total_throughput"] < nvswitch["total_throughput"]


def test_unknown_gpu_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["predict", "--gpu", "Imaginary GPU 9000", "--workload", "ResNet-50"])
    assert code != 0
    assert "Imaginary GPU 9000" in capsys.readouterr().err


def test_offloaded_optimizer_is_timed_at_the_hosts_bandwidth_or_an_assumed_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """BERT-large (335 M parameters) with AdamW and fp32 master weights: 28 B per
    parameter through host DRAM at 60 % of its peak. --host-memory-gb-s 100: 335e6 x 28 /
    60e9 = about 0.16 s per step; without it, the assumed two channels of DDR5-5600
    (89.6 GB/s): 335e6 x 28 / 53.76e9 = about 0.17 s, never 0. The JSON says which."""
    recipe = ("--batch", "32", "--parallelism", "zero2", "--offload", "optimizer")
    assumed = predict(capsys, *recipe)
    given = predict(capsys, *recipe, "--host-memory-gb-s", "100")
    on_gpu = predict(capsys, "--batch", "32", "--parallelism", "zero2")
    assert assumed["host_optimizer_timed"] is given["host_optimizer_timed"] is True
    assert (assumed["host_memory_assumed"], assumed["host_memory_gb_s"]) == (True, 89.6)
    assert (given["host_memory_assumed"], given["host_memory_gb_s"]) == (False, 100.0)
    extra = assumed["breakdown"]["offload_s"] - given["breakdown"]["offload_s"]
    # the same bytes at 89.6 instead of 100 GB/s: 0.16 s x (100 / 89.6 - 1)
    assert extra == pytest.approx(335e6 * 28 / 0.6 * (1 / 89.6e9 - 1 / 100e9), rel=0.05)
    assert assumed["total_throughput"] < on_gpu["total_throughput"]
    assert on_gpu["host_optimizer_timed"] is None


def test_pipeline_flags_set_the_layout_and_show_the_bubble(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """BERT-large (24 layers) on 8 GPUs as 2 pipelines of 4 stages with 2 chunks each and
    8 micro-batches per step: the bubble is (4 - 1) / (2 x 8) = 3/16 of the stage's work."""
    args = ("--count", "8", "--batch", "8", "--pp", "4", "--virtual-stages", "2")
    data = predict(capsys, *args, "--grad-accum", "8")
    parts = data["breakdown"]
    assert parts["pipeline_bubble_s"] > 0
    stage = parts["step_s"] - parts["pipeline_bubble_s"] - parts["communication_exposed_s"]
    assert parts["pipeline_bubble_s"] == pytest.approx(stage * 3 / 16, rel=1e-6)
    # more micro-batches per step: a smaller bubble
    longer = predict(capsys, *args, "--grad-accum", "32")
    assert longer["breakdown"]["pipeline_bubble_s"] < parts["pipeline_bubble_s"]
    code = main(
        [
            "predict",
            "--gpu",
            "H100 SXM5 80GB",
            "--workload",
            "BERT-large SQuAD",
            "--count",
            "2",
            "--pp",
            "4",
        ]
    )
    assert code != 0
    assert "pipeline parallel 4 needs 4 GPUs; the build has 2" in capsys.readouterr().err


def test_training_prediction_says_whether_it_fits(capsys: pytest.CaptureFixture[str]) -> None:
    """Full fine-tuning of Llama 3 8B (8.03 B parameters) with AdamW and fp32 master
    weights needs 16 B per parameter before activations, about 120 GiB: not on one 24 GiB
    RTX 4090. BERT-large at batch 32 fits an 80 GB H100. The text says it does not fit."""
    args = ["predict", "--gpu", "RTX 4090", "--workload", "llama-3-8b", "--task", "training"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fits"] is False
    assert data["vram_gib"] > 8.03e9 * 16 / 2**30 > data["vram_capacity_gib"] == 24.0
    assert main(args) == 0
    assert "does not fit" in capsys.readouterr().out
    small = predict(capsys, "--batch", "32")
    assert small["fits"] is True and small["vram_gib"] < small["vram_capacity_gib"]


def test_text_output_never_carries_a_files_control_characters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A build named "\\x1b]0;pwned\\x07\\x1b[31mRED" (a terminal title and colour escape)
    is printed with its control characters shown as text, so it cannot retitle or
    recolour the terminal; the name is still readable."""
    example = Path(__file__).parents[3] / "resources" / "examples" / "single-rtx-4090.json"
    document = json.loads(example.read_text(encoding="utf-8"))
    document["builds"][0]["name"] = "\x1b]0;pwned\x07\x1b[31mRED"
    path = tmp_path / "esc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    main(["check", str(path)])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;pwned\\x07\\x1b[31mRED" in out


def test_offloaded_activations_say_that_the_checkpointing_asked_for_does_not_apply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["predict", "--gpu", "RTX 4090", "--count", "1", "--workload", "llama-3-8b"]
    argv += ["--task", "lora", "--offload", "activations", "--checkpointing", "none", "--json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["breakdown"]["recompute_s"] > 0  # each layer runs again
    assert "--checkpointing none does not apply" in err
    main([*argv[:-2], "full", "--json"])  # full with offload: nothing to say
    assert "does not apply" not in capsys.readouterr().err


def test_no_offload_note_where_the_offload_itself_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["predict", "--gpu", "RTX 4090", "--count", "1", "--workload", "resnet-50"]
    assert main([*argv, "--offload", "activations", "--checkpointing", "none"]) == 2
    err = capsys.readouterr().err
    assert "modelled for training transformers only" in err
    assert "does not apply" not in err


@pytest.mark.parametrize(
    "char",
    ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"],
)
def test_bidirectional_controls_from_a_file_are_escaped(
    char: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A build named "evil<RLO>gnp.exe" would show reversed text ("exe.png") in a terminal
    (Unicode UAX #9; CVE-2021-42574): every embedding, override and isolate is printed as
    its escape, as C0/C1 controls are."""
    example = Path(__file__).parents[3] / "resources" / "examples" / "single-rtx-4090.json"
    document = json.loads(example.read_text(encoding="utf-8"))
    document["builds"][0]["name"] = f"evil{char}gnp.exe"
    path = tmp_path / "bidi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    main(["check", str(path)])
    out = capsys.readouterr().out
    assert char not in out
    assert f"evil\\u{ord(char):04x}gnp.exe" in out


def _json_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main(argv)
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


SERVING_KEYS = (
    "prefill_tokens_s",
    "ttft_s",
    "decode_tokens_s_per_stream",
    "aggregate_decode_tokens_s",
    "max_streams",
)


def test_predict_on_a_build_prints_checks_figures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """For the same build and workload, ``predict FILE`` and ``check FILE --json`` print
    the same figures, and they are the analysis the window shows (``analyze``): the
    build's slots, host memory and power limit, not an assumed machine. gpt-oss-120b
    with 40 GiB of its weights in host RAM reads them at the build's DRAM bandwidth."""
    from core.calc import analyze
    from core.catalog import load_catalog
    from core.catalog.builds import default_build
    from core.files.io import save_file
    from core.models.session import Session
    from core.workloads import find_preset, make_workload

    catalog = load_catalog()
    build = default_build(catalog)
    workload = make_workload(
        find_preset("gpt-oss-120b"),
        task="inference",
        serving={"weights": "mxfp4", "offload_gib": 40.0, "prompt_len": 512, "gen_len": 128},
    )
    path = tmp_path / "served.json"
    save_file(path, Session(builds=(build,), workload=workload))
    predicted = _json_of(capsys, ["predict", str(path), "--json"])
    checked = _json_of(capsys, ["check", str(path), "--json"])["builds"][0]
    window = analyze(build, workload, None, catalog).inference
    assert window is not None
    for key in SERVING_KEYS:
        assert predicted[key] == checked[key] == getattr(window.speed, key), key
    assert predicted["host_memory_assumed"] is False
    # 8 channels of DDR5 at the kit's speed, not the assumed two channels
    assert predicted["host_memory_gb_s"] > 89.6
    assumed = _json_of(
        capsys,
        [
            *("predict", "--gpu", build.gpu.id, "--count", "2", "--workload", "gpt-oss-120b"),
            *("--task", "inference", "--weights", "mxfp4", "--offload-gb", "40", "--json"),
        ],
    )
    assert assumed["host_memory_assumed"] is True and assumed["host_memory_gb_s"] == 89.6
    assert assumed["decode_tokens_s_per_stream"] < predicted["decode_tokens_s_per_stream"]


def test_predict_and_check_agree_on_training(
    capsys: pytest.CaptureFixture[str],
) -> None:
    predicted = _json_of(capsys, ["predict", "--default", "--workload", "resnet50", "--json"])
    checked = _json_of(capsys, ["check", "--default", "--workload", "resnet50", "--json"])
    assert predicted["total_throughput"] == checked["builds"][0]["total_throughput"]
    assert checked["builds"][0]["total_throughput"] == checked["builds"][0]["throughput"]["total"]


def test_a_build_file_brings_its_own_machine(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["predict", "--default", "--gpu", "RTX 3090", "--workload", "resnet50"])
    assert code == 2
    assert "a build file brings its own" in capsys.readouterr().err


def test_a_command_imports_only_its_own_module() -> None:
    """Building the parser for ``schema`` does not import the analysis commands (each
    command's module is imported only when it runs)."""
    import subprocess
    import sys

    code = (
        "import sys; from core.cli import build_parser; "
        "build_parser(argv=['schema']); "
        "print(sorted(m for m in sys.modules if m.startswith('core.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "core.cli.schema" in out
    for other in ("core.cli.predict", "core.cli.check", "core.cli.suggest", "core.cli.memory"):
        assert other not in out
