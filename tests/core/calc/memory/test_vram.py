"""VRAM model: components derived by hand from the cited formulas."""

import pytest

from core.calc.memory import estimate_vram, max_batch_size, vram_breakdown
from core.calc.memory.components import first_stage_in_flight
from core.workloads import find_preset, make_workload

GIB = 2**30
P7B = 6738415616  # Llama-2 7B, model_facts.csv


def test_mixed_adam_is_16_bytes_per_param() -> None:
    w = make_workload(
        find_preset("Llama-2 7B"), task="training", precision="bf16", optimizer="adamw"
    )
    b = vram_breakdown(w, 1)
    assert b.weights_gib == pytest.approx(2 * P7B / GIB)
    assert b.gradients_gib == pytest.approx(2 * P7B / GIB)
    assert b.optimizer_gib == pytest.approx(12 * P7B / GIB)


def test_zero3_divides_states() -> None:
    base = make_workload(find_preset("GPT-2 XL"), task="training", precision="bf16")
    z3 = vram_breakdown(base.model_copy(update={"parallelism": "zero3"}), 4)
    full = vram_breakdown(base, 4)
    assert z3.optimizer_gib == pytest.approx(full.optimizer_gib / 4)
    assert z3.gradients_gib == pytest.approx(full.gradients_gib / 4)
    # weights: a quarter plus two gathered layers (2/48 of the full weights)
    assert z3.weights_gib == pytest.approx(full.weights_gib / 4 + 2 * full.weights_gib / 48)


def test_kv_cache_honours_gqa() -> None:
    # Llama-2 70B: 80 layers, 8 KV heads x 128; 4096 tokens, batch 1, fp16 -> 2*80*8*128*4096*2 B
    w = make_workload(
        find_preset("Llama-2 70B"),
        task="inference",
        precision="fp16",
        prompt_len=4000,
        generated_len=96,
    )
    assert vram_breakdown(w, 1).kv_cache_gib == pytest.approx(2 * 80 * 8 * 128 * 4096 * 2 / GIB)


def test_korthikanti_layer_formula() -> None:
    # GPT-2 small, fp16, dropout, eager: per layer sbh(34 + 5as/h) bytes, plus logits 4sbv
    w = make_workload(
        find_preset("GPT-2 small"),
        task="training",
        precision="fp16",
        batch_size=2,
        stack="pytorch-eager",
    )
    s, b, h, a, v = 1024, 2, 768, 12, 50257
    expected = 12 * s * b * h * (34 + 5 * a * s / h) + 4 * s * b * v
    assert vram_breakdown(w, 1).activations_gib == pytest.approx(expected / GIB)
    # PyTorch 2's scaled_dot_product_attention (FlashAttention) keeps no s x s scores:
    # sbh x 34 per layer (Korthikanti et al. 2022 Table 2, selective recompute row); its
    # Hugging Face loss holds 16-bit logits, their fp32 copy, the fp32 log-softmax and
    # both gradients: 2 + 4 + 4 + 4 + 2 = 16 bytes per logit
    flash = w.model_copy(update={"stack": "pytorch"})
    expected = 12 * s * b * h * 34 + 16 * s * b * v
    assert vram_breakdown(flash, 1).activations_gib == pytest.approx(expected / GIB)


def test_memory_recipes_master_weights_optimizers_and_offload() -> None:
    """Llama-2 7B (6,738,415,616 parameters), bf16 full training on one GPU.
    Per parameter: weights 2 B, gradients 2 B, AdamW 8 B + fp32 master 4 B = 16 B;
    pure bf16 drops the master copy and keeps m and v in bf16 (4 B); AdamW 8-bit keeps
    2 B of state."""
    p = 6_738_415_616
    base = make_workload(
        find_preset("Llama-2 7B"), task="training", precision="bf16", batch_size=1, seq_len=512
    )
    full = vram_breakdown(base, 1)
    assert full.optimizer_gib == pytest.approx(p * 12 / GIB)
    none = vram_breakdown(base.model_copy(update={"master_weights": "none"}), 1)
    assert none.optimizer_gib == pytest.approx(p * 4 / GIB)
    eight = vram_breakdown(
        base.model_copy(update={"master_weights": "none", "optimizer": "adamw8bit"}), 1
    )
    assert eight.optimizer_gib == pytest.approx(p * 2 / GIB)
    paged = vram_breakdown(base.model_copy(update={"optimizer": "paged-adamw8bit"}), 1)
    assert paged.optimizer_gib == pytest.approx(p * (2 + 4) / GIB)
    # the optimizer steps in the backward: two of the 32 layers' gradients at a time
    inbwd = vram_breakdown(base.model_copy(update={"optimizer_in_backward": True}), 1)
    assert inbwd.gradients_gib == pytest.approx(full.gradients_gib * 2 / 32)
    # optimizer offload: no optimizer state on the GPU
    off = vram_breakdown(base.model_copy(update={"offload": "optimizer"}), 1)
    assert off.optimizer_gib == 0.0
    # activation offload: the GPU keeps one layer plus one 2-byte checkpoint in flight,
    # far less than full checkpointing's 32 checkpoints
    acts = base.model_copy(update={"offload": "activations", "checkpointing": "full"})
    ckpt = base.model_copy(update={"checkpointing": "full"})
    s, h = 512, 4096
    saved = vram_breakdown(ckpt, 1).activations_gib - vram_breakdown(acts, 1).activations_gib
    assert saved == pytest.approx(30 * s * h * 2 / GIB)


def test_max_batch_is_largest_that_fits() -> None:
    w = make_workload(find_preset("BERT-large"), task="training", precision="fp16")
    best = max_batch_size(w, 1, 24.0)
    assert best >= 1
    assert vram_breakdown(w.model_copy(update={"batch_size": best}), 1).total_gib <= 24.0
    assert vram_breakdown(w.model_copy(update={"batch_size": best + 1}), 1).total_gib > 24.0


def test_fixes_when_not_fitting() -> None:
    w = make_workload(find_preset("Llama-2 7B"), task="training", precision="bf16", seq_len=2048)
    result = estimate_vram(w, 24.0, 1)
    assert not result.fits
    assert result.fixes and result.fixes[0].numbers["fits"] == 1
    codes = [f.code for f in result.fixes]
    assert "qlora" in codes
    assert all(float(f.numbers["total_gib"]) < result.total_gib for f in result.fixes)


def test_fits_has_no_fixes_and_positive_margin() -> None:
    w = make_workload(find_preset("ResNet-50"), task="training", precision="fp16", batch_size=64)
    result = estimate_vram(w, 80.0, 1)
    assert result.fits and result.free_gib > 0 and result.fixes == ()


def test_counted_saved_activations_used_for_cnn_training() -> None:
    # ResNet-50 preset: 85,913,512 fp32 bytes saved per sample (counted); AMP halves them;
    # 112 px is a quarter of the 224 px pixels; inference keeps the all-outputs count
    preset = find_preset("ResNet-50")
    saved = preset.architecture.saved_activation_bytes_per_sample_fp32
    assert saved == 85913512
    w = make_workload(preset, precision="fp16", optimizer="sgd", batch_size=8)
    assert vram_breakdown(w, 1).activations_gib == pytest.approx(saved / 2 * 8 / GIB)
    small = w.model_copy(update={"seq_len": 112})
    assert vram_breakdown(small, 1).activations_gib == pytest.approx(saved / 2 * 2 / GIB)
    infer = w.model_copy(update={"task": "inference"})
    elements = preset.architecture.activation_elements_per_sample or 0
    assert vram_breakdown(infer, 1).activations_gib == pytest.approx(elements * 2 * 8 / GIB)


def test_chunked_loss_keeps_only_16bit_logits_whole() -> None:
    """Llama 3.2 3B (vocabulary 128,256), batch 2 x 4,096 tokens: 1,050,673,152 logits.
    Unchunked under PyTorch 2 the loss peak holds 16 B per logit (16-bit logits, fp32
    upcast, log-softmax and gradient, 16-bit gradient). torchtune's chunked loss keeps
    the 16-bit logits (2 B) and one eighth of 4 + 4 + 2 B in flight (1.25 B); uncompiled
    it also keeps each chunk's fp32 log-softmax (4 B): 3.25 and 7.25 B per logit."""
    logits = 2 * 4096 * 128_256
    for stack, per_logit in (("pytorch-compile", 3.25), ("pytorch", 7.25)):
        plain = make_workload(
            find_preset("Llama 3.2 3B"),
            task="training",
            precision="bf16",
            batch_size=2,
            seq_len=4096,
            stack=stack,
        )
        chunked = plain.model_copy(update={"chunked_loss": True})
        saved = (
            vram_breakdown(plain, 1).activations_gib - vram_breakdown(chunked, 1).activations_gib
        )
        assert saved == pytest.approx((16 - per_logit) * logits / GIB)
    # a convnet has no logits over a vocabulary: the setting changes nothing
    conv = make_workload(find_preset("ResNet-50"), task="training", precision="fp16")
    with_it = conv.model_copy(update={"chunked_loss": True})
    assert vram_breakdown(with_it, 1).total_gib == vram_breakdown(conv, 1).total_gib


def test_pipeline_stages_hold_their_share_of_the_model_and_one_microbatch_of_layers() -> None:
    """Llama-2 7B (32 layers, vocabulary 32,000, hidden 4,096, untied: embeddings and
    output layer 2 x 32,000 x 4,096 = 262,144,000 parameters), bf16 AdamW, 4 stages on
    8 GPUs, 4 micro-batches per step. The fullest stage holds a quarter of the layers'
    parameters plus one vocabulary matrix (the first the embedding, the last the output
    layer): (6,738,415,616 - 262,144,000) / 4 + 131,072,000 = 1,750,139,904, at 2 B
    (weights), 2 B (gradients) and 12 B (optimizer). Under 1F1B the first stage keeps 4
    micro-batches over its 8 layers, one micro-batch of all 32 (Narayanan et al. 2021
    §2.2), and no logits; the last stage keeps one micro-batch over its 8 layers and the
    logits, 4096 x 32,000 x 16 B under PyTorch 2 (fp32 upcast, log-softmax and
    gradients, stacks.py), which is less: the first stage is the fullest. With one
    micro-batch per step only one is ever in flight: a quarter of the layers' values."""
    base = make_workload(
        find_preset("Llama-2 7B"), task="training", precision="bf16", batch_size=1, seq_len=4096
    )
    stage = 1_750_139_904
    whole = vram_breakdown(base, 8)
    piped = vram_breakdown(base.model_copy(update={"pp_degree": 4, "grad_accum_steps": 4}), 8)
    assert piped.weights_gib == pytest.approx(2 * stage / GIB)
    assert piped.gradients_gib == pytest.approx(2 * stage / GIB)
    assert piped.optimizer_gib == pytest.approx(12 * stage / GIB)
    logits = 16 * 4096 * 32_000 / GIB
    layers = whole.activations_gib - logits
    assert piped.activations_gib > layers / 4 + logits
    assert piped.activations_gib == pytest.approx(layers)
    single = vram_breakdown(base.model_copy(update={"pp_degree": 4}), 8)
    assert single.activations_gib == pytest.approx(layers / 4 + logits)


def test_interleaved_pipeline_keeps_more_micro_batches_in_flight_on_the_first_stage() -> None:
    """Megatron-LM's interleaved schedule on the first stage: 2(p - 1) + (v - 1)p warm-up
    forwards of one chunk plus one in the steady state. Llama-2 7B's 32 layers, 4 stages
    of 2 chunks (4 layers each), 8 micro-batches: 2 x 3 + 1 x 4 + 1 = 11 chunk micro-
    batches of 4 layers = 44 layers' activations, against 1F1B's 4 micro-batches over 8
    layers = 32; with 2 micro-batches the schedule holds all of them, 2 x 2 chunks = 16
    layers (as 1F1B: 2 over 8)."""
    assert first_stage_in_flight(4, 1, 8) == 4
    assert first_stage_in_flight(4, 2, 8) == 11 / 2
    assert first_stage_in_flight(4, 2, 2) == 2
    base = make_workload(
        find_preset("Llama-2 7B"), task="training", precision="bf16", batch_size=1, seq_len=4096
    )
    plain = base.model_copy(update={"pp_degree": 4, "grad_accum_steps": 8})
    layers_1f1b = vram_breakdown(plain, 8).activations_gib
    chunked = vram_breakdown(plain.model_copy(update={"pp_virtual_stages": 2}), 8)
    assert chunked.activations_gib == pytest.approx(layers_1f1b * 44 / 32)


def test_pipeline_settings_checked_against_model_and_gpus() -> None:
    from core.calc.parallel import check_gpu_count
    from core.errors import InvalidWorkload, RigForgeError

    llama = find_preset("Llama-2 7B")  # 32 layers
    with pytest.raises(RigForgeError, match="exceed the model's 32 layers"):
        make_workload(llama, task="training", pp_degree=4, pp_virtual_stages=16)
    with pytest.raises(RigForgeError, match="inference splits layers"):
        make_workload(llama, task="inference", pp_degree=2)
    with pytest.raises(RigForgeError, match="not fsdp"):
        make_workload(llama, task="training", pp_degree=2, parallelism="fsdp")
    with pytest.raises(RigForgeError, match="virtual pipeline stages need"):
        make_workload(llama, task="training", pp_virtual_stages=2)
    w = make_workload(llama, task="training", tp_degree=2, pp_degree=4)
    with pytest.raises(InvalidWorkload, match="needs 8 GPUs; the build has 4"):
        check_gpu_count(w, 4)
    with pytest.raises(InvalidWorkload, match="groups of 8"):
        check_gpu_count(w, 12)
    check_gpu_count(w, 16)


def test_pipeline_fix_splits_the_model_over_the_gpus_and_fills_the_pipeline() -> None:
    """Llama-2 7B, bf16 AdamW on 4 x 80 GB: 16 B x 6.74 B parameters of model states per GPU
    (100 GiB) do not fit; 4 pipeline stages hold a quarter of the layers each and one
    vocabulary matrix, 1,750,139,904 parameters (see above). The fix also asks for
    2 micro-batches per stage per step, or the pipeline would idle 3/4 of the time
    ((p - 1) / m, Narayanan et al. 2021)."""
    from core.text.fixes import fix_text

    w = make_workload(
        find_preset("Llama-2 7B"), task="training", precision="bf16", batch_size=1, seq_len=2048
    )
    result = estimate_vram(w, 80.0, 4)
    assert not result.fits
    fix = next(f for f in result.fixes if f.code == "pipeline_parallel")
    assert fix.workload == {"pp_degree": 4, "parallelism": "data", "grad_accum_steps": 8}
    after = vram_breakdown(w.model_copy(update=fix.workload), 4)
    assert after.optimizer_gib == pytest.approx(12 * 1_750_139_904 / GIB)
    assert fix.numbers == {"total_gib": round(after.total_gib, 1), "fits": 1}
    assert fix_text(fix).startswith("pipeline parallel over 4 stages, 8 micro-batches per step → ")


def test_host_ram_stages_each_process_share_of_the_weights() -> None:
    """Each process loads its own weights before moving them to its GPU: on 8 GPUs, 8 full
    bf16 copies of Llama-2 7B (8 x 2 B x P) under data parallelism, and 8 quarters, i.e.
    2 copies, when 4 pipeline stages each hold a quarter of the layers; FSDP loads one
    shared copy. Pinned input buffers of a token model are negligible here (< 1 MiB)."""
    base = make_workload(
        find_preset("Llama-2 7B"), task="training", precision="bf16", batch_size=1, seq_len=2048
    )
    copy_gib = 2 * P7B / GIB
    data = estimate_vram(base, 80.0, 8, with_fixes=False).host_ram_gib
    piped = estimate_vram(
        base.model_copy(update={"pp_degree": 4}), 80.0, 8, with_fixes=False
    ).host_ram_gib
    fsdp = estimate_vram(
        base.model_copy(update={"parallelism": "fsdp"}), 80.0, 8, with_fixes=False
    ).host_ram_gib
    assert data == pytest.approx(8 * copy_gib, abs=0.01)
    assert piped == pytest.approx(2 * copy_gib, abs=0.01)
    assert fsdp == pytest.approx(copy_gib, abs=0.01)


def test_offloaded_optimizer_is_one_copy_when_sharded_and_one_per_replica_when_not() -> None:
    """AdamW offloaded to the CPU keeps 8 B of moments, 4 B of fp32 master weights and 4 B
    of fp32 gradients per trainable parameter in host RAM (ZeRO-Offload). On 4 GPUs, ZeRO-2
    shards that over the ranks (one 16 B x P copy in all); plain data parallelism runs 4
    replicas that each offload their own, so 3 more copies: 3 x 16 B x 6,738,415,616 =
    323,443,949,568 B more host RAM (both stage 4 copies of the weights while loading)."""
    base = make_workload(
        find_preset("Llama-2 7B"),
        task="training",
        precision="bf16",
        batch_size=1,
        seq_len=2048,
        offload="optimizer",
    )
    data = estimate_vram(base, 80.0, 4, with_fixes=False).host_ram_gib
    zero2 = estimate_vram(
        base.model_copy(update={"parallelism": "zero2"}), 80.0, 4, with_fixes=False
    ).host_ram_gib
    assert data - zero2 == pytest.approx(323_443_949_568 / GIB, abs=0.01)


def test_uneven_pipeline_counts_whole_layers_on_the_fullest_stage() -> None:
    """Llama-2 7B's 32 layers over 3 stages: chunks hold whole layers, so the fullest
    stage has ceil(32 / 3) = 11 of them: (6,738,415,616 - 262,144,000) x 11 / 32 +
    131,072,000 = 2,357,290,368 parameters at 2 B (bf16 weights). A recurrent model's
    layers are not split into a pipeline. On 12 GPUs the memory fix picks 4 stages (the
    most that divide both 12 GPUs and 32 layers evenly), not 12 stages of 2.7 layers."""
    from core.errors import RigForgeError

    llama = find_preset("Llama-2 7B")
    w = make_workload(llama, task="training", precision="bf16", batch_size=1, seq_len=2048)
    three = vram_breakdown(w.model_copy(update={"pp_degree": 3}), 3)
    assert three.weights_gib == pytest.approx(2 * 2_357_290_368 / GIB)
    with pytest.raises(RigForgeError, match="transformer layers only"):
        make_workload(find_preset("GNMT v2"), task="training", pp_degree=2)
    fix = next(f for f in estimate_vram(w, 24.0, 12).fixes if f.code == "pipeline_parallel")
    assert fix.workload["pp_degree"] == 4


def test_fixes_under_a_pipeline_keep_or_drop_it_as_they_must() -> None:
    """Llama-2 7B, bf16 AdamW, 2 stages on 8 x 24 GB: the stage holds (P - 262,144,000) / 2 +
    131,072,000 = 3,369,207,808 parameters at 16 B, 50.2 GiB: no fit. ZeRO-1 shards the
    optimizer state over the 4 replicas and keeps the pipeline (Megatron's distributed
    optimizer); ZeRO-2/3 do not run under a pipeline, so they drop it and say so; more
    stages (8 of 4 layers, 16 micro-batches) are offered; tensor parallelism splits the
    4 GPUs of a stage."""
    from core.text.fixes import fix_text

    w = make_workload(
        find_preset("Llama-2 7B"),
        task="training",
        precision="bf16",
        batch_size=1,
        seq_len=2048,
        pp_degree=2,
        grad_accum_steps=4,
    )
    result = estimate_vram(w, 24.0, 8)
    assert result.breakdown.optimizer_gib == pytest.approx(12 * 3_369_207_808 / GIB)
    fixes = {f.code: f for f in result.fixes}
    assert fixes["zero1"].workload == {"parallelism": "zero1"}
    assert fixes["zero1"].numbers["total_gib"] < result.total_gib
    assert fixes["zero2"].workload == {
        "parallelism": "zero2",
        "pp_degree": 1,
        "pp_virtual_stages": 1,
    }
    assert "without the pipeline" in fix_text(fixes["zero2"])
    assert fixes["pipeline_parallel"].workload == {
        "pp_degree": 8,
        "parallelism": "data",
        "grad_accum_steps": 16,
    }
    assert fixes["tensor_parallel"].workload["tp_degree"] == 4
