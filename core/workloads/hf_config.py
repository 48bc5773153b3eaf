"""Architecture from a Hugging Face ``config.json`` read offline.

Families: llama, mistral, mixtral, gpt2, bert.

Parameter counts follow the module definitions in ``transformers`` (LlamaForCausalLM,
MistralForCausalLM, MixtralForCausalLM, GPT2LMHeadModel, BertModel); the tests check
them against the exact counts in shared/data/models/model_facts.csv.
FLOPs per token: Kaplan et al. 2020 Eq. 2.2, C_forward = 2N + 2 n_layer n_ctx d_attn,
with the attention term doubled to count both QK^T and AV (formulas.md section 5).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.errors import InvalidWorkload, RigForgeError, validation_message
from core.files.safe_json import parse_json_bytes
from core.files.safe_read import read_limited
from core.models.workload import Architecture

SUPPORTED = ("llama", "mistral", "mixtral", "gpt2", "bert")
MAX_CONFIG_BYTES = 1024 * 1024
"""A config.json is a few kilobytes; a megabyte leaves room and refuses a weights file."""


def load_hf_config(path: str | Path) -> Architecture:
    """Read ``config.json`` from disk and build its ``Architecture``."""
    name = Path(path).name
    try:
        raw = parse_json_bytes(read_limited(path, MAX_CONFIG_BYTES), max_bytes=MAX_CONFIG_BYTES)
    except RigForgeError as error:
        raise InvalidWorkload(f"{name}: cannot read config.json: {error}") from None
    if not isinstance(raw, dict):
        raise InvalidWorkload(f"{name}: config.json must hold a JSON object")
    try:
        return architecture_from_hf_config(raw)
    except InvalidWorkload as error:
        raise InvalidWorkload(f"{name}: {error}") from None


def _int(cfg: dict[str, Any], field: str, default: int | None = None) -> int:
    value = cfg.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidWorkload(
            f"config.json field {field!r} must be a positive integer, got {_short(value)}"
        )
    return value


def architecture_from_hf_config(cfg: dict[str, Any]) -> Architecture:
    """Build an ``Architecture`` from a parsed config; names the field that is missing or wrong."""
    model_type = cfg.get("model_type")
    if model_type not in SUPPORTED:
        raise InvalidWorkload(
            f"config.json field 'model_type' is {_short(model_type)}; "
            f"supported: {', '.join(SUPPORTED)}"
        )
    try:
        if model_type == "gpt2":
            return _gpt2(cfg)
        if model_type == "bert":
            return _bert(cfg)
        return _llama_like(cfg, moe=model_type == "mixtral")
    except ValidationError as error:
        raise InvalidWorkload(
            f"config.json gives a model outside what RigForge models: {validation_message(error)}"
        ) from None
    except OverflowError:
        raise InvalidWorkload("config.json holds sizes too large to compute with") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def _flops(params_active: int, layers: int, seq: int, attn_width: int) -> float:
    return 2.0 * params_active * seq + 4.0 * layers * seq * seq * attn_width


def _llama_like(cfg: dict[str, Any], moe: bool) -> Architecture:
    h, layers = _int(cfg, "hidden_size"), _int(cfg, "num_hidden_layers")
    heads = _int(cfg, "num_attention_heads")
    kv = _int(cfg, "num_key_value_heads", heads)
    if heads % kv:
        raise InvalidWorkload(
            "config.json field 'num_key_value_heads' must divide num_attention_heads"
        )
    hd = _int(cfg, "head_dim", h // heads)
    f, vocab = _int(cfg, "intermediate_size"), _int(cfg, "vocab_size")
    seq = _int(cfg, "max_position_embeddings", 4096)
    tied = bool(cfg.get("tie_word_embeddings", False))
    experts = _int(cfg, "num_local_experts") if moe else 1
    top_k = _int(cfg, "num_experts_per_tok") if moe else 1
    attn = h * heads * hd + 2 * h * kv * hd + heads * hd * h
    mlp_one = 3 * h * f
    router = h * experts if moe else 0
    per_layer = attn + experts * mlp_one + router + 2 * h
    embed = vocab * h * (1 if tied else 2)
    total = embed + layers * per_layer + h
    active = total - layers * (experts - top_k) * mlp_one
    return Architecture(
        kind="decoder",
        params_total=total,
        params_active=active if moe else None,
        embedding_params=embed,
        layers=layers,
        hidden_size=h,
        heads=heads,
        kv_heads=kv,
        head_dim=hd,
        ffn_hidden_size=f,
        mlp="swiglu",
        vocab_size=vocab,
        num_experts=experts if moe else None,
        experts_per_token=top_k if moe else None,
        attention_impl="flash",
        default_seq_len=seq,
        input_kind="text",
        input_bytes_per_sample=8.0 * seq,
        throughput_unit="tokens/s",
        unit_items_per_sample=float(seq),
        forward_flops_per_sample=_flops(active, layers, seq, heads * hd),
    )


def _gpt2(cfg: dict[str, Any]) -> Architecture:
    h, layers, heads = _int(cfg, "n_embd"), _int(cfg, "n_layer"), _int(cfg, "n_head")
    vocab, seq = _int(cfg, "vocab_size"), _int(cfg, "n_positions", 1024)
    inner = cfg.get("n_inner") or 4 * h
    if not isinstance(inner, int) or inner < 1:
        raise InvalidWorkload(
            f"config.json field 'n_inner' must be a positive integer, got {inner!r}"
        )
    per_layer = 4 * h + (h * 3 * h + 3 * h) + (h * h + h) + (h * inner + inner) + (inner * h + h)
    embed = (vocab + seq) * h
    total = embed + layers * per_layer + 2 * h
    return Architecture(
        kind="decoder",
        params_total=total,
        embedding_params=embed,
        layers=layers,
        hidden_size=h,
        heads=heads,
        kv_heads=heads,
        ffn_hidden_size=inner,
        mlp="gelu",
        vocab_size=vocab,
        dropout=True,
        default_seq_len=seq,
        input_kind="text",
        input_bytes_per_sample=8.0 * seq,
        throughput_unit="tokens/s",
        unit_items_per_sample=float(seq),
        forward_flops_per_sample=_flops(total - embed + vocab * h, layers, seq, h),
    )


def _bert(cfg: dict[str, Any]) -> Architecture:
    h, layers = _int(cfg, "hidden_size"), _int(cfg, "num_hidden_layers")
    heads, f = _int(cfg, "num_attention_heads"), _int(cfg, "intermediate_size")
    vocab, seq = _int(cfg, "vocab_size"), _int(cfg, "max_position_embeddings", 512)
    types = _int(cfg, "type_vocab_size", 2)
    per_layer = 4 * (h * h + h) + 2 * 2 * h + (h * f + f) + (f * h + h)
    embed = (vocab + seq + types) * h
    total = embed + 2 * h + layers * per_layer + (h * h + h)
    return Architecture(
        kind="encoder",
        params_total=total,
        embedding_params=embed,
        layers=layers,
        hidden_size=h,
        heads=heads,
        kv_heads=heads,
        ffn_hidden_size=f,
        mlp="gelu",
        vocab_size=vocab,
        lm_head=False,
        dropout=True,
        default_seq_len=seq,
        input_kind="text",
        input_bytes_per_sample=8.0 * seq,
        throughput_unit="sequences/s",
        forward_flops_per_sample=_flops(total - embed, layers, seq, h),
    )
