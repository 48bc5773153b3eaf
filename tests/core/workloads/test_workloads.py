"""Workload presets, name resolution, HF config import and validation."""

import json

import pytest

from core.calc.parallel import check_gpu_count
from core.errors import InvalidWorkload, LookupFailed
from core.models.workload import OpMix
from core.workloads import architecture_from_hf_config, find_preset, load_hf_config, make_workload

BENCHMARK_NAMES = {
    # name as benchmark tables write it -> (sequence length or resolution, unit)
    "ResNet-50 v1.5": (None, "images/s"),
    "SSD300 v1.1 (ResNet-50 backbone)": (None, "images/s"),
    "BERT-base SQuAD v1.1 fine-tune": (384, "sequences/s"),
    "BERT-large SQuAD v1.1 fine-tune": (384, "sequences/s"),
    "BERT-large pre-training phase 1 (seq len 128)": (128, "sequences/s"),
    "BERT-large pre-training phase 2 (seq len 512)": (512, "sequences/s"),
    "Transformer-XL base (WikiText-103)": (192, "tokens/s"),
    "Transformer-XL large (WikiText-103)": (384, "tokens/s"),
    "GNMT v2 (LSTM seq2seq, WMT16 En-De)": (50, "tokens/s"),
    "Tacotron 2 (LSTM-based TTS)": (566, "mels/s"),
    "WaveGlow (flow-based vocoder)": (8000, "audio-samples/s"),
}


@pytest.mark.parametrize("name", sorted(BENCHMARK_NAMES))
def test_benchmark_names_resolve(name: str) -> None:
    seq, unit = BENCHMARK_NAMES[name]
    arch = find_preset(name).architecture
    assert arch.throughput_unit == unit
    assert arch.default_seq_len == seq


def test_exact_counts_from_model_facts() -> None:
    # shared/data/models/model_facts.csv params_exact
    assert find_preset("ResNet-50").architecture.params_total == 25557032
    assert find_preset("VGG16").architecture.params_total == 138357544
    assert find_preset("Llama-2 70B").architecture.params_total == 68976648192
    mixtral = find_preset("Mixtral 8x7B").architecture
    assert (mixtral.params_total, mixtral.params_active) == (46702792704, 12879925248)
    assert find_preset("ResNet-50").architecture.forward_flops_per_sample == pytest.approx(8.178e9)


def test_every_preset_has_op_mix_or_says_why() -> None:
    from core.workloads import load_presets

    for preset in load_presets():
        arch = preset.architecture
        if arch.op_mix is None:
            assert "NOT COUNTED" in preset.sources["op_mix"]
        else:
            assert arch.op_mix.total_flops >= (arch.forward_flops_per_sample or 0) * 0.99


def test_unknown_name_suggests() -> None:
    with pytest.raises(LookupFailed, match="ResNet-50"):
        find_preset("Resnet-05")


def test_qlora_fp32_rejected() -> None:
    with pytest.raises(InvalidWorkload, match="16-bit"):
        make_workload(find_preset("Llama-2 7B"), task="qlora", precision="fp32")


def test_tp_larger_than_gpus_rejected() -> None:
    workload = make_workload(find_preset("Llama-2 7B"), tp_degree=4)
    with pytest.raises(InvalidWorkload, match="exceeds"):
        check_gpu_count(workload, 2)


def test_lora_on_cnn_rejected() -> None:
    with pytest.raises(InvalidWorkload, match="cnn"):
        make_workload(find_preset("ResNet-50"), task="lora")


LLAMA2_7B = {
    "model_type": "llama",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 32,
    "intermediate_size": 11008,
    "vocab_size": 32000,
    "max_position_embeddings": 4096,
    "tie_word_embeddings": False,
}


def test_hf_llama_matches_model_facts() -> None:
    assert architecture_from_hf_config(LLAMA2_7B).params_total == 6738415616


def test_hf_mixtral_total_and_active() -> None:
    cfg = LLAMA2_7B | {
        "model_type": "mixtral",
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
    }
    arch = architecture_from_hf_config(cfg)
    assert (arch.params_total, arch.params_active) == (46702792704, 12879925248)


def test_hf_gpt2_and_bert_match_model_facts() -> None:
    gpt2 = {
        "model_type": "gpt2",
        "n_embd": 768,
        "n_layer": 12,
        "n_head": 12,
        "vocab_size": 50257,
        "n_positions": 1024,
    }
    assert architecture_from_hf_config(gpt2).params_total == 124439808
    bert = {
        "model_type": "bert",
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "vocab_size": 30522,
        "max_position_embeddings": 512,
        "type_vocab_size": 2,
    }
    assert architecture_from_hf_config(bert).params_total == 109482240


def test_hf_bad_field_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA2_7B | {"hidden_size": "big"}))
    with pytest.raises(InvalidWorkload, match="hidden_size"):
        load_hf_config(path)
    path.write_text(json.dumps({"model_type": "t5"}))
    with pytest.raises(InvalidWorkload, match="model_type"):
        load_hf_config(path)
    path.write_text("{not json")
    with pytest.raises(InvalidWorkload, match="cannot read"):
        load_hf_config(path)


def test_full_softmax_presets_match_their_derivation() -> None:
    """presets.json holds what tools/derive/derive_txl_full_softmax.py derives."""
    from tools.derive.derive_txl_full_softmax import derive

    derived = derive()
    for size in ("base", "large"):
        arch = find_preset(f"transformer-xl-{size}-full-softmax").architecture
        want = derived[size]
        assert arch.op_mix is not None
        assert arch.op_mix.matmul_conv_flops == want["matmul_conv_flops"]
        assert arch.op_mix.attention_flops == want["attention_flops"]
        assert arch.activation_elements_per_sample == want["activation_elements_per_sample"]
        assert arch.params_total == want["params_total"]
        assert arch.lm_head and arch.vocab_size == 267_735
        assert arch.forward_flops_per_sample == want["forward_flops_per_sample"]
        seq, d = (192, 512) if size == "base" else (256, 1024)
        assert arch.default_seq_len == seq
        # The logit GEMM over the odd 267,735-word vocabulary is the unaligned part.
        assert arch.op_mix.unaligned_matmul_flops == 2 * d * 267_735 * seq
    # Hand check of the large model's parameters: 18 DLE layers + tied 267,735 x 1024
    # embedding + output bias + the two relative-position biases (16 x 64 each).
    layer = 1024 * 3072 + 1024 * 1024 * 2 + 2 * 1024 + 1024 * 4096 + 4096 + 4096 * 1024 + 1024
    layer += 2 * 1024
    expected = 18 * layer + 267_735 * 1024 + 267_735 + 2 * 16 * 64
    assert find_preset("transformer-xl-large-full-softmax").architecture.params_total == expected


def test_waveglow_dilated_flops_follow_the_dle_module() -> None:
    """DLE waveglow/model.py: in_layers[i] = Conv1d(512, 1024, 3, dilation=2**i), i < 8, so 7
    dilated layers in each of 12 flows, over 8,000 samples folded into 1,000 groups of 8."""
    mix = find_preset("waveglow").architecture.op_mix
    assert mix is not None
    assert mix.dilated_conv_flops == 12 * 7 * 1000 * 3 * 512 * 1024 * 2
    assert mix.dilated_conv_flops < mix.matmul_conv_flops


def test_convolution_flops_follow_the_architecture() -> None:
    """Hand counts of the convolutions' share (2 FLOPs per multiply-add):
    ResNet-50's products are all convolutions but the 2,048 x 1,000 classifier; ViT-B/16's
    only convolution is the patch embedding, 196 patches x 768 outputs x (3 x 16 x 16)
    inputs; Swin-B's likewise, 56 x 56 patches x 128 outputs x (3 x 4 x 4); WaveGlow is
    convolutions throughout (its dilated ones among them); BERT has none."""

    def mix(name: str) -> OpMix:
        m = find_preset(name).architecture.op_mix
        assert m is not None
        return m

    rn50 = mix("resnet50-v1.5")
    assert rn50.conv_flops == rn50.matmul_conv_flops - 2 * 2048 * 1000
    assert mix("vit-b16").conv_flops == 2 * 196 * 768 * 768
    assert mix("swin-b").conv_flops == 2 * 56 * 56 * 128 * 3 * 4 * 4
    waveglow = mix("waveglow")
    assert waveglow.conv_flops == waveglow.matmul_conv_flops > waveglow.dilated_conv_flops
    assert mix("bert-large-squad").conv_flops == 0


def test_convolution_flops_are_part_of_the_products() -> None:
    with pytest.raises(ValueError, match="conv_flops"):
        OpMix(
            matmul_conv_flops=1e9,
            attention_flops=0,
            recurrent_flops=0,
            elementwise_flops=0,
            conv_flops=2e9,
        )


def test_resnet50_convolution_values_follow_he_et_al_table_1() -> None:
    """Input plus output values of every convolution of ResNet-50 v1.5 at 224 px, counted
    by hand from He et al. 2015 Table 1 (stride on the 3x3 conv, projection shortcut in
    each stage's first block)."""
    total = 3 * 224 * 224 + 64 * 112 * 112  # 7x7 stem
    cin, h = 64, 56
    stages = ((64, 256, 3, 1), (128, 512, 4, 2), (256, 1024, 6, 2), (512, 2048, 3, 2))
    for mid, out, n, stride in stages:
        for i in range(n):
            s = stride if i == 0 else 1
            ho = h // s
            total += cin * h * h + mid * h * h  # 1x1 reduce
            total += mid * h * h + mid * ho * ho  # 3x3
            total += mid * ho * ho + out * ho * ho  # 1x1 expand
            if i == 0:
                total += cin * h * h + out * ho * ho  # projection shortcut
            cin, h = out, ho
    assert total == 21_776_384
    arch = find_preset("resnet50-v1.5").architecture
    assert arch.conv_io_elements_per_sample == total
