"""Mixture of experts in host RAM, speculative decoding, many streams, launch commands and
the default weights: expected values worked out by hand from the models' configs."""

from __future__ import annotations

import dataclasses

import pytest

from core.calc.inference import inference_memory
from core.calc.inference.constants import FITTED
from core.calc.inference.launch import launch_command
from core.calc.inference.memory import memory_fixes
from core.calc.inference.model import GIB, LlmShape
from core.calc.rig import rig_for, serving_speed
from core.catalog import load_catalog
from core.models.workload import Serving, default_weights
from core.workloads import find_preset, make_workload

CATALOG = load_catalog()
PER_EXPERT = 3 * 2880 * 2880
"""gpt-oss-120b: one expert's gate, up and down projections (hidden 2880, expert 2880)."""


def _served(preset: str, **serving: object):  # type: ignore[no-untyped-def]
    s = Serving(**serving)  # type: ignore[arg-type]
    return make_workload(find_preset(preset), task="inference").model_copy(update={"serving": s})


def test_a_batch_reads_the_union_of_the_experts_it_touches() -> None:
    """gpt-oss-120b routes each token to 4 of 128 experts: one token reads 4; two tokens
    miss a given expert with probability (124/128)^2, so they touch 128 × (1 − 0.93848)
    = 7.875 on average; 64 tokens touch 111.3 — nearly all, not 64 × 4 / 128 of them."""
    shape = LlmShape.of(find_preset("gpt-oss-120b").architecture)
    assert shape.experts_touched(1) == pytest.approx(4.0)
    assert shape.experts_touched(2) == pytest.approx(128 * (1 - (124 / 128) ** 2))
    assert shape.experts_touched(2) == pytest.approx(7.875, abs=1e-3)
    assert shape.experts_touched(64) == pytest.approx(111.3, abs=0.1)


def test_n_cpu_moe_counts_layers_as_llama_cpp_does() -> None:
    """DeepSeek-V3's first three layers are dense (first_k_dense_replace 3): the first ten
    layers hold seven MoE layers; gpt-oss-120b has 36 layers, all MoE."""
    deepseek = LlmShape.of(find_preset("deepseek-v3").architecture)
    assert deepseek.host_moe_layers(10) == 7
    assert deepseek.host_moe_layers(2) == 0
    oss = LlmShape.of(find_preset("gpt-oss-120b").architecture)
    assert oss.host_moe_layers(40) == 36


def test_experts_in_host_ram_leave_the_gpu_and_are_read_per_active_expert() -> None:
    """All 36 layers' experts of gpt-oss-120b in MXFP4 (4.25 bits): 36 × 128 × 24,883,200
    × 0.53125 bytes = 60.91 GB leave the GPU. A token then reads 36 × 4 experts on the
    host, 1.9036 GB, at 100 GB/s × 0.6 (the fitted share of the DRAM peak): 31.7 ms; its
    7.17 GFLOP on 8 cores × 50 GFLOP/s take 17.9 ms, so memory sets the pace."""
    shape = LlmShape.of(find_preset("gpt-oss-120b").architecture)
    all_experts = 36 * 128 * PER_EXPERT * 4.25 / 8
    assert shape.host_expert_bytes("mxfp4", 36) == pytest.approx(all_experts)
    w = _served("gpt-oss-120b", weights="mxfp4", n_cpu_moe=36, prompt_len=1, gen_len=1)
    on_gpu = inference_memory(w, w.serving_settings, 32.0, 1)
    plain = inference_memory(w, w.serving_settings.model_copy(update={"n_cpu_moe": 0}), 32.0, 1)
    assert plain.weights_gib - on_gpu.weights_gib == pytest.approx(all_experts / GIB)
    assert on_gpu.host_ram_gib == pytest.approx(all_experts / GIB + 2.0)
    rig = rig_for(CATALOG.gpu("RTX 5090"), 1, host_memory_gb_s=100.0, cpu_cores=8)
    speed = serving_speed(w, w.serving_settings, rig, max_streams=1, curves=False)
    host_read = 36 * 4 * PER_EXPERT * 4.25 / 8
    assert speed.step_ms["host"] == pytest.approx(host_read / 60e9 * 1e3, rel=0.01)
    assert speed.bottleneck == "host_memory"


def test_the_experts_fix_moves_the_fewest_layers_that_fit() -> None:
    """gpt-oss-120b needs about 61 GiB; on one 32 GiB card the fix keeps the experts of the
    first N layers in host RAM, N the smallest that fits (N − 1 does not)."""
    w = _served("gpt-oss-120b", weights="mxfp4")
    fixes = memory_fixes(w, w.serving_settings, 32.0, 1)
    fix = next(f for f in fixes if f.code == "serve_experts_to_ram")
    n = int(fix.workload["serving.n_cpu_moe"])  # type: ignore[arg-type]

    def fits(layers: int) -> bool:
        moved = w.serving_settings.model_copy(update={"n_cpu_moe": layers})
        return inference_memory(w, moved, 32.0, 1, with_fixes=False).fits

    assert fits(n) and not fits(n - 1)


def test_speculation_without_draft_cost_yields_the_expected_tokens_per_step() -> None:
    """n-gram drafts cost nothing on the GPU. With K = 4 drafts accepted with α = 0.5 and
    a verify step as cheap as a plain one (verify_token_share 0), a step yields
    1 + α(1 − α^4)/(1 − α) = 1.9375 tokens (Leviathan et al. 2023, Eq. 1): the speed-up
    on a memory-bound 8B model on vLLM (which drafts all K) is that, within 2 %."""
    engines = dict(FITTED.engines)
    engines["vllm"] = dataclasses.replace(engines["vllm"], verify_token_share=0.0)
    free = dataclasses.replace(FITTED, engines=engines)
    w = _served("llama-3.1-8b", engine="vllm", weights="bf16", speculative="ngram",
                draft_tokens=4, acceptance=0.5)  # fmt: skip
    rig = rig_for(CATALOG.gpu("RTX 4090"), 1)
    speed = serving_speed(w, w.serving_settings, rig, max_streams=4, curves=False, constants=free)
    assert speed.speculative_speedup == pytest.approx(1.9375, rel=0.02)
    priced = serving_speed(w, w.serving_settings, rig, max_streams=4, curves=False)
    # each drafted token a verify step checks costs 30 % of a plain step's memory time
    assert priced.speculative_speedup is not None
    assert priced.speculative_speedup < speed.speculative_speedup


def test_streams_past_the_cache_queue_and_wait_for_a_slot() -> None:
    """Past what the KV cache holds, more users do not add output: the same streams run,
    the rest wait, and by Little's law the wait grows with the users."""
    w = _served("llama-3.1-8b", weights="q4_k_m", prompt_len=512, gen_len=256, streams=8)
    rig = rig_for(CATALOG.gpu("RTX 4090"), 1)
    at_cap = serving_speed(w, w.serving_settings, rig, max_streams=8, curves=False)
    more = w.serving_settings.model_copy(update={"streams": 16})
    queued = serving_speed(w, more, rig, max_streams=8, curves=False)
    assert queued.running_streams == 8 and at_cap.running_streams == 8
    assert queued.aggregate_decode_tokens_s == pytest.approx(at_cap.aggregate_decode_tokens_s)
    # Little's law: 16 users at X = aggregate / 256 requests per second spend 16 / X in
    # the system, of which a request's own prompt and 256 steps are its service
    rate = at_cap.aggregate_decode_tokens_s / 256
    prompt_s = 512 / at_cap.prefill_tokens_s
    service = prompt_s + 256 / at_cap.decode_tokens_s_per_stream
    assert queued.ttft_s - at_cap.ttft_s == pytest.approx(16 / rate - service, rel=0.01)


def test_the_launch_command_states_the_plan() -> None:
    w = _served("gpt-oss-120b", weights="mxfp4", n_cpu_moe=24, streams=4, prompt_len=3968,
                gen_len=128, kv_cache="q8_0")  # fmt: skip
    command = launch_command(w, 2)
    assert command is not None
    for part in ("llama-server", "-ngl 999", "-c 16384", "-np 4", "--n-cpu-moe 24",
                 "--split-mode layer", "-ts 1,1", "-fa on", "--cache-type-k q8_0"):  # fmt: skip
        assert part in command
    tp = _served("llama-3.3-70b", engine="vllm", weights="awq-int4", split="tensor",
                 streams=4, prompt_len=8000, gen_len=192)  # fmt: skip
    vllm = launch_command(tp, 4)
    assert vllm is not None
    assert "vllm serve meta-llama/Llama-3.3-70B-Instruct" in vllm
    assert "--tensor-parallel-size 4" in vllm and "--max-model-len 8192" in vllm


def test_default_weights_are_what_people_download() -> None:
    """gpt-oss ships MXFP4 experts (config.json quantization_config): that is the default
    on every engine that loads it; llama.cpp users take Q4_K_M GGUFs of the others, vLLM
    users the 16-bit checkpoint."""
    oss = find_preset("gpt-oss-120b").architecture
    llama = find_preset("llama-3.3-70b").architecture
    assert default_weights("llama.cpp", oss) == "mxfp4"
    assert default_weights("vllm", oss) == "mxfp4"
    assert default_weights("llama.cpp", llama) == "q4_k_m"
    assert default_weights("vllm", llama) == "bf16"
    served = make_workload(find_preset("gpt-oss-120b"), task="inference")
    assert served.serving_settings.weights == "mxfp4"


def test_an_engine_build_selects_its_own_constants() -> None:
    """``--engine-build 2023-12`` predicts with llama.cpp's December 2023 entry (its slower
    prompt kernels: prefill efficiency 0.441 against the current 0.791); other engines
    have one build."""
    assert (
        FITTED.engine("llama.cpp", "NVIDIA", None, "2023-12") is FITTED.engines["llama.cpp@2023-12"]
    )
    rig = rig_for(CATALOG.gpu("H100 PCIe"), 1)
    old = _served("llama-3.1-8b", weights="f16", engine_build="2023-12")
    new = _served("llama-3.1-8b", weights="f16")
    slow = serving_speed(old, old.serving_settings, rig, max_streams=1, curves=False)
    fast = serving_speed(new, new.serving_settings, rig, max_streams=1, curves=False)
    assert slow.prefill_tokens_s < fast.prefill_tokens_s
    with pytest.raises(ValueError, match="one build of vllm"):
        Serving(engine="vllm", weights="bf16", engine_build="2023-12")


def test_llama_cpp_reads_gpt_oss_as_its_gguf_release_stores_it() -> None:
    """ggml-org's gpt-oss GGUFs keep the experts in MXFP4 and the other weights in Q8_0:
    llama-bench prints 11.27 GiB (20b) and 59.02 GiB (120b) (llama.cpp benches/dgx-spark.md),
    12.83 GiB for the 20b "F16" GGUF that keeps them in 16 bits, as OpenAI's release read
    by vLLM does. Within 1 % each."""
    for preset, gguf in (("gpt-oss-20b", 11.27), ("gpt-oss-120b", 59.02)):
        arch = find_preset(preset).architecture
        assert LlmShape.of(arch, "llama.cpp").weight_bytes("mxfp4") / GIB == pytest.approx(
            gguf, rel=0.01
        )
    vllm = LlmShape.of(find_preset("gpt-oss-20b").architecture, "vllm")
    assert vllm.weight_bytes("mxfp4") / GIB == pytest.approx(12.83, rel=0.01)
    # the format's other weights only: a dense model in another format is not affected
    llama = find_preset("llama-3.1-8b").architecture
    assert LlmShape.of(llama, "llama.cpp").weight_bytes("q4_k_m") == pytest.approx(
        LlmShape.of(llama, "vllm").weight_bytes("q4_k_m")
    )


def test_gpt_oss_decode_on_a_dgx_spark_that_the_constants_never_saw() -> None:
    """llama.cpp's benches/dgx-spark.md (build 6918): gpt-oss-20b generates 84.1 tokens/s,
    gpt-oss-120b 59.0 (tg32, empty context). CUDA's constants were fitted on discrete
    GPUs; read as the Q8_0 release, both are within 10 %."""
    from core.calc.system import serve_system
    from core.catalog.systems import find_system

    spark = find_system("DGX Spark")
    for preset, measured in (("gpt-oss-20b", 84.1), ("gpt-oss-120b", 59.0)):
        served = serve_system(spark, _served(preset, weights="mxfp4", gen_len=32))
        speed = served.speed.decode_tokens_s_per_stream
        assert speed == pytest.approx(measured, rel=0.10)
