"""timm model names resolve to presets whose counts match timm's published figures.

Published figures: timm (huggingface/pytorch-image-models)
results/benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv, columns param_count (millions,
two decimals; results/results-imagenet.csv gives the same) and infer_gmacs (multiply-adds
at infer_img_size 224). EfficientNet-B0's infer_gmacs (0.4) is rounded to one digit and
includes normalization/activation ops, so its FLOPs are checked against Tan & Le 2019
(arXiv:1905.11946) Table 2 instead: 0.39B FLOPS (multiply-adds). The counts themselves come
from tools/derive/count_timm_presets.py (timm 1.0.31, torch 2.14.1).
"""

import pytest

from core.workloads import find_preset, make_workload

# timm name -> (preset id, param_count in M, forward GMACs at 224)
PUBLISHED = {
    "resnet50": ("resnet50-v1.5", 25.56, 4.11),
    "vgg16": ("vgg16", 138.36, 15.47),
    "vit_base_patch16_224": ("vit-b16", 86.57, 17.58),
    "resnet101": ("resnet101", 44.55, 7.83),
    "efficientnet_b0": ("efficientnet-b0", 5.29, 0.39),
    "convnext_base": ("convnext-base", 88.59, 15.38),
    "deit_base_patch16_224": ("deit-b16", 86.57, 17.58),
    "swin_base_patch4_window7_224": ("swin-b", 87.77, 15.47),
    "vit_large_patch16_224": ("vit-l16", 304.33, 61.6),
}

HUMAN_NAMES = {
    "ResNet-101": "resnet101",
    "EfficientNet-B0": "efficientnet-b0",
    "ConvNeXt-B": "convnext-base",
    "DeiT-B": "deit-b16",
    "Swin-B": "swin-b",
    "ViT-L/16": "vit-l16",
    "ViT-B/16": "vit-b16",
}

TRANSFORMERS = {
    # timm name -> (layers, hidden, heads, ffn): Dosovitskiy et al. 2020 Table 1, DeiT Table 1
    "vit_base_patch16_224": (12, 768, 12, 3072),
    "deit_base_patch16_224": (12, 768, 12, 3072),
    "vit_large_patch16_224": (24, 1024, 16, 4096),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_timm_name_resolves(name: str) -> None:
    preset = find_preset(name)
    assert preset.id == PUBLISHED[name][0]
    arch = preset.architecture
    assert arch.input_kind == "image"
    assert arch.throughput_unit == "images/s"
    assert arch.image_resolution_px == 224
    assert arch.input_bytes_per_sample == 3 * 224 * 224


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_params_match_timm(name: str) -> None:
    params_m = PUBLISHED[name][1]
    # published to two decimals: the exact count rounds to it
    assert abs(find_preset(name).architecture.params_total / 1e6 - params_m) <= 0.005 + 1e-9


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_forward_flops_match_published_gmacs(name: str) -> None:
    arch = find_preset(name).architecture
    gmacs = PUBLISHED[name][2]
    assert arch.forward_flops_per_sample == pytest.approx(2e9 * gmacs, rel=0.03)
    assert arch.op_mix is not None
    mix = arch.op_mix
    assert mix.matmul_conv_flops + mix.attention_flops == pytest.approx(
        arch.forward_flops_per_sample, rel=0.001
    )
    assert mix.total_flops >= arch.forward_flops_per_sample


@pytest.mark.parametrize("name", sorted(HUMAN_NAMES))
def test_human_names_resolve(name: str) -> None:
    assert find_preset(name).id == HUMAN_NAMES[name]


@pytest.mark.parametrize("name", sorted(TRANSFORMERS))
def test_vit_fields(name: str) -> None:
    arch = find_preset(name).architecture
    layers, hidden, heads, ffn = TRANSFORMERS[name]
    assert arch.kind == "encoder"
    assert (arch.layers, arch.hidden_size, arch.heads, arch.ffn_hidden_size) == (
        layers,
        hidden,
        heads,
        ffn,
    )
    assert arch.default_seq_len == (224 // 16) ** 2 + 1
    assert arch.op_mix is not None and arch.op_mix.attention_flops > 0
    assert not arch.lm_head


@pytest.mark.parametrize(
    "name", ["resnet101", "efficientnet_b0", "convnext_base", "swin_base_patch4_window7_224"]
)
def test_cnn_kind_presets_have_saved_bytes(name: str) -> None:
    preset = find_preset(name)
    arch = preset.architecture
    assert arch.kind == "cnn"
    assert arch.saved_activation_bytes_per_sample_fp32
    assert arch.activation_elements_per_sample
    assert preset.default_batch_size == 256 or name.startswith("swin")
    assert make_workload(preset).task == "training"


def test_swin_window_attention_is_counted() -> None:
    arch = find_preset("swin_base_patch4_window7_224").architecture
    assert arch.op_mix is not None
    # Liu et al. 2021: 7x7 windows, head dim 32; QK^T + AV = 4 x tokens x 49 x C per block
    blocks = ((3136, 128, 2), (784, 256, 2), (196, 512, 18), (49, 1024, 2))
    assert arch.op_mix.attention_flops == sum(4 * n * 49 * c * d for n, c, d in blocks)
    assert arch.resolved_head_dim == 32
