"""Per-GPU roofline: precision rules and formulas against hand-derived numbers."""

from __future__ import annotations

import pytest

from core.calc.performance.constants import FITTED, ThroughputConstants
from core.calc.performance.profile import profile_from_workload
from core.calc.performance.roofline import (
    compute_mode,
    fp16_tensor_peak,
    gpu_step_time,
    half_simt_peak,
    mma_halving,
)
from core.catalog import load_catalog
from core.models.parts import GPU
from core.models.throughput import WorkProfile
from core.workloads import find_preset, make_workload

UNIT = ThroughputConstants(
    eta_tensor_volta_turing=0.5,
    eta_tensor_ampere_ada=0.5,
    eta_tensor_hopper_blackwell=0.5,
    eta_simt_fp32=0.5,
    attention_rel=0.5,
    recurrent_rel=1.0,
    eta_memory=0.5,
    amp_activation_bytes=2.0,
    elementwise_bytes_per_activation=4.0,
    launch_s_per_layer=0.0,
    launch_s_per_loop_step=0.0,
    eta_link=1.0,
    host_staging_factor=0.5,
    overlap_fraction=0.0,
    allreduce_latency_s=0.0,
)


def gpu(name: str) -> GPU:
    return load_catalog().gpu(name)


def profile(**kw: object) -> WorkProfile:
    base: dict[str, object] = {
        "name": "t",
        "unit": "images/s",
        "params_total": 1.0,
        "params_trainable": 0.0,
        "matmul_flops": 0.0,
    }
    base.update(kw)
    return WorkProfile.model_validate(base)


def test_fp32_on_ampere_is_tf32_unless_turned_off() -> None:
    a100 = gpu("A100 SXM4 80GB")
    on = compute_mode(a100, "fp32")
    assert (on.precision, on.note, on.peak_flops) == ("tf32", "tf32_assumed", 156e12)
    off = compute_mode(a100, "fp32", allow_tf32=False)
    assert (off.precision, off.note, off.peak_flops) == ("fp32", "tf32_disabled", 19.5e12)


def test_precision_follows_architecture() -> None:
    v100 = gpu("V100 SXM2 16GB")
    assert compute_mode(v100, "fp32").note == "as_requested"  # Volta has no TF32
    assert compute_mode(v100, "bf16").note == "bf16_unsupported_fp16_used"
    assert compute_mode(gpu("A100 SXM4 80GB"), "fp8").note == "fp8_unsupported_fp16_used"
    h100 = compute_mode(gpu("H100 SXM5 80GB"), "fp8")
    assert (h100.precision, h100.peak_flops) == ("fp8", 1979e12)
    pascal = compute_mode(gpu("GTX 1080 Ti"), "fp16")
    assert pascal.note == "no_tensor_cores_fp32" and not pascal.tensor_cores


def test_an_fp8_card_whose_fp8_rate_no_source_gives_is_not_called_fp8_less() -> None:
    """Ada has FP8 tensor cores (NVIDIA Ada whitepaper), so an Ada card running fp8 is not
    "fp8 needs Ada or Hopper": where its fp8 rate is not in the catalog (here an RTX 4080
    whose FP8 figure is taken away), it is estimated at its 16-bit rate and says why, and
    the recipe is not failed as impossible. A ranking on fp8 (Suggest) leaves a card
    without a sourced fp8 rate out and names it (the RTX PRO 4500 Blackwell: no tensor
    rate of its datasheet is in the catalog)."""
    from core.calc import analyze
    from core.calc.suggest.signable import precision_rate_known, precision_supported
    from core.catalog.builds import default_build
    from core.text.throughput import precision_text

    sourced = gpu("RTX 4080")
    assert sourced.tensor_tflops.fp8 == 195  # FP32 accumulate: its FP16-accumulate rate
    rtx_4080 = sourced.model_copy(
        update={"tensor_tflops": sourced.tensor_tflops.model_copy(update={"fp8": None})}
    )
    assert rtx_4080.architecture == "ada"
    mode = compute_mode(rtx_4080, "fp8")
    assert mode.note == "fp8_rate_unknown_fp16_used" and mode.precision == "fp16"
    assert "no source gives" in precision_text(mode.note)
    assert precision_supported(rtx_4080, "fp8") and not precision_rate_known(rtx_4080, "fp8")
    assert compute_mode(sourced, "fp8").precision == "fp8"
    catalog = load_catalog()
    build = default_build(catalog).model_copy(update={"gpu": rtx_4080})
    workload = make_workload(find_preset("llama-3.1-8b"), precision="fp8", task="lora")
    analysis = analyze(build, workload, None, catalog)
    assert not any(c.id == "workload.precision" for c in analysis.checks)
    from core.calc.suggest.search import suggest
    from core.models.suggest import SuggestRequest

    pro_4500 = gpu("rtx-pro-4500-blackwell")
    assert pro_4500.tensor_tflops.fp8 is None and precision_supported(pro_4500, "fp8")
    result = suggest(workload, SuggestRequest(budget_usd=8_000, max_gpus=1), catalog)
    assert "rtx-pro-4500-blackwell" in result.unknown_fit_part_ids
    assert all(s.build.gpu.id != "rtx-pro-4500-blackwell" for s in result.front)


def test_matrix_units_whose_rate_no_source_gives_are_not_called_missing() -> None:
    """The RTX PRO 4500 Blackwell has tensor cores and the Radeon RX 9070 XT AMD's WMMA
    units, but the catalog has no 16-bit rate for either: fp16 work is estimated at the
    FP32 rate as a lower bound and says why, not "no tensor cores" (which a GTX 1080 Ti,
    Pascal, truly has not). Intel's Arc Pro B60 has an XMX bf16 rate in the catalog (98.3
    TFLOPS, from NVIDIA's aiconfigurator system file): bf16 runs on its XMX engines."""
    for gpu_id in ("rtx-pro-4500-blackwell", "rx-9070-xt"):
        mode = compute_mode(gpu(gpu_id), "fp16")
        assert mode.note == "tensor_rate_unknown_fp32" and not mode.tensor_cores
    assert compute_mode(gpu("GTX 1080 Ti"), "fp16").note == "no_tensor_cores_fp32"
    b60 = gpu("arc-pro-b60")
    mode = compute_mode(b60, "bf16")
    assert mode.tensor_cores and mode.peak_flops == b60.tensor_tflops.bf16 * 1e12  # type: ignore[operator]


def test_geforce_16_bit_rates_with_fp32_accumulate_are_half_the_fp16_accumulate_rate() -> None:
    """NVIDIA's whitepapers give GeForce cards FP16/BF16 with FP32 accumulate at half the
    FP16-accumulate rate (RTX 4090: 165.2 vs 330.3; RTX 5090: 209.5 vs 419) and FP8 with
    FP32 accumulate at the FP16-accumulate rate; the cards whose only sourced figure is
    the FP16-accumulate one carry the rates that follow (RTX 4060 Ti 16GB: Wikipedia's 88,
    NVIDIA's 353 AI TOPS = 4 x 88.25), and the RTX PRO 5000 (the PRO 6000's GB202 chip)
    the RTX PRO ratios of the PRO whitepaper from its datasheet's 2,064 sparse AI TOPS."""
    for gpu_id, acc16, fp16, fp8 in (
        ("rtx-4060-ti-16gb", 88, 44, 88),
        ("rtx-4080-super", 209, 104.5, 209),
        ("rtx-5060-ti-16gb", 95, 47.5, 95),
    ):
        rates = gpu(gpu_id).tensor_tflops
        assert (rates.fp16_acc16, rates.fp16, rates.bf16, rates.fp8) == (acc16, fp16, fp16, fp8)
    pro = gpu("rtx-pro-5000-blackwell").tensor_tflops
    assert (pro.fp4, pro.fp8, pro.fp16, pro.tf32) == (2064 / 2, 2064 / 4, 2064 / 8, 2064 / 16)
    assert compute_mode(gpu("rtx-4060-ti-16gb"), "bf16").peak_flops == 44e12


def test_geforce_turing_fp16_peak_is_quarter_of_int8() -> None:
    # NVIDIA's Turing whitepaper, Table 1, reference RTX 2080 Ti: 215.2 INT8 TOPS,
    # 107.6 FP16 with FP16 accumulate, 53.8 with FP32 accumulate (a quarter of INT8)
    assert fp16_tensor_peak(gpu("RTX 2080 Ti")) == pytest.approx(215.2 / 4)


def test_matmul_time_is_three_forward_flops_over_efficient_peak() -> None:
    # 2 samples x 1 TFLOP forward x 3 = 6e12 FLOP at 312e12 x 0.5 -> 6/156 s
    step = gpu_step_time(profile(matmul_flops=1e12, batch_per_gpu=2), gpu("A100 SXM4 80GB"), UNIT)
    assert step.matmul_s == pytest.approx(6.0 / 156.0)
    assert step.step_flops == pytest.approx(6e12)


def test_recurrent_weights_streamed_every_timestep() -> None:
    # W = 1e6 weights, T = 100 steps: recurrent FLOPs/sample = 2 W T = 2e8.
    # fp16 weights: 3 passes x 100 steps x 2e6 B = 6e8 B over 2039e9 x 0.5 B/s.
    p = profile(recurrent_flops=2e8, recurrent_steps=100, batch_per_gpu=1)
    step = gpu_step_time(p, gpu("A100 SXM4 80GB"), UNIT)
    assert step.recurrent_s == pytest.approx(6e8 / (2039e9 * 0.5))


def test_elementwise_bytes_over_bandwidth() -> None:
    # fp32 on V100: 10 samples x 1e6 elements x 4 passes x 4 B over 900e9 x 0.5
    p = profile(activation_elements=1e6, batch_per_gpu=10, requested_precision="fp32")
    step = gpu_step_time(p, gpu("V100 SXM2 16GB"), UNIT)
    assert step.elementwise_s == pytest.approx(1.6e8 / 450e9)


def test_optimizer_step_reads_all_trainable_params() -> None:
    p = profile(params_total=1e9, params_trainable=1e9, optimizer_bytes_per_param=28.0)
    step = gpu_step_time(p, gpu("H100 SXM5 80GB"), UNIT)
    assert step.optimizer_s == pytest.approx(28e9 / (3350e9 * 0.5))


def test_older_container_kernels_slow_every_device_kernel_not_the_host() -> None:
    # fp32 without TF32 on an A100: 3 passes x 2 samples x 1e12 FLOP = 6e12 FLOP at
    # 19.5e12 x 0.5 FLOP/s. Attention at the same peak x eta x attention_rel 0.5:
    # 3 x 2 x 1e11 = 6e11 FLOP at 4.875e12. Recurrent weights streamed per timestep
    # (fp32): 3 x 10 steps x 4e6 B over 2039e9 x 0.5. Optimizer: 1e6 params x 16 B over
    # the same bandwidth. At half speed each of these doubles; the host's dispatch time
    # is the same Python in either container.
    c = UNIT.model_copy(update={"older_kernels_speed": 0.5, "launch_s_per_layer": 1e-3})
    kw: dict[str, object] = {
        "matmul_flops": 1e12,
        "attention_flops": 1e11,
        "recurrent_flops": 2e7,
        "recurrent_steps": 10,
        "activation_elements": 1e8,
        "params_total": 1e6,
        "params_trainable": 1e6,
        "batch_per_gpu": 2,
        "requested_precision": "fp32",
        "layers": 10,
    }
    a100 = gpu("A100 SXM4 80GB")
    now = gpu_step_time(profile(**kw), a100, c, allow_tf32=False)
    old = gpu_step_time(profile(**kw, older_kernels=True), a100, c, allow_tf32=False)
    bw = 2039e9 * 0.5
    assert now.matmul_s == pytest.approx(6e12 / (19.5e12 * 0.5))
    assert old.matmul_s == pytest.approx(2 * 6e12 / (19.5e12 * 0.5))
    assert now.attention_s == pytest.approx(6e11 / 4.875e12)
    assert old.attention_s == pytest.approx(2 * 6e11 / 4.875e12)
    assert now.recurrent_s == pytest.approx(3 * 10 * 4e6 / bw)
    assert old.recurrent_s == pytest.approx(2 * 3 * 10 * 4e6 / bw)
    assert now.optimizer_s == pytest.approx(16e6 / bw)
    assert old.optimizer_s == pytest.approx(2 * 16e6 / bw)
    assert old.elementwise_s == pytest.approx(2 * now.elementwise_s)
    assert old.host_s == now.host_s > 0


def test_older_kernels_recompute_follows_the_slower_forward_once() -> None:
    # full checkpointing re-runs the forward: one third of the (already slowed) step
    c = UNIT.model_copy(update={"older_kernels_speed": 0.5})
    kw: dict[str, object] = {"matmul_flops": 1e12, "batch_per_gpu": 2, "recompute": "full"}
    a100 = gpu("A100 SXM4 80GB")
    now = gpu_step_time(profile(**kw), a100, c)
    old = gpu_step_time(profile(**kw, older_kernels=True), a100, c)
    assert now.recompute_s == pytest.approx(now.matmul_s / 3)
    assert old.recompute_s == pytest.approx(2 * now.recompute_s)


@pytest.mark.parametrize("workload_bw", [(300.0, 600.0), (600.0, 2000.0)])
def test_more_memory_bandwidth_is_never_slower(workload_bw: tuple[float, float]) -> None:
    slow_bw, fast_bw = workload_bw
    base = gpu("A100 SXM4 80GB")
    p = profile(
        matmul_flops=4e9,
        activation_elements=3e7,
        recurrent_flops=1e9,
        recurrent_steps=50,
        batch_per_gpu=64,
        params_trainable=2.5e7,
    )
    slow = base.model_copy(update={"memory_bandwidth_gb_s": slow_bw})
    fast = base.model_copy(update={"memory_bandwidth_gb_s": fast_bw})
    assert gpu_step_time(p, fast, FITTED).gpu_s < gpu_step_time(p, slow, FITTED).gpu_s


def test_fitted_constants_are_physical() -> None:
    for name in ("eta_tensor_volta_turing", "eta_tensor_ampere_ada", "eta_memory", "eta_link"):
        assert 0.0 < getattr(FITTED, name) <= 1.0


def test_narrow_gemms_slow_the_weight_gradient() -> None:
    """A training step runs three products per layer: forward and input gradient write
    rows x width outputs (they lose only a part-filled last tile row, rows / (rows + 64)),
    the weight gradient writes width x width from a reduction over the rows, d / (d + d0).
    Width 512 = d0, 40,000 rows: (2 / (40000 / 40064) + 2) / 3 = 1.3344 x the wide time."""
    c = UNIT.model_copy(update={"gemm_half_width": 512.0})
    a100 = gpu("A100 SXM4 80GB")
    wide = profile(matmul_flops=1e12, batch_per_gpu=4)
    narrow = profile(matmul_flops=1e12, batch_per_gpu=4, gemm_width=512, tokens_per_sample=1e4)
    factor = (2.0 * 40064.0 / 40000.0 + 2.0) / 3.0
    assert gpu_step_time(narrow, a100, c).matmul_s == pytest.approx(
        factor * gpu_step_time(wide, a100, c).matmul_s
    )
    # Fewer rows than the width: 256 rows, the weight gradient's d is 256 (256 / 768),
    # the other two lose 64 of 320 rows: (2 / 0.8 + 3) / 3.
    rows_bound = profile(matmul_flops=1e12, batch_per_gpu=4, gemm_width=4096, tokens_per_sample=64)
    assert gpu_step_time(rows_bound, a100, c).matmul_s == pytest.approx(
        gpu_step_time(wide, a100, c).matmul_s * (2.0 / 0.8 + 3.0) / 3.0
    )


def test_inference_has_no_weight_gradient_to_slow() -> None:
    """Forward only (pass factor 1): a narrow model loses only the tile remainder."""
    c = UNIT.model_copy(update={"gemm_half_width": 512.0})
    a100 = gpu("A100 SXM4 80GB")
    kw = {"matmul_flops": 1e12, "batch_per_gpu": 4, "pass_factor": 1.0}
    wide = profile(**kw)
    narrow = profile(**kw, gemm_width=512, tokens_per_sample=1e4)
    assert gpu_step_time(narrow, a100, c).matmul_s == pytest.approx(
        gpu_step_time(wide, a100, c).matmul_s * 40064.0 / 40000.0
    )


def test_attention_scores_cost_bandwidth() -> None:
    """Score traffic = B x score elements x bytes / (BW x eta_mem), on top of the FLOP time."""
    c = UNIT.model_copy(update={"score_bytes": 10.0})
    g = gpu("A100 SXM4 80GB")
    p = profile(attention_score_elements=1e8, batch_per_gpu=2)
    expected = 2 * 1e8 * 10.0 / (g.memory_bandwidth_gb_s * 1e9 * 0.5)
    assert gpu_step_time(p, g, c).attention_s == pytest.approx(expected)


def test_host_dispatch_is_hidden_by_long_kernels_and_exposed_by_short_ones() -> None:
    """20 layers x 1 ms of host dispatch = h = 20 ms per step. The GPU waits h^2/(h+d):
    at d = h it waits h/2; at d = 19h only h/20; with tiny kernels nearly all of h."""
    c = UNIT.model_copy(update={"launch_s_per_layer": 1e-3})
    g = gpu("RTX 4090")
    one = gpu_step_time(profile(layers=20, matmul_flops=1e9, batch_per_gpu=1), g, c)
    d = one.matmul_s  # device time of one sample
    assert one.host_s == pytest.approx(20e-3)
    for batch in (1, 64, 4096):
        step = gpu_step_time(profile(layers=20, matmul_flops=1e9, batch_per_gpu=batch), g, c)
        device = batch * d
        assert step.launch_s == pytest.approx(0.02**2 / (0.02 + device))
        assert step.gpu_s == pytest.approx(device + 0.02**2 / (0.02 + device))
    big = gpu_step_time(profile(layers=20, matmul_flops=1e12, batch_per_gpu=256), g, c)
    assert big.launch_s < 0.001 * big.gpu_s  # hidden behind long kernels


@pytest.mark.parametrize(
    ("passes", "recompute", "units"),
    [
        # 20 layers x 1 ms = one 20 ms unit per full training step; the forward's share
        # 0.6 of it (Python launches), the backward the other 0.4 (C++ autograd engine)
        (1.0, "none", 0.6),  # an inference pass: the forward alone
        (3.0, "none", 1.0),  # a training step: 0.6 + 0.4
        (2.0, "none", 0.8),  # LoRA, no weight gradients: 0.6 + 0.4 / 2
        (3.0, "full", 1.6),  # the backward runs the forward again: + 0.6
        (3.0, "op", 1.6),
        (2.0, "full", 1.4),
        (3.0, "selective", 1.0),  # the attention core only: no layer re-launched
    ],
)
def test_host_time_splits_into_the_forward_s_share_and_the_backward_s(
    passes: float, recompute: str, units: float
) -> None:
    c = UNIT.model_copy(update={"launch_s_per_layer": 1e-3, "forward_host_share": 0.6})
    p = profile(layers=20, matmul_flops=1e9, pass_factor=passes, recompute=recompute)
    assert gpu_step_time(p, gpu("RTX 4090"), c).host_s == pytest.approx(units * 20e-3)


def test_fused_stacks_cut_elementwise_traffic_and_dispatch() -> None:
    from core.calc.performance.stacks import STACKS

    c = UNIT.model_copy(update={"launch_s_per_layer": 1e-3})
    g = gpu("RTX 4090")
    base = profile(layers=20, activation_elements=1e7, batch_per_gpu=8)
    eager = gpu_step_time(base, g, c)
    for stack in ("pytorch", "pytorch-compile", "transformer-engine"):
        fused = gpu_step_time(base.model_copy(update={"stack": stack}), g, c)
        physics = STACKS[stack]  # type: ignore[index]
        expected = eager.elementwise_s * physics.elementwise_factor
        assert fused.elementwise_s == pytest.approx(expected)
        assert fused.host_s == pytest.approx(eager.host_s * physics.host_factor)


def test_full_checkpointing_repeats_the_forward() -> None:
    """Training = forward + backward (3 forward-equivalents); full recompute adds one
    forward: 4/3 of the device time, i.e. 25 % less throughput when compute-bound."""
    g = gpu("RTX 4090")
    base = profile(matmul_flops=1e11, batch_per_gpu=8)
    plain = gpu_step_time(base, g, UNIT)
    full = gpu_step_time(base.model_copy(update={"recompute": "full"}), g, UNIT)
    assert full.recompute_s == pytest.approx(plain.matmul_s / 3)
    assert full.gpu_s == pytest.approx(plain.gpu_s * 4 / 3)
    selective = gpu_step_time(base.model_copy(update={"recompute": "selective"}), g, UNIT)
    assert selective.recompute_s == 0.0  # no attention to recompute in a plain matmul


def test_offloaded_activations_are_recomputed_checkpoints() -> None:
    """Offloaded activations are the layer checkpoints waiting in host RAM (Unsloth's
    offloaded gradient checkpointing; docs/memory-model.md), so the backward recomputes
    every layer as under full checkpointing, even with checkpointing left at none; an
    offloaded optimizer alone recomputes nothing."""
    w = make_workload(find_preset("llama-3-8b"), task="training", batch_size=2, seq_len=4096)
    for checkpointing in ("none", "selective", "full"):
        offloaded = w.model_copy(update={"offload": "activations", "checkpointing": checkpointing})
        assert profile_from_workload(offloaded).recompute == "full"
    assert profile_from_workload(w.model_copy(update={"offload": "optimizer"})).recompute == (
        w.checkpointing
    )


def test_waveglow_profile_has_wavenet_gemm_shape() -> None:
    """DLE WaveGlow: 512-channel WaveNet convs over 8-sample groups (waveglow/arg_parser.py)."""
    from core.calc.performance.profile import profile_from_workload
    from core.workloads import find_preset, make_workload

    wg = profile_from_workload(make_workload(find_preset("WaveGlow"), precision="fp16"))
    assert (wg.gemm_width, wg.tokens_per_sample) == (512, 1000.0)
    bert = profile_from_workload(make_workload(find_preset("BERT-base"), precision="fp16"))
    assert (bert.gemm_width, bert.tokens_per_sample) == (768, 384.0)
    # 12 layers x 12 heads x 384 x 384 scores per sequence.
    assert bert.attention_score_elements == pytest.approx(12 * 12 * 384 * 384, rel=0.01)
    rn50 = profile_from_workload(make_workload(find_preset("ResNet-50"), precision="fp16"))
    assert rn50.gemm_width is None


@pytest.mark.parametrize(
    ("name", "tflops"),
    [
        # Whitepaper non-tensor FP16 figures: A100 78, H100 SXM5 133.8, GA102 = FP32 rate.
        ("A100 SXM4 80GB", 78.0),
        ("H100 SXM5 80GB", 133.8),
        ("RTX 3090", 35.58),
        ("V100 SXM2 16GB", 31.4),
    ],
)
def test_half_simt_peak_follows_the_chip(name: str, tflops: float) -> None:
    assert half_simt_peak(gpu(name)) == pytest.approx(tflops * 1e12, rel=0.01)


def test_unaligned_gemm_leaves_tensor_cores_in_16_bit_only() -> None:
    """1 TFLOP of an odd-sized GEMM: fp16 runs it at the non-tensor FP16 rate x eta_simt."""
    a100 = gpu("A100 SXM4 80GB")
    p = profile(matmul_flops=2e12, unaligned_matmul_flops=1e12, batch_per_gpu=1)
    fp16 = gpu_step_time(p, a100, UNIT)
    # aligned half: 3e12 / (312e12 x 0.5); unaligned half: 3e12 / (78e12 x 0.5)
    assert fp16.matmul_s == pytest.approx(3e12 / 156e12 + 3e12 / 39e12)
    tf32 = gpu_step_time(p.model_copy(update={"requested_precision": "fp32"}), a100, UNIT)
    assert tf32.matmul_s == pytest.approx(6e12 / (156e12 * 0.5))


def test_half_activations_take_two_bytes_under_mixed_precision() -> None:
    c = UNIT.model_copy(update={"amp_activation_bytes": 3.0})
    g = gpu("A100 SXM4 80GB")
    p = profile(activation_elements=1e6, batch_per_gpu=10)
    autocast = gpu_step_time(p, g, c).elementwise_s
    pure = gpu_step_time(p.model_copy(update={"half_activations": True}), g, c).elementwise_s
    assert autocast == pytest.approx(pure * 1.5)


def test_elementwise_math_runs_on_fp32_cores() -> None:
    """10 samples x 1e6 elements x 50 FLOPs over the FP32 peak, on top of the DRAM time."""
    c = UNIT.model_copy(update={"elementwise_alu_flops": 50.0})
    g = gpu("RTX 3090")
    p = profile(activation_elements=1e6, batch_per_gpu=10, requested_precision="fp32")
    dram = 10 * 1e6 * 4.0 * 4.0 / (g.memory_bandwidth_gb_s * 1e9 * 0.5)
    alu = 10 * 1e6 * 50.0 / (35.58e12)
    assert gpu_step_time(p, g, c).elementwise_s == pytest.approx(dram + alu)


def test_unaligned_gemm_penalty_covers_8_bit_and_skips_unknown_or_non_nvidia() -> None:
    h100 = gpu("H100 SXM5 80GB")
    p = profile(matmul_flops=2e12, unaligned_matmul_flops=1e12, batch_per_gpu=1)
    fp8 = gpu_step_time(p.model_copy(update={"requested_precision": "fp8"}), h100, UNIT)
    # aligned half at 1979e12 x 0.5, unaligned half at 133.8e12 x 0.5
    assert fp8.matmul_s == pytest.approx(3e12 / (1979e12 * 0.5) + 3e12 / (133.8e12 * 0.5))
    unknown = h100.model_copy(update={"fp32_tflops": None})
    assert half_simt_peak(unknown) is None
    assert gpu_step_time(p, unknown, UNIT).matmul_s == pytest.approx(6e12 / (989e12 * 0.5))
    mi300x = gpu("MI300X")
    aligned = gpu_step_time(p.model_copy(update={"unaligned_matmul_flops": 0.0}), mi300x, UNIT)
    assert gpu_step_time(p, mi300x, UNIT).matmul_s == pytest.approx(aligned.matmul_s)


def test_dilated_convolutions_leave_tensor_cores_at_16_bit() -> None:
    """1 of 2 TFLOP in dilated convolutions: fp16 runs them on the CUDA cores (GA102:
    non-tensor FP16 at the FP32 rate, 35.58 TFLOPS); TF32 keeps them on tensor cores.
    The RTX A6000 is the same GA102 with full-rate tensor cores (154.85 TFLOPS FP16)."""
    a6000 = gpu("RTX A6000")
    p = profile(matmul_flops=2e12, dilated_conv_flops=1e12, batch_per_gpu=1)
    fp16 = gpu_step_time(p, a6000, UNIT)
    # three passes of 1e12 at 154.85e12 x 0.5 (tensor) plus three at 38.71e12 x 0.5
    assert fp16.matmul_s == pytest.approx(3e12 / 77.425e12 + 3e12 / 19.355e12)
    tf32 = gpu_step_time(p.model_copy(update={"requested_precision": "fp32"}), a6000, UNIT)
    assert tf32.matmul_s == pytest.approx(6e12 / (77.4e12 * 0.5))


def test_dilated_convolutions_change_nothing_without_tensor_cores() -> None:
    """V100 fp32 has no tensor path: every FLOP already runs at 15.7 TFLOPS x 0.5."""
    v100 = gpu("V100 SXM2 32GB")
    p = profile(
        matmul_flops=2e12, dilated_conv_flops=1e12, batch_per_gpu=1, requested_precision="fp32"
    )
    assert gpu_step_time(p, v100, UNIT).matmul_s == pytest.approx(6e12 / (15.7e12 * 0.5))
    # at fp16 the V100 (GV100: packed FP16 at twice FP32, 31.4 TFLOPS) runs the dilated half
    fp16 = gpu_step_time(p.model_copy(update={"requested_precision": "fp16"}), v100, UNIT)
    assert fp16.matmul_s == pytest.approx(3e12 / 62.5e12 + 3e12 / 15.7e12)


def test_flash_attention_stacks_drop_the_eager_score_tensors() -> None:
    """ViT-B/16's activations were counted with explicit attention: under a FlashAttention
    stack its QKᵀ scores and their softmax (12 layers x 12 heads x 197 x 197 elements
    each) never reach DRAM; Llama 2 7B's likewise (32 x 32 x 4,096 x 4,096 each)."""
    for name, scores in (("vit-b16", 12 * 12 * 197 * 197), ("llama-2-7b", 32 * 32 * 4096**2)):
        preset = find_preset(name)
        eager = profile_from_workload(make_workload(preset, stack="pytorch-eager"))
        flash = profile_from_workload(make_workload(preset, stack="pytorch"))
        assert eager.activation_elements - flash.activation_elements == pytest.approx(2 * scores)


def test_config_json_presets_charge_attention_by_the_square_of_the_sequence() -> None:
    """Llama 3.1 8B (read from config.json, 131,072-token context) at 8,192 tokens costs what
    the counted Llama 3 8B preset (the same layers) costs there: attention 4 x 32 layers x
    8,192² x 4,096 and 2 x 7.5 B weights per token, not a 128k figure scaled linearly."""
    hf = profile_from_workload(make_workload(find_preset("llama-3.1-8b"), seq_len=8192))
    counted = profile_from_workload(make_workload(find_preset("llama-3-8b"), seq_len=8192))
    assert hf.attention_flops == pytest.approx(4 * 32 * 8192**2 * 4096)
    assert hf.attention_flops == pytest.approx(counted.attention_flops)
    assert hf.matmul_flops == pytest.approx(counted.matmul_flops, rel=1e-3)


def test_an_image_models_seq_len_is_its_resolution_not_a_token_count() -> None:
    """ViT-B/16 at its own 224 px keeps its counted 197 tokens and 33.70 GFLOPs of matrix
    products; at 448 px it has four times the patches (4 x 196 + 1 ≈ 785 tokens, counted
    here as 4 x 197 = 788): linear work x 4 and attention x 16."""
    preset = find_preset("vit-b16")
    mix = preset.architecture.op_mix
    assert mix is not None
    at224 = profile_from_workload(make_workload(preset, seq_len=224))
    assert at224.tokens_per_sample == 197
    assert at224.matmul_flops == pytest.approx(33_697_001_472)
    at448 = profile_from_workload(make_workload(preset, seq_len=448))
    assert at448.tokens_per_sample == 788
    assert at448.matmul_flops == pytest.approx(4 * 33_697_001_472)
    assert at448.attention_flops == pytest.approx(16 * 1_430_654_976)
    assert at448.items_per_sample == 1.0  # still images/s


def test_a_convnet_at_a_higher_resolution_does_more_work_per_image() -> None:
    """ResNet-50 at 320 px instead of 224 px: convolution outputs grow with the pixel
    count, (320 / 224)² = 2.04 x the FLOPs and activations per image."""
    preset = find_preset("resnet50-v1.5")
    base = profile_from_workload(make_workload(preset))
    big = profile_from_workload(make_workload(preset, seq_len=320))
    assert big.matmul_flops == pytest.approx(base.matmul_flops * (320 / 224) ** 2)
    assert big.activation_elements == pytest.approx(base.activation_elements * (320 / 224) ** 2)


def test_convolutions_reach_conv_rel_of_the_gemm_efficiency() -> None:
    """Half of 2 TFLOP in convolutions at conv_rel 0.5: on an A100 (312 TFLOPS FP16,
    full-rate tensor cores) at efficiency 0.5 the GEMM half runs at 156 and the
    convolution half at 78 effective TFLOPS, three passes each."""
    c = UNIT.model_copy(update={"conv_rel": 0.5})
    a100 = gpu("A100 SXM4 80GB")
    p = profile(matmul_flops=2e12, conv_flops=1e12, batch_per_gpu=1)
    assert gpu_step_time(p, a100, c).matmul_s == pytest.approx(3e12 / 156e12 + 3e12 / 78e12)
    # without tensor cores (V100 in fp32, 15.7 TFLOPS) convolutions keep the plain rate
    v100 = gpu("V100 SXM2 32GB")
    fp32 = p.model_copy(update={"requested_precision": "fp32"})
    assert gpu_step_time(fp32, v100, c).matmul_s == pytest.approx(6e12 / (15.7e12 * 0.5))


def test_dilated_convolutions_are_not_charged_twice() -> None:
    """1.5 of 2 TFLOP in convolutions, 1 of them dilated (CUDA cores at 16 bit): only the
    0.5 TFLOP of plain convolutions pay conv_rel (A100: 312 x 0.5 x 0.5 = 78 TFLOPS); the
    dilated ones run at the GA100's non-tensor FP16 rate, 4 x 19.5 x 0.5 = 39 TFLOPS."""
    c = UNIT.model_copy(update={"conv_rel": 0.5})
    a100 = gpu("A100 SXM4 80GB")
    p = profile(matmul_flops=2e12, conv_flops=1.5e12, dilated_conv_flops=1e12, batch_per_gpu=1)
    expected = 3 * 0.5e12 / 156e12 + 3 * 0.5e12 / 78e12 + 3e12 / 39e12
    assert gpu_step_time(p, a100, c).matmul_s == pytest.approx(expected)


def test_depthwise_convolutions_run_on_the_cuda_cores_at_any_precision() -> None:
    """2 TFLOP of products: 0.5 in linear layers, 1.5 in convolutions of which 0.5 are
    depthwise. A100 (312 TFLOPS FP16 tensor, 19.5 FP32): linear at 312 x 0.5 = 156, the
    other convolutions at conv_rel 0.5 of that = 78, the depthwise ones at 19.5 x
    eta_depthwise 0.1 = 1.95 TFLOPS, three passes each. In fp32 on a V100 (no tensor
    path, 15.7 TFLOPS) the rest runs at 15.7 x 0.5 and the depthwise part at 15.7 x 0.1."""
    c = UNIT.model_copy(update={"conv_rel": 0.5, "eta_depthwise": 0.1})
    p = profile(matmul_flops=2e12, conv_flops=1.5e12, depthwise_conv_flops=0.5e12, batch_per_gpu=1)
    fp16 = gpu_step_time(p, gpu("A100 SXM4 80GB"), c)
    assert fp16.matmul_s == pytest.approx(3 * 0.5e12 / 156e12 + 3e12 / 78e12 + 1.5e12 / 1.95e12)
    fp32 = p.model_copy(update={"requested_precision": "fp32"})
    v100 = gpu_step_time(fp32, gpu("V100 SXM2 32GB"), c)
    assert v100.matmul_s == pytest.approx(4.5e12 / (15.7e12 * 0.5) + 1.5e12 / (15.7e12 * 0.1))


def test_counted_depthwise_flops_of_the_timm_presets() -> None:
    """EfficientNet-B0's depthwise 3 x 3 and 5 x 5 convolutions and ConvNeXt-B's 7 x 7 ones,
    counted by tools/derive/count_conv_flops.py. By hand for ConvNeXt-B: 2 FLOPs x 49 taps x
    channels x pixels per block, (3 x 128 x 56² + 3 x 256 x 28² + 27 x 512 x 14²
    + 3 x 1024 x 7²) x 98 = 457,304,064."""
    by_hand = (3 * 128 * 56**2 + 3 * 256 * 28**2 + 27 * 512 * 14**2 + 3 * 1024 * 7**2) * 98
    mix = find_preset("convnext-base").architecture.op_mix
    assert mix is not None and mix.depthwise_conv_flops == by_hand == 457_304_064
    effnet = find_preset("efficientnet-b0").architecture.op_mix
    assert effnet is not None and 0 < effnet.depthwise_conv_flops < effnet.conv_flops


@pytest.mark.parametrize(("eta", "effective"), [(0.5, 0.9), (0.3, 0.6), (0.95, 0.95)])
def test_geforce_half_rate_tensor_cores_limit_only_issue_bound_kernels(
    eta: float, effective: float
) -> None:
    """RTX 3090: 71 TFLOPS FP16 tensor with FP32 accumulate, 142 with FP16 accumulate
    (GA102 whitepaper). A kernel at efficiency e of the full rate reaches min(2e, 0.9) of
    the halved one, never less than e: e = 0.3 -> 0.6 (42.6 TFLOPS), e = 0.5 -> capped
    at 0.9, e = 0.95 stays 0.95."""
    c = UNIT.model_copy(update={"eta_tensor_ampere_ada": eta})
    p = profile(matmul_flops=1e12, batch_per_gpu=1)
    step = gpu_step_time(p, gpu("RTX 3090"), c)
    assert step.matmul_s == pytest.approx(3e12 / (71e12 * effective))
    # the A6000 (same chip, full-rate FP32 accumulate) is charged at e itself
    full = gpu_step_time(p, gpu("RTX A6000"), c)
    assert full.matmul_s == pytest.approx(3e12 / (154.85e12 * eta))


def test_mma_halving_by_board() -> None:
    """GeForce boards halve FP32-accumulate tensor math (Turing whitepaper Table 1: RTX
    2080 Ti 53.8 vs 107.6 TFLOPS; GA102 and AD102 whitepapers; RTX 5090 209.5 vs 419);
    TITAN RTX and the professional boards do not; fp32 on a GTX 1080 Ti has no tensor
    cores at all."""
    cases = {
        ("RTX 2080 Ti", "fp16"): 2.0,
        ("RTX 3090", "bf16"): 2.0,
        ("RTX 3090", "fp32"): 2.0,  # TF32: 35.6 against the A6000's 77.4
        ("RTX 4090", "fp16"): 330.3 / 165.2,
        ("RTX 5090", "fp16"): 419 / 210,
        ("TITAN RTX", "fp16"): 1.0,
        ("RTX A6000", "fp16"): 1.0,
        ("GTX 1080 Ti", "fp16"): 1.0,
    }
    for (name, precision), halving in cases.items():
        board = gpu(name)
        assert mma_halving(board, compute_mode(board, precision)) == pytest.approx(halving), name


def test_nchw_convolutions_pay_their_transposes_at_16_bit_only() -> None:
    """1e9 convolution input/output values per sample, 6 passes x 2 B each per training
    step: 12 GB over the A100 SXM4 80GB's 2,039 GB/s at eta_memory 0.5 = 11.77 ms; a third
    of it in inference (forward only); nothing channels-last, nothing in TF32."""
    c = UNIT.model_copy(update={"nchw_transpose_passes": 6.0})
    a100 = gpu("A100 SXM4 80GB")
    p = profile(conv_io_elements=1e9, batch_per_gpu=1)
    assert gpu_step_time(p, a100, c).elementwise_s == pytest.approx(12e9 / (2039e9 * 0.5))
    infer = p.model_copy(update={"pass_factor": 1.0})
    assert gpu_step_time(infer, a100, c).elementwise_s == pytest.approx(4e9 / (2039e9 * 0.5))
    nhwc = p.model_copy(update={"channels_last": True})
    assert gpu_step_time(nhwc, a100, c).elementwise_s == 0.0
    tf32 = p.model_copy(update={"requested_precision": "fp32"})
    assert gpu_step_time(tf32, a100, c).elementwise_s == 0.0


def test_fitted_transpose_passes_agree_with_the_timm_twins() -> None:
    """timm benchmark-train-amp-{nchw,nhwc}-pt112-cu113-rtx3090.csv: ResNet-50 826.06 vs
    1,218.01 images/s (batch 512), VGG16 465.36 vs 546.06 (batch 384). The extra seconds
    per NCHW step move 2 B per pass over each convolution value at 80 % of 936.2 GB/s:
    6.70 and 5.25 passes. The constant is fitted on other publishers' rows; it must find
    a transpose cost of that size (not zero, not more than the twins show)."""
    bw = 0.8 * 936.2e9
    rn50 = (512 / 826.06 - 512 / 1218.01) * bw / (21_776_384 * 512 * 2)
    vgg = (384 / 465.36 - 384 / 546.06) * bw / (22_629_376 * 384 * 2)
    assert rn50 == pytest.approx(6.70, abs=0.01) and vgg == pytest.approx(5.25, abs=0.01)
    assert 0.5 * vgg < FITTED.nchw_transpose_passes < rn50


def test_stacks_choose_the_memory_format() -> None:
    """Eager PyTorch keeps NCHW; the PyTorch 2 stacks run convnets channels-last."""
    preset = find_preset("resnet50-v1.5")
    layouts = {
        stack: profile_from_workload(make_workload(preset, stack=stack)).channels_last
        for stack in ("pytorch-eager", "pytorch", "pytorch-compile")
    }
    assert layouts == {"pytorch-eager": False, "pytorch": True, "pytorch-compile": True}
    assert profile_from_workload(make_workload(preset)).conv_io_elements == 21_776_384


def test_qlora_pays_for_unpacking_its_base_every_pass() -> None:
    """bitsandbytes unpacks the NF4 base to 16-bit before each product, in the forward
    and again in the backward. Llama 3.1 8B outside its two 128,256 x 4,096 embedding
    tables: 8,030,261,248 - 1,050,673,152 = 6,979,588,096 weights, each read at 4.127
    bits and written at 16: 6,979,588,096 x (4.127 / 8 + 2) = 17.56 GB per pass; two
    passes at 80 % of the RTX 4090's 1,008 GB/s = 43.55 ms per step, whatever the batch."""
    gpu = load_catalog().gpu("RTX 4090")
    preset = find_preset("Llama 3.1 8B")
    per_pass = 6_979_588_096 * (4.127 / 8 + 2)
    for batch in (1, 4):
        qlora = profile_from_workload(
            make_workload(preset, task="qlora", precision="bf16", batch_size=batch, seq_len=2048)
        )
        assert qlora.dequant_bytes_per_pass == pytest.approx(per_pass)
        unpacked = gpu_step_time(qlora, gpu, FITTED)
        packed_free = gpu_step_time(
            qlora.model_copy(update={"dequant_bytes_per_pass": 0.0}), gpu, FITTED
        )
        extra = unpacked.elementwise_s - packed_free.elementwise_s
        assert extra == pytest.approx(2 * per_pass / (1008e9 * 0.80))
        assert extra == pytest.approx(0.04355, abs=1e-5)
    lora = make_workload(preset, task="lora", precision="bf16", seq_len=2048)
    assert profile_from_workload(lora).dequant_bytes_per_pass == 0.0


def test_transformer_only_stacks_run_a_convnet_as_pytorch() -> None:
    """Transformer Engine and Unsloth fuse transformer layers; ResNet-50 under them is
    plain PyTorch 2.x (its convolutions, norms and activations are PyTorch's), so it is
    timed as ``pytorch`` and says so, while BERT-large keeps each stack's own physics."""
    from core.calc.performance.stacks import effective_stack, stack_basis

    g = gpu("RTX 4090")
    resnet = make_workload(find_preset("ResNet-50"), precision="fp16")
    plain = profile_from_workload(resnet.model_copy(update={"stack": "pytorch"}))
    base = gpu_step_time(plain, g, FITTED).gpu_s
    for stack in ("transformer-engine", "unsloth"):
        w = resnet.model_copy(update={"stack": stack})
        assert effective_stack(w) == "pytorch"
        assert profile_from_workload(w) == plain
        assert gpu_step_time(profile_from_workload(w), g, FITTED).gpu_s == pytest.approx(base)
        assert stack_basis(w).startswith(f"{stack} fuses transformer layers only")
    bert = make_workload(find_preset("BERT-large"), precision="fp16")
    assert effective_stack(bert.model_copy(update={"stack": "transformer-engine"})) == (
        "transformer-engine"
    )


def test_sixteen_bit_elementwise_kernels_are_bound_by_bytes_in_flight_per_sm() -> None:
    """10 GB/s per SM at 4-byte values. The A100 SXM4 80GB has 108 SMs (19.5 TFLOPS FP32
    / (2 x 64 lanes x 1,410 MHz)): 16-bit elementwise kernels reach at most 10 x 108 x
    2 / 4 = 540 GB/s, below its 2,039 GB/s x 0.5; 32-bit ones 1,080 GB/s, above it, so
    the DRAM bound holds there. 1e9 activation values x 4 passes x 2 B = 8 GB per step."""
    a100 = gpu("A100 SXM4 80GB")
    bound = UNIT.model_copy(update={"per_sm_gb_s": 10.0})
    p = profile(activation_elements=1e9, batch_per_gpu=1, requested_precision="fp16")
    sms = 19.5e12 / (2 * 64 * 1410e6)
    assert gpu_step_time(p, a100, bound).elementwise_s == pytest.approx(8e9 / (10e9 * sms * 2 / 4))
    assert gpu_step_time(p, a100, UNIT).elementwise_s == pytest.approx(8e9 / (2039e9 * 0.5))
    fp32 = p.model_copy(update={"requested_precision": "fp32"})
    assert gpu_step_time(fp32, a100, bound).elementwise_s == pytest.approx(16e9 / (2039e9 * 0.5))


def test_bytes_in_flight_leave_a_geforce_card_at_its_dram_bound() -> None:
    """The fitted bound binds where a card has few SMs for its bandwidth: the RTX 4090
    (128 SMs, 1,008 GB/s) needs 6.3 GB/s per SM at 80 % of its peak, the H100 SXM5
    (132 SMs, 3,350 GB/s) 20.3, above half the fitted 4-byte figure."""
    p = profile(activation_elements=1e9, batch_per_gpu=1, requested_precision="fp16")
    free = FITTED.model_copy(update={"per_sm_gb_s": 0.0})
    rtx = gpu("RTX 4090")
    assert gpu_step_time(p, rtx, FITTED).elementwise_s == pytest.approx(
        gpu_step_time(p, rtx, free).elementwise_s
    )
    h100 = gpu("H100 SXM5 80GB")
    assert gpu_step_time(p, h100, FITTED).elementwise_s > 1.1 * (
        gpu_step_time(p, h100, free).elementwise_s
    )
