"""LLM serving: KV cache and weights by hand, the headline measurements, splits, fixes,
offload and host RAM."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.calc import analyze
from core.calc.inference import inference_memory, is_serving
from core.calc.inference.formats import FORMATS, KV_BYTES
from core.calc.inference.model import GIB, LlmShape
from core.calc.inference.speed import sm_count
from core.calc.rig import rig_for, serving_speed
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.workload import Serving
from core.text.checks import render_check
from core.text.fixes import fix_text
from core.workloads import find_preset, make_workload

CATALOG = load_catalog()


def inference_speed(w, serving, gpu, count, *, max_streams=0, curves=True, host_gb_s=None):  # type: ignore[no-untyped-def]
    """The serving model on ``count`` x ``gpu`` with no build: each card's own PCIe link,
    the host's DRAM at ``host_gb_s`` (else the stated assumption)."""
    rig = rig_for(gpu, count, host_memory_gb_s=host_gb_s)
    return serving_speed(w, serving, rig, max_streams=max_streams, curves=curves)


def _workload(preset: str, **serving: object):  # type: ignore[no-untyped-def]
    s = Serving(**serving)  # type: ignore[arg-type]
    return make_workload(find_preset(preset), task="inference").model_copy(update={"serving": s})


def test_kv_cache_by_hand() -> None:
    # Llama-3 8B: 32 layers × 8 KV heads × 128 dims × 2 (K and V) × 2 bytes = 131,072 bytes
    # per token (Meta's config.json: num_key_value_heads 8, head_dim 4096 / 32).
    shape = LlmShape.of(find_preset("llama-3-8b").architecture)
    assert shape.kv_bytes(1, "f16") == 131_072
    assert shape.kv_bytes(8192, "f16") == pytest.approx(1.0 * GIB)
    assert shape.kv_bytes(8192, "fp8") == pytest.approx(0.5 * GIB)
    assert KV_BYTES["q8_0"] == 34 / 32  # ggml block_q8_0: 32 int8 + one fp16 scale


def test_latent_attention_and_sliding_window_caches() -> None:
    # DeepSeek-V3 caches kv_lora_rank 512 + qk_rope_head_dim 64 values per token and layer
    # (DeepSeek-V2 paper §2.1): 61 layers × 576 × 2 bytes = 70,272 bytes per token.
    deepseek = LlmShape.of(find_preset("deepseek-v3").architecture)
    assert deepseek.kv_bytes(1, "f16") == 61 * 576 * 2
    # gpt-oss-20b: 12 of 24 layers attend over a 128-token window (config layer_types).
    gpt_oss = LlmShape.of(find_preset("gpt-oss-20b").architecture)
    per_layer_token = 2 * gpt_oss.kv_heads * gpt_oss.head_dim * 2
    assert gpt_oss.kv_bytes(4096, "f16") == per_layer_token * (12 * 4096 + 12 * 128)


def test_weights_bytes_follow_the_format() -> None:
    shape = LlmShape.of(find_preset("llama-3-8b").architecture)
    f16 = shape.weight_bytes("f16")
    assert f16 == pytest.approx(2 * shape.params_total)
    assert shape.weight_bytes("q8_0") == pytest.approx(f16 * 8.5 / 16)
    assert FORMATS["gptq-int4"].bits == 4 + 20 / 128  # 4-bit + fp16 scale + 4-bit zero / 128


def test_rtx_4090_llama3_8b_f16_reads_like_the_published_table() -> None:
    """XiongjieDai's llama-bench table (May 2024): 54.84 tokens/s tg512 and 9,382 tokens/s
    pp512 for Llama-3 8B F16 on one RTX 4090. The model is within 10 % and 15 %."""
    gpu = CATALOG.gpu("RTX 4090")
    tg = _workload("llama-3-8b", prompt_len=1, gen_len=512)
    speed = inference_speed(tg, tg.serving, gpu, 1, curves=False)
    assert speed.decode_tokens_s_per_stream == pytest.approx(54.84, rel=0.10)
    pp = _workload("llama-3-8b", prompt_len=512, gen_len=1)
    assert inference_speed(pp, pp.serving, gpu, 1, curves=False).prefill_tokens_s == (
        pytest.approx(9382, rel=0.15)
    )


def test_generation_slows_as_the_context_grows_and_streams_add_up() -> None:
    gpu = CATALOG.gpu("RTX 4090")
    w = _workload("llama-3-8b", weights="q4_k_m", prompt_len=512, gen_len=512, streams=8)
    speed = inference_speed(w, w.serving, gpu, 1, max_streams=32)
    by_context = [p.tokens_s for p in speed.by_context]
    assert by_context == sorted(by_context, reverse=True)
    assert speed.aggregate_decode_tokens_s > 4 * speed.decode_tokens_s_per_stream
    by_streams = [p.tokens_s for p in speed.by_streams]
    assert by_streams == sorted(by_streams)


def test_two_gpus_split_the_model_never_copy_it() -> None:
    w = _workload("llama-3-70b", weights="q4_k_m", prompt_len=512, gen_len=128)
    one = inference_memory(w, w.serving, 24.0, 1, with_fixes=False)
    two = inference_memory(w, w.serving, 24.0, 2, with_fixes=False)
    assert two.weights_gib == pytest.approx(one.weights_gib / 2)
    assert two.fits and not one.fits


def test_seventy_b_on_two_24_gb_cards_is_offered_four_bit_split() -> None:
    """70B F16 does not fit 2 × 24 GB; the first fix is a 4-bit format split over both."""
    build = default_build(CATALOG)  # 2 × RTX 4090
    w = _workload("llama-3-70b", prompt_len=512, gen_len=128)
    analysis = analyze(build, w, None, CATALOG)
    check = analysis.check("vram.fit")
    assert check is not None and check.severity == "fail" and check.fix is not None
    assert analysis.inference is not None
    fixes = analysis.inference.memory.fixes
    four_bit = [f for f in fixes if f.workload.get("serving.weights") == "q4_k_m"]
    assert four_bit and not four_bit[0].build  # on the build's own 2 GPUs
    text = fix_text(four_bit[0])
    assert "q4_k_m" in text and "split over 2 GPUs" in text and "fits" in text
    assert "gradient" not in text
    assert FORMATS[check.fix.workload["serving.weights"]].bits <= 6  # type: ignore[index]
    # The host needs the process, not a copy of the model per GPU (once: 262 GiB).
    assert analysis.inference is not None and analysis.inference.memory.host_ram_gib < 8


def test_offload_moves_weights_to_host_ram_and_slows_generation() -> None:
    gpu = CATALOG.gpu("RTX 4090")
    base = _workload("llama-3-70b", weights="q4_k_m", prompt_len=512, gen_len=128)
    off = _workload("llama-3-70b", weights="q4_k_m", prompt_len=512, gen_len=128, offload_gib=20.0)
    memory = inference_memory(off, off.serving, 24.0, 1, with_fixes=False)
    assert memory.offloaded_gib == 20.0 and memory.host_ram_gib == pytest.approx(22.0)
    fast = inference_speed(base, base.serving, gpu, 2, curves=False)
    slow = inference_speed(off, off.serving, gpu, 1, host_gb_s=89.6, curves=False)
    assert slow.decode_tokens_s_per_stream < fast.decode_tokens_s_per_stream
    assert slow.bottleneck == "host_memory"


def test_inference_of_a_decoder_is_serving_and_reports_llm_figures() -> None:
    w = _workload("llama-3-8b")
    assert is_serving(w)
    analysis = analyze(default_build(CATALOG), w, None, CATALOG)
    assert analysis.inference is not None and analysis.vram is None
    assert analysis.cost.throughput_unit == "generated tokens/s"
    assert analysis.inference.cost is not None
    assert analysis.inference.cost.usd_per_million_tokens is not None


@pytest.mark.parametrize(
    ("preset", "logged_mib"),
    [("llama-3-8b", 560.0), ("llama-3-70b", 1216.01)],
)
def test_llama_cpp_compute_buffer_matches_its_log(preset: str, logged_mib: float) -> None:
    """llama.cpp (build 2824, flash attention off) logs a CUDA compute buffer of 560 MiB
    for Llama 3 8B and 1,216 MiB for 70B at n_ctx 8192, n_ubatch 512 (XiongjieDai's
    notebooks, resources/benchmarks/llm_engine_overheads.csv). The model's buffers are
    the engine memory less the CUDA context."""
    from core.calc.inference.constants import FITTED
    from core.calc.inference.memory import engine_gib

    shape = LlmShape.of(find_preset(preset).architecture)
    c = FITTED.engines["llama.cpp"]
    serving = Serving(engine="llama.cpp", prompt_len=8191, gen_len=1, flash_attention=False)
    buffers_mib = (engine_gib(shape, serving, c) - c.context_gib) * 1024
    assert buffers_mib == pytest.approx(logged_mib, rel=0.12)


def test_flash_attention_keeps_the_scores_out_of_the_compute_buffer() -> None:
    """With flash attention the 512 x 8,192 x 32-head fp32 score matrix (512 MiB) is never
    materialised: Llama 3 8B's buffer is its micro-batch activations, 512 x 16 B x 4,096
    = 32 MiB, plus one token's fp32 logits, 4 B x 128,256 = 0.49 MiB."""
    from core.calc.inference.constants import FITTED
    from core.calc.inference.memory import engine_gib

    shape = LlmShape.of(find_preset("llama-3-8b").architecture)
    c = FITTED.engines["llama.cpp"]
    serving = Serving(engine="llama.cpp", prompt_len=8191, gen_len=1)
    assert serving.flash_attention
    buffers_mib = (engine_gib(shape, serving, c) - c.context_gib) * 1024
    assert buffers_mib == pytest.approx(32.0 + 4 * 128_256 / 2**20, rel=1e-6)


def test_unfused_attention_rereads_the_cache_for_each_query_head_group() -> None:
    """llama.cpp without flash attention: each of Llama 3 8B's 32 query heads reads the KV
    head it shares with 3 others, so a decode step reads the cache 1 + 3 x share times
    (share = kv_reread_share, the repeated reads that miss L2); Llama 2 7B has one KV
    head per query head (no grouped-query attention), so it reads it once either way."""
    from core.calc.inference.constants import FITTED

    share = FITTED.engines["llama.cpp"].kv_reread_share
    assert 0.0 < share <= 1.0
    gpu = load_catalog().gpu("rtx-4090")
    for preset, groups in (("llama-3-8b", 4), ("llama-2-7b", 1)):
        w = make_workload(find_preset(preset), task="inference")
        kv = {}
        for fa in (True, False):
            serving = Serving(prompt_len=8000, gen_len=2, flash_attention=fa)
            speed = inference_speed(w, serving, gpu, 1)
            kv[fa] = speed.step_ms["kv_cache"]
        assert kv[False] / kv[True] == pytest.approx(1 + (groups - 1) * share, rel=1e-6)


def test_tensorrt_llm_rereads_shared_kv_heads_even_with_fused_attention() -> None:
    """TensorRT-LLM's decode attention runs a block per query head where its XQA kernel
    does not apply, so grouped-query attention still re-reads the shared KV heads
    (``gqa_reread_share``); llama.cpp's and vLLM's fused kernels read each once. Its
    published 0.9.0 runs show why: Mistral 7B (8 KV heads for 32 query heads) served as
    many tokens/s as Llama 2 7B (32 KV heads) at every published setting on an H200
    (20,460 vs 20,618 at 896 requests of 128/128 tokens; 8,950 vs 8,348 at 120 of
    128/2,048), where reading each KV head once would make Mistral's cache 4x cheaper."""
    from core.calc.inference.constants import FITTED

    share = FITTED.engines["tensorrt-llm"].gqa_reread_share
    assert 0.0 < share < 1.0
    assert FITTED.engines["llama.cpp"].gqa_reread_share == 0.0
    assert FITTED.engines["vllm"].gqa_reread_share == 0.0
    rig = rig_for(CATALOG.gpu("H200 SXM 141GB"), 1)
    serving = Serving(engine="tensorrt-llm", weights="fp8", prompt_len=128, gen_len=2048)
    once = replace(FITTED.engines["tensorrt-llm"], gqa_reread_share=0.0)
    reading_once = replace(FITTED, engines={**FITTED.engines, "tensorrt-llm": once})
    for preset, groups in (("mistral-7b", 4), ("llama-2-7b", 1)):
        w = make_workload(find_preset(preset), task="inference")
        kv = [
            serving_speed(w, serving, rig, max_streams=0, constants=c).step_ms["kv_cache"]
            for c in (FITTED, reading_once)
        ]
        # Mistral 7B: 32 query heads share 8 KV heads (groups of 4); Llama 2 7B: none
        assert kv[0] / kv[1] == pytest.approx(1 + (groups - 1) * share, rel=1e-6)


def test_vllm_generation_on_nvidia_and_on_intel_use_their_own_constants() -> None:
    """vLLM's blog (2026-04-22, 'The State of FP8 KV-Cache and Attention Quantization in
    vLLM') fits one request's time per output token on H100 as slope × input + intercept;
    at a 1,024-token prompt that is 6.49 ms for Llama 3.1 8B BF16, 154 tokens/s. The
    weights alone (16.1 GB at 3.35 TB/s) take 4.8 ms, so the per-token cost is about 1.7
    ms. vLLM's XPU backend on Intel Arc has its own entry, whose prompt kernels run at
    under a third of the tensor peak (its blog's 1,024/1,024-token runs at 75 concurrent
    requests on one Arc Pro B60: 1,210.74 output tokens/s, with every prompt processed
    between the decode steps)."""
    from core.calc.inference.constants import FITTED

    assert FITTED.engine("vllm", "Intel") is FITTED.engines["vllm@Intel"]
    assert FITTED.engine("vllm", "NVIDIA") is FITTED.engines["vllm"]
    assert FITTED.engine("vllm", "NVIDIA").token_overhead_s < 5e-3
    assert FITTED.engine("vllm", "Intel").prefill_efficiency < 0.35
    gpu = CATALOG.gpu("H100 SXM5 80GB")
    w = _workload("llama-3.1-8b", engine="vllm", weights="bf16", prompt_len=1024, gen_len=64)
    assert w.serving is not None
    speed = inference_speed(w, w.serving, gpu, 1, curves=False)
    assert speed.decode_tokens_s_per_stream == pytest.approx(154.2, rel=0.25)
    arc = CATALOG.gpu("Arc Pro B60")
    served = _workload(
        "gpt-oss-20b", engine="vllm", weights="mxfp4", prompt_len=1024, gen_len=1024, streams=75
    )
    assert served.serving is not None
    batch = inference_speed(served, served.serving, arc, 1, curves=False)
    assert batch.aggregate_decode_tokens_s == pytest.approx(1210.74, rel=0.25)


def test_turning_flash_attention_on_is_the_first_memory_fix() -> None:
    """Llama 3 8B F16 at a 60,000-token context on one RTX 4090 with flash attention off:
    the compute buffer holds 512 x 60,000 x 32 heads x 4 B = 3.66 GiB of scores, which
    flash attention never writes; turning it on is free and faster, so it comes first."""
    from core.calc.inference.memory import memory_fixes

    w = make_workload(find_preset("llama-3-8b"), task="inference")
    off = Serving(prompt_len=59_999, gen_len=1, flash_attention=False)
    on = off.model_copy(update={"flash_attention": True})
    before = inference_memory(w, off, 24.0, 1)
    after = inference_memory(w, on, 24.0, 1)
    assert not before.fits and after.fits
    assert before.total_gib - after.total_gib == pytest.approx(512 * 60_000 * 32 * 4 / 2**30)
    fixes = memory_fixes(w, off, 24.0, 1)
    assert fixes[0].workload == {"serving.flash_attention": True}
    assert fix_text(fixes[0]).startswith("flash attention on →")


def test_llama_cpp_quantises_the_cache_only_with_flash_attention() -> None:
    """llama.cpp refuses a quantised V cache without flash attention ("V cache
    quantization requires flash_attn"); other engines have no such switch."""
    with pytest.raises(ValueError, match="only with flash attention on"):
        Serving(engine="llama.cpp", kv_cache="q8_0", flash_attention=False)
    assert Serving(engine="llama.cpp", kv_cache="q8_0").flash_attention
    assert not Serving(engine="vllm", kv_cache="fp8", flash_attention=False).flash_attention


@pytest.mark.parametrize(
    ("gpu", "sms"),
    [
        # NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 108 SMs of 64 FP32
        # lanes in every A100, 40 GB (HBM2) and 80 GB (HBM2e) alike
        ("A100 40GB PCIe", 108),
        ("A100 80GB SXM4", 108),
        # NVIDIA Ada GPU Architecture whitepaper: the RTX 4090 has 128 SMs of 128 lanes
        ("RTX 4090", 128),
    ],
)
def test_sm_count_follows_the_chip_not_the_memory(gpu: str, sms: int) -> None:
    found = sm_count(CATALOG.gpu(gpu))
    assert found is not None and round(found) == sms


def test_a_dequantised_prompt_is_never_faster_than_sixteen_bit() -> None:
    """A format the GPU has no tensor cores for is unpacked to 16 bit for the prompt's
    products (AWQ/GPTQ 4-bit everywhere, FP8 on Ampere), so its prompt is at most as fast
    as f16's; FP8 on Ada has FP8 tensor cores (NVIDIA Ada whitepaper) and may be faster."""

    def prefill(gpu: str, engine: str, weights: str) -> float:
        w = _workload("llama-3-8b", engine=engine, weights=weights, prompt_len=512, gen_len=1)
        assert w.serving is not None
        return inference_speed(w, w.serving, CATALOG.gpu(gpu), 1, curves=False).prefill_tokens_s

    for gpu, engine, weights in (
        ("rtx-4090", "tensorrt-llm", "awq-int4"),
        ("rtx-4090", "transformers", "gptq-int4"),
        ("rtx-3090", "vllm", "fp8"),
    ):
        assert prefill(gpu, engine, weights) <= prefill(gpu, engine, "f16") * (1 + 1e-9)
    assert prefill("rtx-4090", "tensorrt-llm", "fp8") > prefill("rtx-4090", "tensorrt-llm", "f16")


def test_cost_per_million_tokens_and_break_even_by_hand() -> None:
    """100 tokens/s at 500 W for 3 years at 50 % utilization, $4,380 of parts, $0.20/kWh:
    a million tokens take 10,000 s = 2.78 h, i.e. 1.389 kWh = $0.2778 of electricity;
    the build makes 100 x 3,600 x 8,760 x 3 x 0.5 / 1e6 = 4,730.4 million tokens in its
    life, so the parts add 4,380 / 4,730.4 = $0.9259 per million. Against an API at $2 per
    million, a month makes 100 x 3,600 x 730 x 0.5 / 1e6 = 131.4 million tokens, saving
    (2 - 0.2778) x 131.4 = $226.3: the parts pay back in 4,380 / 226.3 = 19.36 months."""
    from core.calc.inference.serve import _cost
    from core.models.settings import AnalysisSettings

    settings = AnalysisSettings(
        utilization=0.5, electricity_usd_per_kwh=0.20, api_usd_per_million_tokens=2.0
    )
    cost = _cost(100.0, 500.0, 4_380.0, settings, 3)
    assert cost.electricity_usd_per_million_tokens == pytest.approx(0.27778, rel=1e-4)
    assert cost.usd_per_million_tokens == pytest.approx(0.92593 + 0.27778, rel=1e-4)
    assert cost.break_even_months == pytest.approx(19.356, rel=1e-3)
    # unknown parts price: no cost per million and no break-even, never a guess
    unknown = _cost(100.0, 500.0, None, settings, 3)
    assert unknown.usd_per_million_tokens is None and unknown.break_even_months is None


def test_a_tensor_split_vllm_cannot_start_fails_with_the_layer_split_as_fix() -> None:
    """vLLM gives each GPU an equal share of the attention heads: Qwen3 8B's 32 heads do
    not divide over 3 GPUs (vLLM refuses to start), so the check fails and its fix, the
    layer split, passes; on 2 or 4 GPUs there is nothing to fail."""
    from core.calc.fixes import apply_fix

    base = make_workload(
        find_preset("qwen3-8b"),
        task="inference",
        serving=Serving(engine="vllm", weights="bf16", split="tensor"),
    )
    assert base.architecture.heads == 32
    build = default_build(CATALOG).model_copy(update={"gpu_count": 3})
    analysis = analyze(build, base, None, CATALOG)
    check = next(c for c in analysis.checks if c.id == "serving.split")
    assert check.severity == "fail" and check.numbers["heads"] == 32 and check.fix is not None
    assert "32 heads do not divide over 3 GPUs" in render_check(check)
    fixed_build, fixed = apply_fix(build, base, check.fix, CATALOG)
    assert fixed is not None and fixed.serving_settings.split == "layer"
    after = analyze(fixed_build, fixed, None, CATALOG)
    assert not any(c.id == "serving.split" for c in after.checks)
    for count in (2, 4):
        even = analyze(build.model_copy(update={"gpu_count": count}), base, None, CATALOG)
        assert not any(c.id == "serving.split" for c in even.checks)


def test_fp4_weights_run_at_the_makers_fp4_rate() -> None:
    """FP4 weights (nvfp4, mxfp4) on Blackwell run at the FP4 tensor rate the maker prints:
    the RTX 5090's 1,676 dense TFLOPS (NVIDIA RTX Blackwell whitepaper, Appendix A: FP4
    with FP32 accumulate 1,676/3,352; its FP8 with FP32 accumulate is 419, a quarter, not a
    half), the RTX PRO 5000's 2,064 sparse AI TOPS halved; twice the FP8 rate where only
    that is known. A GPU without FP4 tensor cores (Ada) runs them at its 16-bit rate."""
    from core.calc.inference.formats import matmul_tflops

    assert matmul_tflops(CATALOG.gpu("rtx-5090"), "nvfp4") == 1676
    assert matmul_tflops(CATALOG.gpu("rtx-pro-5000-blackwell"), "mxfp4") == 1032
    b200 = CATALOG.gpu("b200")
    assert matmul_tflops(b200, "nvfp4") == 9000 == 2 * b200.tensor_tflops.fp8  # type: ignore[operator]
    ada = CATALOG.gpu("rtx-4090")
    assert matmul_tflops(ada, "nvfp4") == ada.tensor_tflops.fp16_acc16
