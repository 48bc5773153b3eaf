"""Prebuilt unified-memory systems: the catalog, serving on one or two of them, backends."""

from __future__ import annotations

import json

import pytest

from core.calc.inference.constants import FITTED
from core.calc.system import accelerator, serve_system
from core.catalog.systems import find_system, load_systems
from core.errors import LookupFailed, RigForgeError
from core.models.common import Price
from core.models.workload import Serving
from core.workloads import find_preset, make_workload
from gui.main import main as rigforge


def _served(preset: str, **serving: object):  # type: ignore[no-untyped-def]
    s = Serving(**serving)  # type: ignore[arg-type]
    return make_workload(find_preset(preset), task="inference").model_copy(update={"serving": s})


def test_every_system_is_sourced_and_every_known_price_dated() -> None:
    systems = load_systems()
    assert {"dgx-spark-128gb", "framework-desktop-128gb", "mac-studio-m3-ultra-96gb"} <= {
        s.id for s in systems
    }
    for s in systems:
        assert s.sources and s.compute_basis
        assert s.price.usd is None or s.price.as_of is not None
        assert s.gpu_default_gb <= s.gpu_max_gb <= s.memory_gb


def test_names_resolve_as_parts_do() -> None:
    assert find_system("DGX Spark").id == "dgx-spark-128gb"
    assert find_system("framework desktop").id == "framework-desktop-128gb"
    assert find_system("Mac Studio M3 Ultra").id == "mac-studio-m3-ultra-96gb"
    with pytest.raises(LookupFailed, match="did you mean"):
        find_system("DGX Sparc")


def test_decode_on_a_dgx_spark_is_bounded_by_its_memory() -> None:
    """Llama 3.1 8B Q4_K_M reads about 4.9 GB a token: at 273 GB/s no more than 56 tokens/s,
    and the fitted share of the peak (0.96) with llama.cpp's per-layer costs leaves less."""
    spark = find_system("DGX Spark")
    served = serve_system(spark, _served("llama-3.1-8b", weights="q4_k_m"))
    ceiling = 273e9 / (8.03e9 * 4.8944 / 8)
    assert 0.6 * ceiling < served.speed.decode_tokens_s_per_stream < ceiling
    assert served.memory.fits and served.parts_usd == spark.price.usd


def test_offload_makes_no_sense_on_unified_memory() -> None:
    with pytest.raises(RigForgeError, match="one memory for CPU and GPU"):
        serve_system(find_system("DGX Spark"), _served("gpt-oss-120b", n_cpu_moe=10))


def test_a_mac_needs_its_wired_limit_raised_past_the_default_share() -> None:
    """Llama 3.3 70B at Q8_0 takes about 70 GiB; the 128 GB Framework Desktop gives its GPU
    half of the memory on Linux as shipped (64 GB): the plan says to raise the GTT size,
    and fits within the 120 GiB it can be set to."""
    from core.text.systems import memory_share_note

    system = find_system("Framework Desktop")
    served = serve_system(system, _served("llama-3.3-70b", weights="q8_0"))
    assert served.memory.fits and served.memory.total_gib > 64
    note = memory_share_note(system, served.memory.total_gib, served.memory.fits)
    assert note is not None and "ttm.pages_limit" in note


def test_two_sparks_split_the_layers_over_their_200_gbit_link() -> None:
    """ConnectX-7 at 200 Gb/s is 25 GB/s a direction; a pair holds what one cannot, and
    its price counts the cable too, never the systems' alone."""
    spark = find_system("DGX Spark")
    served = serve_system(spark, _served("qwen3-235b-a22b", weights="q4_k_m"), nodes=2)
    alone = serve_system(spark, _served("qwen3-235b-a22b", weights="q4_k_m"))
    assert served.link_gb_s == pytest.approx(25.0)
    assert served.memory.fits and not alone.memory.fits
    assert served.parts_usd is not None and served.parts_usd > 2 * (spark.price.usd or 0)


def test_backends_have_their_own_constants_and_engines_check_them() -> None:
    rocm = FITTED.engine("llama.cpp", "AMD")
    assert rocm is FITTED.engines["llama.cpp@rocm"]
    assert FITTED.engine("llama.cpp", "AMD", "vulkan") is FITTED.engines["llama.cpp@vulkan"]
    assert FITTED.engine("llama.cpp", "Apple") is FITTED.engines["llama.cpp@metal"]
    assert FITTED.engine("llama.cpp", "NVIDIA") is FITTED.engines["llama.cpp"]
    with pytest.raises(ValueError, match="vllm does not run on metal"):
        Serving(engine="vllm", weights="bf16", backend="metal")
    with pytest.raises(RigForgeError, match="runs cuda, vulkan, not metal"):
        serve_system(find_system("DGX Spark"), _served("llama-3.1-8b", backend="metal"))
    assert accelerator(find_system("Mac Studio M3 Ultra")).vendor == "Apple"


def test_predict_answers_for_a_system(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["predict", "--system", "DGX Spark", "--workload", "Llama 3.1 8B", "--task",
            "inference", "--json"]  # fmt: skip
    assert rigforge(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["system"] == "dgx-spark-128gb" and data["backend"] == "cuda"
    for key in ("prefill_tokens_s", "ttft_s", "decode_tokens_s_per_stream", "max_streams",
                "gpu_memory_gib", "price_usd", "launch_command", "expected_error_pct"):  # fmt: skip
        assert data[key] is not None
    # --gpu and --system name the machine two ways: refused together
    with pytest.raises(SystemExit):
        rigforge(["predict", "--gpu", "RTX 4090", "--system", "DGX Spark", "--workload", "x"])
    assert rigforge(["memory", "--task", "inference", "--system", "Mac Studio M3 Ultra",
                     "--workload", "Llama 3.3 70B"]) == 0  # fmt: skip
    assert "fits" in capsys.readouterr().out


def _checks(served) -> dict[str, tuple[str, str]]:  # type: ignore[no-untyped-def]
    return {c.id: (c.severity, c.reason) for c in served.checks}


def test_a_system_is_judged_on_the_checks_that_apply_to_it() -> None:
    """No slots, PSU or cables to check: the accelerator's memory share, the wall circuit
    and the drive. Llama 3.1 8B (q4_k_m, about 5 GB) on a DGX Spark: all 128 GB are the
    GPU's as shipped, 90 W under load is far below a 15 A circuit's 1,440 W, and the
    weights fit its 4 TB drive."""
    spark = serve_system(find_system("DGX Spark"), _served("llama-3.1-8b", weights="q4_k_m"))
    assert _checks(spark) == {
        "system.memory": ("pass", "system_memory_fits"),
        "power.circuit": ("pass", "circuit_ok"),
        "system.storage": ("pass", "system_storage_ok"),
    }
    assert spark.verdict == "pass"


def test_more_memory_than_shipped_is_an_advisory_that_says_how_more_than_the_most_fails() -> None:
    """Llama 3.3 70B at q8_0 (8.5 bits x 70.6 B = 75 GB, 70 GiB) on a Framework Desktop:
    more than the 64 GiB its GPU gets as shipped, within the 120 GiB it can be given (the
    advisory names the setting); at q4_k_m on a 24 GB Mac mini (16 GiB at most) it does
    not fit at all, and the verdict says so."""
    framework = find_system("Framework Desktop")
    big = serve_system(framework, _served("llama-3.3-70b", weights="q8_0"))
    assert 64 < big.memory.total_gib < 120
    assert _checks(big)["system.memory"] == ("warn", "system_memory_share")
    assert big.verdict == "pass"
    share = next(c for c in big.checks if c.id == "system.memory")
    assert share.numbers["how"] == framework.gpu_share_how
    mini = serve_system(find_system("mac-mini-m4-pro-24gb"), _served("llama-3.3-70b"))
    assert _checks(mini)["system.memory"] == ("fail", "system_memory_exceeds")
    assert mini.verdict == "fail"


def test_circuit_drive_price_and_link_checks_of_a_system() -> None:
    """A system drawing 1,500 W under load on a US 15 A circuit (1,440 W continuous) fails
    it, and the fix names the circuits that carry 1,500 W within 90 % (US 20 A: 1,728 W;
    the 230 V ones); a 20 GB drive does not hold 43 GB of Llama 3.3 70B q4_k_m; an unpriced
    system and a pair's cable are stated, never counted as zero."""
    from core.models.settings import AnalysisSettings

    spark = find_system("DGX Spark")
    hot = spark.model_copy(update={"load_w": 1_500.0, "storage_gb": 20.0})
    served = serve_system(hot, _served("llama-3.3-70b"), settings=AnalysisSettings())
    circuit = next(c for c in served.checks if c.id == "power.circuit")
    assert (circuit.severity, circuit.reason) == ("fail", "circuit_overloaded")
    assert circuit.fix is not None and circuit.fix.code == "use_bigger_circuit"
    assert "us-120v-20a" not in str(circuit.fix.numbers["circuits"])  # labels, not ids
    assert "120 V / 20 A" in str(circuit.fix.numbers["circuits"])
    assert _checks(served)["system.storage"] == ("fail", "system_storage_short")
    assert served.verdict != "pass"
    unpriced = spark.model_copy(
        update={
            "price": Price(usd=None, kind="unknown", source="no dated price read"),
            "pair_cable": None,
        }
    )
    pair = serve_system(unpriced, _served("llama-3.3-70b"), nodes=2)
    assert _checks(pair)["system.price"] == ("info", "system_price_unknown")
    assert _checks(pair)["system.link"] == ("info", "system_pair_link")


def test_fine_tuning_memory_on_a_system(capsys: pytest.CaptureFixture[str]) -> None:
    """The training memory model, against the most the system's GPU can be given: Llama
    3.1 8B LoRA (about 15 GiB of bf16 weights and small adapters) fits a DGX Spark's
    128 GiB; full fine-tuning it with Adam (at least 8.03 B x 16 bytes = 128 GB of weights,
    master copy, gradients and moments) cannot fit the 16 GiB a 24 GB Mac mini's GPU gets.
    Its speed is not estimated, and predict says where the memory is."""
    argv = ["memory", "--system", "DGX Spark", "--workload", "llama-3.1-8b", "--task", "lora",
            "--json"]  # fmt: skip
    assert rigforge(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["capacity_gib"] == 128 and data["fits"] and 15 < data["total_gib"] < 40
    argv = ["memory", "--system", "mac-mini-m4-pro-24gb", "--workload", "llama-3.1-8b",
            "--task", "training", "--json"]  # fmt: skip
    assert rigforge(argv) == 1
    data = json.loads(capsys.readouterr().out)
    assert not data["fits"] and data["total_gib"] > 8.03e9 * 16 / 2**30
    argv = ["predict", "--system", "DGX Spark", "--workload", "llama-3.1-8b", "--task", "lora"]
    assert rigforge(argv) == 2
    assert "rigforge memory --system" in capsys.readouterr().err


def test_two_nodes_in_tensor_parallel_pay_two_all_reduces_per_layer_over_the_network(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """vLLM tensor parallel over two DGX Sparks: every layer of Llama 3.3 70B (80 layers)
    all-reduces twice, each paying at least the network's assumed 200 µs, so a token takes
    at least 80 x 2 x 200 µs = 32 ms (at most 31.25 tokens/s), and the launch command
    starts a Ray cluster and asks for two-way tensor parallelism."""
    spark = find_system("DGX Spark")
    workload = _served("llama-3.3-70b", engine="vllm", weights="awq-int4", split="tensor")
    pair = serve_system(spark, workload, nodes=2)
    assert pair.split == "tensor"
    assert pair.speed.decode_tokens_s_per_stream < 1 / (80 * 2 * 200e-6)
    argv = ["predict", "--system", "DGX Spark", "--nodes", "2", "--workload", "llama-3.3-70b",
            "--task", "inference", "--engine", "vllm", "--weights", "awq-int4", "--split",
            "tensor", "--json"]  # fmt: skip
    assert rigforge(argv) == 0
    command = json.loads(capsys.readouterr().out)["launch_command"]
    assert "ray start --head" in command and "--tensor-parallel-size 2" in command


def test_a_system_price_over_a_year_old_shows_its_age() -> None:
    """As a part's does: 400 days is "13 months old" (400 / 30.4), and a price from last
    month carries no mark."""
    from datetime import date, timedelta

    from core.text.systems import system_line

    spark = find_system("DGX Spark")
    old = spark.model_copy(
        update={
            "price": Price(
                usd=4_000,
                as_of=date.today() - timedelta(days=400),
                kind="msrp",
                source="a dated list price",
            ),
            "observations": (),
        }
    )
    assert "stale: 13 months old" in system_line(old)
    fresh = old.model_copy(
        update={"price": old.price.model_copy(update={"as_of": date.today() - timedelta(30)})}
    )
    assert "stale" not in system_line(fresh)


def test_a_pairs_price_is_both_systems_and_their_cable() -> None:
    """Two DGX Sparks ($4,699 each, NVIDIA's list price) and the 0.5 m QSFP112 cable that
    links them ($159): $9,557; two Framework Desktops, whose USB4 cable no source prices,
    have no total (never the two systems alone)."""
    workload = _served("llama-3.1-8b")
    pair = serve_system(find_system("DGX Spark"), workload, nodes=2)
    assert pair.parts_usd == pytest.approx(2 * 4_699 + 159)
    assert _checks(pair)["system.link"] == ("info", "system_pair_cable")
    assert serve_system(find_system("Framework Desktop"), workload, nodes=2).parts_usd is None
