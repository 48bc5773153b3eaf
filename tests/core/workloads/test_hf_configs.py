"""The sourced Hugging Face configs in resources/workloads/hf-configs: parser and presets.

Published figures are the makers' rounded numbers (each file's ``published_params`` says
where they are from); the hand-worked counts below follow the transformers modules.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.errors import InvalidWorkload
from core.models.workload import Architecture, WorkloadPreset
from core.workloads import architecture_from_hf_config, find_preset, load_hf_config, load_presets
from core.workloads.presets import HF_FLOPS_SOURCE, make_workload

ROOT = Path(__file__).resolve().parents[3]
HF_DIR = ROOT / "resources" / "workloads" / "hf-configs"
FILES = sorted(HF_DIR.glob("*.json"))

# OpenAI's gpt-oss "active parameters" leave the input embedding table out (a lookup,
# no matmul) and keep the unembedding: 5.13 B / 3.61 B when the 201,088 x 2880 input
# table is taken off our count, 5.71 B / 4.19 B (12 % / 16 % above) with it. The
# Architecture convention (Mixtral's 12.9 B, DeepSeek's "37B activated" and Qwen's
# "3.3B activated" all include the embeddings) keeps it in params_active, so for these
# two the published figure is compared without it. Inferred from the arithmetic; the
# gpt-oss model card's own table was not read.
ACTIVE_WITHOUT_INPUT_EMBEDDING = {"gpt-oss-20b", "gpt-oss-120b", "qwen3.5-35b-a3b"}


def _wrapped(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HF_DIR / f"{name}.json").read_text("utf-8"))
    return data


def _arch(name: str) -> Architecture:
    return architecture_from_hf_config(_wrapped(name)["config"])


ROUNDED_ACTIVE = {"qwen3-next-80b-a3b": 0.3}
"""Makers' active counts rounded past 5 %: Qwen's "only 3B active" for Qwen3-Next, whose
routed + shared experts and attention with embeddings come to 3.87 B (3.25 B without
the 0.62 B of input and output tables)."""


def test_all_files_are_there() -> None:
    assert len(FILES) == 34


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_parses_within_published_counts(path: Path) -> None:
    wrapped = json.loads(path.read_text("utf-8"))
    arch = architecture_from_hf_config(wrapped["config"])
    assert load_hf_config(path) == arch  # the wrapper file itself imports too
    published = wrapped["published_params"]
    assert arch.params_total == pytest.approx(published["total"], rel=0.03)
    if published.get("active"):
        assert arch.params_active is not None
        active = arch.params_active
        if wrapped["id"] in ACTIVE_WITHOUT_INPUT_EMBEDDING:
            active -= (arch.vocab_size or 0) * (arch.hidden_size or 0)
        rel = ROUNDED_ACTIVE.get(wrapped["id"], 0.05)
        assert active == pytest.approx(published["active"], rel=rel)
    else:
        assert arch.params_active is None
    assert arch.kind == "decoder" and arch.mlp == "swiglu"
    assert arch.default_seq_len == (
        wrapped["config"].get("text_config", wrapped["config"]).get("max_position_embeddings")
        or 131_072  # Gemma 3's text_config leaves it to Gemma3TextConfig
    )
    assert arch.forward_flops_per_sample


def test_llama_32_3b_exact() -> None:
    """Tied embeddings (torchtune's TiedLinear; Meta's card: "Shared Embeddings: Yes")."""
    arch = _arch("llama-3.2-3b")
    h, f, v, kv = 3072, 8192, 128256, 8 * 128
    layer = h * h + 2 * h * kv + h * h + 3 * h * f + 2 * h  # q k v o, gate up down, 2 norms
    assert layer == 100_669_440
    assert v * h + 28 * layer + h == 3_212_749_824  # Meta: "3B (3.21B)"
    assert arch.params_total == 3_212_749_824
    assert arch.embedding_params == v * h
    assert (arch.heads, arch.kv_heads, arch.head_dim, arch.layers) == (24, 8, 128, 28)


def test_qwen25_7b_exact_with_its_attention_biases() -> None:
    """Qwen2 layers add a bias to the q, k and v projections (not o); untied head.
    Qwen's model card: "Number of Parameters: 7.61B"."""
    arch = _arch("qwen2.5-7b")
    h, f, v, kv = 3584, 18944, 152064, 4 * 128
    attention = (h * h + h) + 2 * (h * kv + kv) + h * h
    layer = attention + 3 * h * f + 2 * h  # q k v o, gate up down, 2 norms
    assert layer == 233_057_792
    assert 2 * v * h + 28 * layer + h == 7_615_616_512
    assert arch.params_total == 7_615_616_512
    assert (arch.heads, arch.kv_heads, arch.head_dim, arch.layers) == (28, 4, 128, 28)


def test_llama_31_8b_exact() -> None:
    arch = _arch("llama-3.1-8b")
    h, f, v, kv = 4096, 14336, 128256, 8 * 128
    layer = h * h + 2 * h * kv + h * h + 3 * h * f + 2 * h  # q k v o, gate up down, 2 norms
    assert 2 * v * h + 32 * layer + h == 8_030_261_248
    assert arch.params_total == 8_030_261_248  # safetensors metadata / widely cited
    assert arch.embedding_params == 2 * v * h  # untied head
    assert (arch.heads, arch.kv_heads, arch.head_dim, arch.vocab_size) == (32, 8, 128, v)
    assert arch.default_seq_len == 131_072
    assert arch.num_experts is None and arch.sliding_window is None


def test_llama_3_8b_flops_match_presets_json() -> None:
    """Same convention as presets.json: its Llama-3 8B and Mixtral figures come out exactly."""
    cfg = _wrapped("llama-3.1-8b")["config"] | {"max_position_embeddings": 8192}
    llama3 = find_preset("llama-3-8b").architecture
    assert architecture_from_hf_config(cfg).forward_flops_per_sample == (
        llama3.forward_flops_per_sample
    )
    mixtral = {
        "model_type": "mixtral",
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "vocab_size": 32000,
        "max_position_embeddings": 4096,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
    }
    preset = find_preset("mixtral-8x7b").architecture
    arch = architecture_from_hf_config(mixtral)
    assert arch.forward_flops_per_sample == preset.forward_flops_per_sample
    assert (arch.params_total, arch.params_active) == (preset.params_total, preset.params_active)


def test_qwen3_30b_a3b() -> None:
    arch = _arch("qwen3-30b-a3b")
    h, v, e, fe = 2048, 151936, 128, 768
    attn = h * 32 * 128 + 2 * h * 4 * 128 + 32 * 128 * h + 2 * 128  # + q_norm, k_norm
    moe = e * 3 * h * fe + h * e  # experts + router
    total = 2 * v * h + 48 * (attn + 2 * h + moe) + h
    assert arch.params_total == total
    assert arch.params_active == total - 48 * (e - 8) * 3 * h * fe
    assert arch.params_total == pytest.approx(30.5e9, rel=0.01)
    assert arch.params_active == pytest.approx(3.3e9, rel=0.02)
    # card: "Number of Paramaters (Non-Embedding): 29.9B"
    assert arch.params_total - arch.embedding_params == pytest.approx(29.9e9, rel=0.005)
    assert (arch.num_experts, arch.experts_per_token, arch.shared_experts) == (128, 8, 0)
    assert (arch.ffn_hidden_size, arch.moe_ffn_hidden_size, arch.dense_layers) == (768, None, 0)


@pytest.mark.parametrize(
    ("name", "non_embedding"),
    [
        ("qwen3-8b", 6.95e9),
        ("qwen3-14b", 13.2e9),
        ("qwen3-32b", 31.2e9),
        ("qwen3-235b-a22b", 234e9),
    ],
)
def test_qwen3_non_embedding_counts(name: str, non_embedding: float) -> None:
    # The model cards' "Number of Paramaters (Non-Embedding)" (quoted in each file's source).
    arch = _arch(name)
    assert arch.params_total - arch.embedding_params == pytest.approx(non_embedding, rel=0.005)


def test_deepseek_v3_mla_and_moe() -> None:
    arch = _arch("deepseek-v3")
    assert (arch.kv_lora_rank, arch.qk_rope_head_dim) == (512, 64)
    assert (arch.num_experts, arch.experts_per_token, arch.shared_experts) == (256, 8, 1)
    assert (arch.dense_layers, arch.ffn_hidden_size, arch.moe_ffn_hidden_size) == (3, 18432, 2048)
    assert arch.head_dim == 128 + 64  # qk_nope + qk_rope
    h, v, heads = 7168, 129280, 128
    q = h * 1536 + 1536 + 1536 * heads * 192  # q_a, q_a_layernorm, q_b
    kv = h * (512 + 64) + 512 + 512 * heads * (128 + 128)  # kv_a_proj_with_mqa, norm, kv_b
    attn = q + kv + heads * 128 * h  # + o_proj
    expert = 3 * h * 2048
    dense = 3 * (attn + 2 * h + 3 * h * 18432)
    moe = 58 * (attn + 2 * h + 256 * expert + expert + 256 * h)  # routed, shared, router
    total = 2 * v * h + dense + moe + h
    assert arch.params_total == total
    assert arch.params_active == total - 58 * (256 - 8) * expert
    assert arch.params_total == pytest.approx(671e9, rel=0.001)  # MTP layer not counted
    assert _arch("deepseek-r1") == arch


def test_gpt_oss_20b() -> None:
    arch = _arch("gpt-oss-20b")
    assert (arch.sliding_window, arch.sliding_window_layers, arch.layers) == (128, 12, 24)
    assert (arch.num_experts, arch.experts_per_token, arch.shared_experts) == (32, 4, 0)
    h, f, v, e = 2880, 2880, 201088, 32
    attn_w = h * 64 * 64 * 2 + 2 * h * 8 * 64  # q, o and k, v weights
    attn = attn_w + 64 * 64 + 2 * 8 * 64 + h + 64  # biases and one sink per head
    expert_w = h * 2 * f + f * h
    expert = expert_w + 2 * f + h  # gate_up and down biases
    router = e * h + e
    total = 2 * v * h + 24 * (attn + 2 * h + e * expert + router) + h
    assert arch.params_total == total
    assert arch.params_active == total - 24 * (e - 4) * expert
    # FLOPs: 2N (matmul weights, head included, input table excluded) + attention with the
    # 12 sliding layers seeing 128 tokens and the 12 full ones the whole 131072.
    s = 131_072
    n = 24 * (attn_w + 4 * expert_w + e * h) + v * h
    attention = 2 * s * 64 * (64 + 64) * (12 * s + 12 * 128)
    assert arch.forward_flops_per_sample == pytest.approx(2 * n * s + attention, rel=1e-12)
    assert _arch("gpt-oss-120b").sliding_window_layers == 18


def test_gemma_3_27b_text_decoder() -> None:
    arch = _arch("gemma-3-27b")
    # 5 local : 1 global from the first layer: layers 6, 12, ..., 60 are global.
    assert (arch.sliding_window, arch.sliding_window_layers, arch.layers) == (1024, 52, 62)
    assert arch.vocab_size == 262_208  # Gemma3TextConfig default; tied head
    assert arch.embedding_params == 262_208 * 5376
    assert (arch.heads, arch.kv_heads, arch.head_dim) == (32, 16, 128)
    # Gemma 3 report Table 1: 25,600M non-embedding parameters (vision tower not counted)
    assert arch.params_total - arch.embedding_params == pytest.approx(25_600e6, rel=0.001)


def test_mistral_small_text_decoder() -> None:
    arch = _arch("mistral-small-24b")
    h, f, v = 5120, 32768, 131072
    layer = h * 4096 * 2 + 2 * h * 1024 + 3 * h * f + 2 * h
    assert arch.params_total == 2 * v * h + 40 * layer + h  # untied: MistralConfig default
    assert arch.head_dim == 128 and arch.sliding_window is None


def test_qwen2_biases_and_sliding_window() -> None:
    cfg: dict[str, Any] = {
        "model_type": "qwen2",
        "hidden_size": 3584,
        "num_hidden_layers": 28,
        "num_attention_heads": 28,
        "num_key_value_heads": 4,
        "intermediate_size": 18944,
        "vocab_size": 152064,
        "max_position_embeddings": 32768,
        "tie_word_embeddings": False,
        "use_sliding_window": False,
        "sliding_window": 131072,
        "max_window_layers": 28,
    }
    h, kv = 3584, 4 * 128
    attn = 2 * h * h + 2 * h * kv + (h + 2 * kv)  # q/k/v biases, none on o
    total = 2 * 152064 * h + 28 * (attn + 3 * h * 18944 + 2 * h) + h
    arch = architecture_from_hf_config(cfg)
    assert arch.params_total == total == 7_615_616_512  # Qwen2.5-7B's count
    assert arch.sliding_window is None
    windowed = architecture_from_hf_config(
        cfg | {"use_sliding_window": True, "max_window_layers": 20}
    )
    assert (windowed.sliding_window, windowed.sliding_window_layers) == (131072, 8)


def test_mistral_sliding_window_on_every_layer() -> None:
    cfg = {
        "model_type": "mistral",
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "vocab_size": 32000,
        "max_position_embeddings": 32768,
        "sliding_window": 4096,
    }
    arch = architecture_from_hf_config(cfg)
    assert arch.params_total == find_preset("mistral-7b").architecture.params_total
    assert (arch.sliding_window, arch.sliding_window_layers) == (4096, 32)


def _error(cfg: dict[str, Any]) -> str:
    with pytest.raises(InvalidWorkload) as info:
        architecture_from_hf_config(cfg)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_errors_name_the_field() -> None:
    mistral3 = _wrapped("mistral-small-24b")["config"]
    assert "'text_config'" in _error({k: v for k, v in mistral3.items() if k != "text_config"})
    bad_text = mistral3 | {"text_config": mistral3["text_config"] | {"hidden_size": "5120"}}
    assert "'text_config.hidden_size'" in _error(bad_text)
    gpt_oss = _wrapped("gpt-oss-20b")["config"]
    assert "'layer_types'" in _error(gpt_oss | {"layer_types": ["full_attention"]})
    assert "'num_experts_per_tok'" in _error(gpt_oss | {"num_experts_per_tok": 64})
    deepseek = {k: v for k, v in _wrapped("deepseek-v3")["config"].items() if k != "kv_lora_rank"}
    assert "'kv_lora_rank'" in _error(deepseek)
    qwen = _wrapped("qwen3-8b")["config"]
    assert "'tie_word_embeddings'" in _error(qwen | {"tie_word_embeddings": "false"})
    assert "'num_key_value_heads'" in _error(qwen | {"num_key_value_heads": 5})
    assert "'model_type'" in _error(qwen | {"model_type": "qwen2_vl"})


def test_impossible_widths_are_named_in_the_config_s_words() -> None:
    qwen = _wrapped("qwen3-8b")["config"]
    # Llama-style configs without head_dim: 8,192 heads over a 4,096 width (was "head_dim
    # ... got 0", a field the file does not have)
    llama = {k: v for k, v in qwen.items() if k != "head_dim"} | {"model_type": "llama"}
    too_many = llama | {"num_attention_heads": 8192, "num_key_value_heads": 8192}
    assert _error(too_many) == (
        "config.json field 'num_attention_heads' (8,192) is larger than hidden_size "
        f"({llama['hidden_size']:,}): each head would be less than one value wide"
    )
    # a 10^12 width: the message names the config's sizes, not an internal quantity
    message = _error(qwen | {"hidden_size": 10**12})
    assert message.startswith("config.json gives a model too large for RigForge")
    assert "hidden_size" in message and "flops" not in message


# -- presets ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["llama-3.1-8b", "Qwen3 30B-A3B", "gpt-oss-20b"])
def test_hf_presets_found(name: str) -> None:
    preset = find_preset(name)
    assert preset.default_task == "inference"
    wrapped = _wrapped(preset.id)
    assert preset.architecture == architecture_from_hf_config(wrapped["config"])
    assert (preset.name, preset.aliases) == (wrapped["name"], tuple(wrapped["aliases"]))
    assert wrapped["published_params"]["source"] in preset.sources["params_total"]
    assert wrapped["config_source"] in preset.sources["params_total"]
    assert preset.sources["forward_flops_per_sample"] == HF_FLOPS_SOURCE
    assert make_workload(preset).task == "inference"


def test_presets_json_first_and_unchanged() -> None:
    raw = json.loads((ROOT / "resources" / "workloads" / "presets.json").read_text("utf-8"))
    shipped = [WorkloadPreset.model_validate(entry) for entry in raw["presets"]]
    presets = load_presets()
    assert list(presets[: len(shipped)]) == shipped
    hf_ids = [p.id for p in presets[len(shipped) :]]
    assert hf_ids == [p.stem for p in FILES]
    assert len({p.id for p in presets}) == len(presets)
    for preset in shipped:  # an hf-configs name never shadows an older preset
        assert find_preset(preset.id) == preset
    for preset in presets[len(shipped) :]:
        for name in (preset.id, preset.name, *preset.aliases):
            assert find_preset(name).id == preset.id


def test_hf_configs_not_parsed_for_a_presets_json_name() -> None:
    code = (
        "from core.workloads import find_preset\n"
        "from core.workloads.presets import hf_config_presets\n"
        "find_preset('resnet50-v1.5'); find_preset('Llama-3 8B')\n"
        "assert hf_config_presets.cache_info().currsize == 0\n"
        "find_preset('gpt-oss-20b')\n"
        "assert hf_config_presets.cache_info().currsize == 1\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", ["qwen3-30b-a3b", "deepseek-v3"])
def test_a_config_of_a_trillion_layers_is_refused_at_once(name: str, tmp_path: Path) -> None:
    """The MoE readers count the expert layers one by one: 10^12 layers never finished.
    The layer count is checked first (at most 100,000)."""
    config = json.loads((HF_DIR / f"{name}.json").read_text(encoding="utf-8"))["config"]
    config["num_hidden_layers"] = 10**12
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(InvalidWorkload, match="'num_hidden_layers' must be at most 100,000"):
        load_hf_config(path)


def test_qwen3_next_gated_deltanet_layer_and_state_by_hand() -> None:
    """Qwen3-Next-80B-A3B: 16 key heads and 32 value heads of 128, conv kernel 4. One Gated
    DeltaNet layer: in_proj_qkvz 2048 x (2·16·128 + 2·32·128) = 2048 x 12,288, in_proj_ba
    2048 x 64, out_proj 4096 x 2048; its state per sequence 32·128·128 = 524,288 recurrent
    values + (2·16·128 + 32·128) x 3 = 24,576 conv values. 36 of 48 layers are linear
    (full_attention_interval 4), so a sequence's state is 36 x 548,864 x 4 bytes (fp32)
    = 79,036,416 bytes whatever its length, and only 12 layers keep a growing KV cache."""
    from core.calc.inference.model import LlmShape

    arch = _arch("qwen3-next-80b-a3b")
    assert arch.linear_attention_layers == 36
    assert arch.linear_state_values == 524_288 + 24_576
    shape = LlmShape.of(arch)
    assert shape.full_layers == 12
    assert shape.linear_state_bytes() == 36 * 548_864 * 4
    per_token = 2 * 2 * 256 * 2 * 12  # K and V, 2 KV heads of 256, f16, 12 full layers
    assert shape.kv_bytes(1000, "f16") == per_token * 1000 + 79_036_416
    # a naive formula over all 48 layers would hold 4x the per-token cache
    assert 4 * per_token == 48 * 2 * 2 * 256 * 2


def test_llama_4_maverick_interleaves_moe_and_chunks_attention() -> None:
    """Maverick: interleave_moe_layer_step 2 makes 24 of 48 layers MoE (128 experts, one per
    token, plus a shared expert); attention_chunk_size 8192 on three of every four layers
    bounds their cache at 8,192 tokens. --n-cpu-moe 10 moves the experts of layers 1, 3,
    5, 7 and 9 (the MoE ones among the first ten): 5 layers."""
    from core.calc.inference.model import LlmShape

    arch = _arch("llama-4-maverick-17b-128e")
    shape = LlmShape.of(arch)
    assert (shape.moe_layers, shape.experts, shape.top_k) == (24, 128, 1)
    assert (shape.sliding_layers, shape.window, shape.full_layers) == (36, 8192, 12)
    assert shape.host_moe_layers(10) == 5
    per_token_layer = 2 * 8 * 128 * 2  # K and V, 8 KV heads of 128, f16
    at_32k = per_token_layer * (12 * 32_768 + 36 * 8_192)
    assert shape.kv_bytes(32_768, "f16") == at_32k
