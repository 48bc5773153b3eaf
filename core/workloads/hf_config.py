"""Architecture from a Hugging Face ``config.json`` read offline.

Families (``model_type``): llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma3_text,
deepseek_v3, gpt_oss, gpt2, bert. The multimodal wrappers gemma3 and mistral3 are read
through their ``text_config``: only the text decoder is counted, not the vision tower or
the multimodal projector.

Parameter counts follow the module definitions in ``transformers`` (LlamaForCausalLM,
MistralForCausalLM, MixtralForCausalLM, Qwen2/Qwen3/Qwen3MoeForCausalLM,
Gemma3ForCausalLM, DeepseekV3ForCausalLM, GptOssForCausalLM, GPT2LMHeadModel,
BertModel): every ``nn.Parameter`` - projections with the biases the config switches on,
q/k norms, MLPs, routers, experts, shared experts, norms, embeddings and an untied
head. Buffers are not parameters (DeepSeek's router ``e_score_correction_bias``, 256
values a layer), and DeepSeek's multi-token-prediction layer (``model.layers.61``, which
transformers does not build) is not counted. Keys a published config leaves out take the
defaults of that family's ``*Config`` class. The tests check the counts against the
exact ones in shared/data/models/model_facts.csv and the makers' published figures.

FLOPs per token: Kaplan et al. 2020 Eq. 2.2, C_forward = 2N + 2 n_layer n_ctx d_attn,
with the attention term doubled to count both QK^T and AV (formulas.md section 5), as
``forward_flops_per_sample`` of a whole ``default_seq_len`` sequence, the full
(non-causal) context as presets.json counts it. For the decoders N is the matmul weights
a token meets: the active parameters less the input embedding (a lookup), the biases and
the norms, with the output head counted, tied or not - as presets.json counts it (its
llama-3-8b and mixtral-8x7b figures come out exactly); gpt2 and bert keep their biases
and norms in N (about 0.1 %). A sliding-window layer attends to min(window, sequence)
tokens, so n_ctx is that there; multi-head latent attention scores over the qk head dim
and mixes over the v head dim, so its two halves use those widths.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.errors import InvalidWorkload, RigForgeError
from core.files.safe_json import parse_json_bytes
from core.files.safe_read import read_limited
from core.models.workload import Architecture, OpMix

SUPPORTED = (
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen3",
    "qwen3_moe",
    "gemma3",
    "gemma3_text",
    "mistral3",
    "deepseek_v3",
    "gpt_oss",
    "qwen3_next",
    "qwen3_5",
    "qwen3_5_text",
    "qwen3_5_moe",
    "qwen3_5_moe_text",
    "llama4",
    "llama4_text",
    "gpt2",
    "bert",
)
MULTIMODAL = {
    "gemma3": "gemma3_text",
    "mistral3": "mistral",
    "qwen3_5": "qwen3_5_text",
    "qwen3_5_moe": "qwen3_5_moe_text",
    "llama4": "llama4_text",
}
"""Wrapper model_type -> the text_config model_type its Config class defaults to."""
DECODERS = tuple(t for t in SUPPORTED if t not in MULTIMODAL and t not in ("gpt2", "bert"))
MAX_CONFIG_BYTES = 1024 * 1024
"""A config.json is a few kilobytes; a megabyte leaves room and refuses a weights file."""


MAX_LAYERS = 100_000
"""Most layers a config may state (the workload's own limit)."""


def load_hf_config(path: str | Path) -> Architecture:
    """Read ``config.json`` from disk and build its ``Architecture``.

    Also takes RigForge's own sourced wrapper (``resources/workloads/hf-configs/*.json``:
    metadata plus the real config under ``"config"``).
    """
    name = Path(path).name
    try:
        raw = parse_json_bytes(read_limited(path, MAX_CONFIG_BYTES), max_bytes=MAX_CONFIG_BYTES)
    except RigForgeError as error:
        raise InvalidWorkload(f"{name}: cannot read config.json: {error}") from None
    if not isinstance(raw, dict):
        raise InvalidWorkload(f"{name}: config.json must hold a JSON object")
    if "model_type" not in raw and isinstance(raw.get("config"), dict):
        raw = raw["config"]
    try:
        return architecture_from_hf_config(raw)
    except InvalidWorkload as error:
        raise InvalidWorkload(f"{name}: {error}") from None


def architecture_from_hf_config(cfg: dict[str, Any]) -> Architecture:
    """Build an ``Architecture`` from a parsed config; names the field that is missing or wrong."""
    fields = _Fields(cfg)
    model_type = cfg.get("model_type")
    if model_type not in SUPPORTED:
        raise InvalidWorkload(
            f"config.json field 'model_type' is {_short(model_type)}; "
            f"supported: {', '.join(SUPPORTED)}"
        )
    try:
        if model_type == "gpt2":
            return _gpt2(fields)
        if model_type == "bert":
            return _bert(fields)
        if model_type in MULTIMODAL:
            fields, model_type = _text_config(fields, model_type)
        arch = _assemble(_DECODER_PARTS[model_type](fields))
        release = _release(cfg)
        return arch.model_copy(update={"release_weights": release}) if release else arch
    except ValidationError:
        raise InvalidWorkload(
            "config.json gives a model too large for RigForge: its sizes (hidden_size, "
            "intermediate_size, num_hidden_layers, vocab_size, experts) make parameter or "
            "FLOP counts past what RigForge computes with"
        ) from None
    except OverflowError:
        raise InvalidWorkload("config.json holds sizes too large to compute with") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


class _Fields:
    """One JSON object of the config; errors name the field by its path (text_config.x).

    A key set to null reads as absent (configs write ``"sliding_window": null``).
    """

    def __init__(self, data: dict[str, Any], prefix: str = "") -> None:
        self.data, self.prefix = data, prefix

    def name(self, field: str) -> str:
        return self.prefix + field

    def get(self, field: str) -> Any:
        return self.data.get(field)

    def _fail(self, field: str, what: str, value: Any) -> InvalidWorkload:
        return InvalidWorkload(
            f"config.json field {self.name(field)!r} must be {what}, got {_short(value)}"
        )

    def positive(self, field: str, default: int | None = None) -> int:
        """A positive integer; ``default`` when the key is absent (``None``: required).
        ``num_hidden_layers`` at most ``MAX_LAYERS``, checked here before any loop over
        the layers (a config of 10^12 layers would otherwise never finish reading)."""
        value = self.data.get(field)
        value = default if value is None else value
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self._fail(field, "a positive integer", value)
        if field == "num_hidden_layers" and value > MAX_LAYERS:
            raise self._fail(field, f"at most {MAX_LAYERS:,}", value)
        return value

    def count(self, field: str, default: int) -> int:
        """A non-negative integer; ``default`` when absent."""
        value = self.data.get(field)
        value = default if value is None else value
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self._fail(field, "a non-negative integer", value)
        return value

    def optional_int(self, field: str) -> int | None:
        return None if self.data.get(field) is None else self.positive(field)

    def flag(self, field: str, default: bool) -> bool:
        value = self.data.get(field)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self._fail(field, "true or false", value)
        return value

    def layer_types(self, layers: int) -> list[str] | None:
        """``layer_types`` (one attention kind per layer) when the config lists them."""
        value = self.data.get("layer_types")
        if value is None:
            return None
        if (
            not isinstance(value, list)
            or len(value) != layers
            or not all(isinstance(v, str) for v in value)
        ):
            raise self._fail("layer_types", f"a list of {layers} attention types", value)
        return value

    def layer_indices(self, field: str) -> set[int]:
        value = self.data.get(field)
        if value is None:
            return set()
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value
        ):
            raise self._fail(field, "a list of layer indices", value)
        return set(value)


def _text_config(fields: _Fields, wrapper: str) -> tuple[_Fields, str]:
    """The text decoder of a multimodal config. Its vision tower is not counted."""
    text = fields.get("text_config")
    if not isinstance(text, dict):
        raise InvalidWorkload(
            f"config.json field 'text_config' must be an object for model_type {wrapper!r}, "
            f"got {_short(text)}"
        )
    model_type = text.get("model_type") or MULTIMODAL[wrapper]
    if model_type not in DECODERS:
        raise InvalidWorkload(
            f"config.json field 'text_config.model_type' is {_short(model_type)}; "
            f"supported: {', '.join(DECODERS)}"
        )
    return _Fields(text, "text_config."), model_type


@dataclass(frozen=True)
class _Count:
    """Parameters of one module: matmul weights, and the rest (biases, norms, sinks)."""

    weights: int
    other: int = 0

    @property
    def total(self) -> int:
        return self.weights + self.other

    def __add__(self, more: _Count) -> _Count:
        return _Count(self.weights + more.weights, self.other + more.other)


_NONE = _Count(0)


@dataclass(frozen=True)
class _Parts:
    """One decoder's sizes and parameter counts, per layer where it says so."""

    h: int
    layers: int
    heads: int
    kv: int
    head_dim: int
    """Query/key width of one head (MLA: qk_nope_head_dim + qk_rope_head_dim)."""
    v_head_dim: int
    vocab: int
    seq: int
    tied: bool
    attn: _Count
    """One layer's attention: projections, their biases, q/k norms, sinks."""
    norms: int
    """One layer's norms outside the attention."""
    ffn: int
    """Width of a dense MLP layer."""
    dense_mlp: _Count
    dense_layers: int
    """Layers with a dense MLP; the other layers are MoE when ``experts``."""
    experts: int = 0
    top_k: int = 0
    expert_ffn: int = 0
    expert: _Count = _NONE
    """One routed expert."""
    shared_experts: int = 0
    shared: _Count = _NONE
    """The shared expert(s) of one MoE layer."""
    router: _Count = _NONE
    sliding_window: int | None = None
    sliding_layers: int = 0
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    linear_layers: int = 0
    """Layers with linear (Gated DeltaNet) attention instead of ``attn``."""
    linear_attn: _Count = _NONE
    linear_state: int = 0
    """Values of one linear layer's state per sequence (recurrent + convolution)."""
    moe_step: int = 1
    """Every how many layers one is MoE (Llama 4 Maverick: 2); dense layers then
    interleave rather than lead."""


RELEASE_FORMATS = {"mxfp4": "mxfp4", "fp8": "fp8"}
"""config.json ``quantization_config.quant_method`` -> the weights format it ships."""


def _release(cfg: dict[str, Any]) -> str | None:
    quant = cfg.get("quantization_config")
    method = quant.get("quant_method") if isinstance(quant, dict) else None
    return RELEASE_FORMATS.get(method) if isinstance(method, str) else None


def _assemble(p: _Parts) -> Architecture:
    moe_layers = p.layers - p.dense_layers if p.experts else 0
    embed = p.vocab * p.h * (1 if p.tied else 2)

    def body(experts: int) -> _Count:
        full = p.layers - p.linear_layers
        layer = _Count(
            full * p.attn.weights + p.linear_layers * p.linear_attn.weights,
            full * p.attn.other + p.linear_layers * p.linear_attn.other + p.layers * p.norms,
        )
        moe = p.shared + p.router + _Count(experts * p.expert.weights, experts * p.expert.other)
        return _Count(
            layer.weights + p.dense_layers * p.dense_mlp.weights
            + moe_layers * moe.weights,
            layer.other + p.dense_layers * p.dense_mlp.other
            + moe_layers * moe.other + p.h,  # + the final norm
        )  # fmt: skip

    total = embed + body(p.experts).total
    used = body(p.top_k)
    active = embed + used.total
    # N of Kaplan's 2N: the matmul weights a token meets - the head, not the input lookup,
    # nor the biases and norms (presets.json counts them so: llama-3-8b is reproduced).
    matmul_params = used.weights + p.vocab * p.h
    window = min(p.sliding_window or p.seq, p.seq)
    full_layers = p.layers - p.sliding_layers - p.linear_layers
    contexts = full_layers * p.seq + p.sliding_layers * window
    attention = 2.0 * p.seq * contexts * p.heads * (p.head_dim + p.v_head_dim)
    moe = bool(p.experts)
    ffn = p.ffn if p.dense_layers or not moe else p.expert_ffn
    return Architecture(
        kind="decoder",
        params_total=total,
        params_active=active if moe else None,
        embedding_params=embed,
        layers=p.layers,
        hidden_size=p.h,
        heads=p.heads,
        kv_heads=p.kv,
        head_dim=p.head_dim,
        ffn_hidden_size=ffn,
        # Every family here has a gated MLP (gate, up, down); Gemma gates with GELU
        # (GeGLU), which has SwiGLU's shapes, the only gated kind MlpKind names.
        mlp="swiglu",
        vocab_size=p.vocab,
        num_experts=p.experts if moe else None,
        experts_per_token=p.top_k if moe else None,
        shared_experts=p.shared_experts if moe else None,
        moe_ffn_hidden_size=p.expert_ffn if moe and p.expert_ffn != ffn else None,
        dense_layers=(0 if p.moe_step > 1 else p.dense_layers) if moe else None,
        moe_layer_step=p.moe_step if moe and p.moe_step > 1 else None,
        linear_attention_layers=p.linear_layers or None,
        linear_state_values=p.linear_state or None,
        sliding_window=p.sliding_window if p.sliding_layers else None,
        sliding_window_layers=p.sliding_layers or None,
        kv_lora_rank=p.kv_lora_rank,
        qk_rope_head_dim=p.qk_rope_head_dim,
        attention_impl="flash",
        default_seq_len=p.seq,
        input_kind="text",
        input_bytes_per_sample=8.0 * p.seq,
        throughput_unit="tokens/s",
        unit_items_per_sample=float(p.seq),
        forward_flops_per_sample=2.0 * matmul_params * p.seq + attention,
        op_mix=_mix(2.0 * matmul_params * p.seq, attention),
    )


def _heads(
    f: _Fields, h: int, kv_default: int | None, head_dim_default: int | None
) -> tuple[int, int, int]:
    heads = f.positive("num_attention_heads")
    kv = f.positive("num_key_value_heads", kv_default or heads)
    if heads % kv:
        raise InvalidWorkload(
            f"config.json field {f.name('num_key_value_heads')!r} must divide "
            f"num_attention_heads ({heads}), got {kv}"
        )
    if head_dim_default is None and "head_dim" not in f.data and heads > h:
        raise InvalidWorkload(
            f"config.json field {f.name('num_attention_heads')!r} ({heads:,}) is larger than "
            f"hidden_size ({h:,}): each head would be less than one value wide"
        )
    return heads, kv, f.positive("head_dim", head_dim_default or h // heads)


def _attention(
    h: int, heads: int, kv: int, hd: int, qkv_bias: bool, o_bias: bool, qk_norm: bool
) -> _Count:
    """q/k/v/o projections (``nn.Linear``), their biases and per-head q/k RMSNorms."""
    q, kv_out = heads * hd, kv * hd
    other = (q + 2 * kv_out) if qkv_bias else 0
    other += h if o_bias else 0
    other += 2 * hd if qk_norm else 0
    return _Count(h * q + 2 * h * kv_out + q * h, other)


def _gated_mlp(h: int, f: int, bias: bool = False) -> _Count:
    """gate_proj, up_proj (h -> f) and down_proj (f -> h)."""
    return _Count(3 * h * f, (2 * f + h) if bias else 0)


def _moe_counts(f: _Fields, experts_field: str, top_k_field: str) -> tuple[int, int]:
    experts, top_k = f.positive(experts_field), f.positive(top_k_field)
    if top_k > experts:
        raise InvalidWorkload(
            f"config.json field {f.name(top_k_field)!r} must not exceed {experts_field} "
            f"({experts}), got {top_k}"
        )
    return experts, top_k


def _sliding(
    f: _Fields, layers: int, window_default: int | None, default_count: int
) -> tuple[int | None, int]:
    """(window, sliding layers): ``layer_types`` when listed, else the family's pattern."""
    types = f.layer_types(layers)
    count = default_count if types is None else types.count("sliding_attention")
    if not count:
        return None, 0
    return f.positive("sliding_window", window_default), count


def _common(
    f: _Fields, seq_default: int = 4096, tied_default: bool = False, vocab: int | None = None
) -> tuple[int, int, int, int, bool]:
    """hidden size, layers, vocabulary, default sequence (max_position_embeddings), tied."""
    h, layers = f.positive("hidden_size"), f.positive("num_hidden_layers")
    vocab, seq = f.positive("vocab_size", vocab), f.positive("max_position_embeddings", seq_default)
    return h, layers, vocab, seq, f.flag("tie_word_embeddings", tied_default)


def _llama(f: _Fields) -> _Parts:
    """LlamaForCausalLM: attention_bias on q/k/v/o, mlp_bias on gate/up/down."""
    h, layers, vocab, seq, tied = _common(f)
    heads, kv, hd = _heads(f, h, None, None)
    bias, ffn = f.flag("attention_bias", False), f.positive("intermediate_size")
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied, attn=_attention(h, heads, kv, hd, bias, bias, qk_norm=False),
        norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn, f.flag("mlp_bias", False)),
        dense_layers=layers,
    )  # fmt: skip


def _mistral_window(f: _Fields, layers: int) -> tuple[int | None, int]:
    """Mistral/Mixtral apply ``sliding_window`` to every layer whenever it is set (their
    configs have no ``use_sliding_window``; one that says false is respected)."""
    on = f.get("sliding_window") is not None and f.flag("use_sliding_window", True)
    return _sliding(f, layers, None, layers if on else 0)


def _mistral(f: _Fields, moe: bool = False) -> _Parts:
    """MistralForCausalLM / MixtralForCausalLM: no biases; Mixtral's router h x E."""
    h, layers, vocab, seq, tied = _common(f)
    heads, kv, hd = _heads(f, h, None, None)
    ffn = f.positive("intermediate_size")
    window, sliding = _mistral_window(f, layers)
    experts, top_k = _moe_counts(f, "num_local_experts", "num_experts_per_tok") if moe else (0, 0)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied, attn=_attention(h, heads, kv, hd, False, False, qk_norm=False),
        norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn), dense_layers=0 if moe else layers,
        experts=experts, top_k=top_k, expert_ffn=ffn if moe else 0,
        expert=_gated_mlp(h, ffn) if moe else _NONE, router=_Count(h * experts),
        sliding_window=window, sliding_layers=sliding,
    )  # fmt: skip


def _qwen_window(f: _Fields, layers: int) -> tuple[int | None, int]:
    """Qwen2/3: only with use_sliding_window, and then layers >= max_window_layers."""
    on = f.flag("use_sliding_window", False) and f.get("sliding_window") is not None
    full = min(f.count("max_window_layers", 28), layers)
    types = f.layer_types(layers) if on else None
    count = (types.count("sliding_attention") if types is not None else layers - full) if on else 0
    return (f.positive("sliding_window"), count) if count else (None, 0)


def _qwen(f: _Fields, version: int) -> _Parts:
    """Qwen2ForCausalLM (q/k/v biases, none on o) / Qwen3ForCausalLM (attention_bias on
    q/k/v/o, RMSNorm over each head's q and k)."""
    h, layers, vocab, seq, tied = _common(f)
    qwen3 = version == 3
    heads, kv, hd = _heads(f, h, None, 128 if qwen3 else None)
    bias = f.flag("attention_bias", False) if qwen3 else True
    ffn = f.positive("intermediate_size")
    window, sliding = _qwen_window(f, layers)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied,
        attn=_attention(h, heads, kv, hd, bias, bias and qwen3, qk_norm=qwen3),
        norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn), dense_layers=layers,
        sliding_window=window, sliding_layers=sliding,
    )  # fmt: skip


def _qwen3_moe(f: _Fields) -> _Parts:
    """Qwen3MoeForCausalLM: a layer is MoE unless listed in mlp_only_layers or off the
    decoder_sparse_step; router h x E without bias; no shared expert."""
    h, layers, vocab, seq, tied = _common(f)
    heads, kv, hd = _heads(f, h, None, 128)
    bias = f.flag("attention_bias", False)
    experts, top_k = _moe_counts(f, "num_experts", "num_experts_per_tok")
    expert_ffn, step = f.positive("moe_intermediate_size"), f.positive("decoder_sparse_step", 1)
    dense_only = f.layer_indices("mlp_only_layers")
    moe_layers = sum(1 for i in range(layers) if i not in dense_only and (i + 1) % step == 0)
    dense = layers - moe_layers
    ffn = f.positive("intermediate_size") if dense else expert_ffn
    window, sliding = _qwen_window(f, layers)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied, attn=_attention(h, heads, kv, hd, bias, bias, qk_norm=True),
        norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn), dense_layers=dense,
        experts=experts, top_k=top_k, expert_ffn=expert_ffn,
        expert=_gated_mlp(h, expert_ffn), router=_Count(h * experts),
        sliding_window=window, sliding_layers=sliding,
    )  # fmt: skip


def _gemma3_text(f: _Fields) -> _Parts:
    """Gemma3ForCausalLM: q/k norms, four norms a layer, GeGLU MLP, tied head.

    Published Gemma 3 text_configs list only non-default keys; the others take the
    Gemma3TextConfig defaults (vocab 262208, 131072 positions, tied embeddings, window
    4096, sliding_window_pattern 6: five local layers, then one global).
    """
    h, layers, vocab, seq, tied = _common(f, 131_072, tied_default=True, vocab=262_208)
    heads, kv, hd = _heads(f, h, 4, 256)
    bias, ffn = f.flag("attention_bias", False), f.positive("intermediate_size")
    pattern = f.positive("sliding_window_pattern", 6)
    window, sliding = _sliding(f, layers, 4096, layers - layers // pattern)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied, attn=_attention(h, heads, kv, hd, bias, bias, qk_norm=True),
        norms=4 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn), dense_layers=layers,
        sliding_window=window, sliding_layers=sliding,
    )  # fmt: skip


def _deepseek_v3(f: _Fields) -> _Parts:
    """DeepseekV3ForCausalLM: multi-head latent attention and DeepSeekMoE.

    MLA: q_a_proj (h -> q_lora_rank) + q_a_layernorm + q_b_proj (-> heads x qk head dim),
    or q_proj without q_lora_rank; kv_a_proj_with_mqa (h -> kv_lora_rank +
    qk_rope_head_dim) + kv_a_layernorm; kv_b_proj (kv_lora_rank -> heads x (qk_nope +
    v)); o_proj (heads x v -> h); attention_bias on q_a, kv_a and o. MoE: the first
    first_k_dense_replace layers have a dense MLP (intermediate_size), the others (every
    moe_layer_freq-th, as DeepSeek's own modeling code) routed experts of
    moe_intermediate_size, one router weight (E x h) and n_shared_experts shared ones.
    """
    h, layers, vocab, seq, tied = _common(f)
    heads = f.positive("num_attention_heads")
    kv = f.positive("num_key_value_heads", heads)  # nominal: MLA caches the latent, not K/V
    if heads % kv:
        raise InvalidWorkload(
            f"config.json field {f.name('num_key_value_heads')!r} must divide "
            f"num_attention_heads ({heads}), got {kv}"
        )
    q_rank, kv_rank = f.optional_int("q_lora_rank"), f.positive("kv_lora_rank")
    nope, rope, v = (
        f.positive("qk_nope_head_dim"),
        f.positive("qk_rope_head_dim"),
        f.positive("v_head_dim"),
    )
    bias = f.flag("attention_bias", False)
    qk = nope + rope
    if q_rank is None:
        q = _Count(h * heads * qk)
    else:  # q_a (+ bias), q_a_layernorm, q_b
        q = _Count(h * q_rank + q_rank * heads * qk, (q_rank if bias else 0) + q_rank)
    kv_a = _Count(h * (kv_rank + rope), ((kv_rank + rope) if bias else 0) + kv_rank)
    kv_b_o = _Count(kv_rank * heads * (nope + v) + heads * v * h, h if bias else 0)
    attn = q + kv_a + kv_b_o
    experts, top_k = _moe_counts(f, "n_routed_experts", "num_experts_per_tok")
    expert_ffn, ffn = f.positive("moe_intermediate_size"), f.positive("intermediate_size")
    first_dense, freq = f.count("first_k_dense_replace", 3), f.positive("moe_layer_freq", 1)
    shared = f.count("n_shared_experts", 1)
    moe_layers = sum(1 for i in range(layers) if i >= first_dense and i % freq == 0)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=qk, v_head_dim=v, vocab=vocab,
        seq=seq, tied=tied, attn=attn, norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn),
        dense_layers=layers - moe_layers, experts=experts, top_k=top_k,
        expert_ffn=expert_ffn, expert=_gated_mlp(h, expert_ffn), shared_experts=shared,
        shared=_gated_mlp(h, expert_ffn * shared), router=_Count(experts * h),
        kv_lora_rank=kv_rank, qk_rope_head_dim=rope,
    )  # fmt: skip


def _gpt_oss(f: _Fields) -> _Parts:
    """GptOssForCausalLM: attention_bias on q/k/v/o plus one learned sink per head; every
    layer MoE with biased experts (gate_up 2f and down h) and a biased router; layers
    alternate sliding (first) and full attention unless layer_types says otherwise."""
    h, layers, vocab, seq, tied = _common(f, seq_default=131_072)
    heads, kv, hd = _heads(f, h, None, 64)
    bias, ffn = f.flag("attention_bias", True), f.positive("intermediate_size")
    top_k_field = "num_experts_per_tok" if f.get("num_experts_per_tok") else "experts_per_token"
    experts, top_k = _moe_counts(f, "num_local_experts", top_k_field)
    window, sliding = _sliding(f, layers, 128, (layers + 1) // 2)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied,
        attn=_attention(h, heads, kv, hd, bias, bias, qk_norm=False) + _Count(0, heads),
        norms=2 * h, ffn=ffn, dense_mlp=_NONE, dense_layers=0, experts=experts, top_k=top_k,
        expert_ffn=ffn, expert=_gated_mlp(h, ffn, bias=True),
        router=_Count(experts * h, experts),
        sliding_window=window, sliding_layers=sliding,
    )  # fmt: skip


def _gated_delta_net(f: _Fields, h: int) -> tuple[_Count, int]:
    """One Gated DeltaNet layer (transformers' Qwen3NextGatedDeltaNet): in_proj_qkvz
    (h -> 2·Hk·dk + 2·Hv·dv), in_proj_ba (h -> 2·Hv), a depthwise conv1d over q, k and v
    (kernel K, no bias), out_proj (Hv·dv -> h), A_log and dt_bias (Hv each), a gated
    RMSNorm of dv; and its state per sequence: Hv·dk·dv recurrent values plus the conv
    cache, (2·Hk·dk + Hv·dv)·(K − 1)."""
    hk, hv = f.positive("linear_num_key_heads"), f.positive("linear_num_value_heads")
    dk, dv = f.positive("linear_key_head_dim"), f.positive("linear_value_head_dim")
    kernel = f.positive("linear_conv_kernel_dim", 4)
    conv_dim = 2 * hk * dk + hv * dv
    weights = h * (2 * hk * dk + 2 * hv * dv) + h * 2 * hv + hv * dv * h
    other = conv_dim * kernel + 2 * hv + dv
    return _Count(weights, other), hv * dk * dv + conv_dim * (kernel - 1)


def _linear_layers(f: _Fields, layers: int) -> int:
    """Linear-attention layers: ``layer_types`` when listed, else all but every
    ``full_attention_interval``-th."""
    types = f.layer_types(layers)
    if types is not None:
        return types.count("linear_attention")
    interval = f.positive("full_attention_interval", 4)
    return layers - layers // interval


def _gated_attention(h: int, heads: int, kv: int, hd: int, gate: bool) -> _Count:
    """Qwen3-Next/Qwen3.5 full attention: q_proj doubled for the output gate, q/k norms."""
    base = _attention(h, heads, kv, hd, False, False, qk_norm=True)
    return base + _Count(h * heads * hd if gate else 0)


def _qwen3_next(f: _Fields) -> _Parts:
    """Qwen3NextForCausalLM (and Qwen3.5's MoE text model, the same layers): three Gated
    DeltaNet layers to one gated full-attention layer, MoE in every layer
    (decoder_sparse_step) with one shared expert of shared_expert_intermediate_size and
    its sigmoid gate (h -> 1)."""
    h, layers, vocab, seq, tied = _common(f)
    heads, kv, hd = _heads(f, h, None, 256)
    experts, top_k = _moe_counts(f, "num_experts", "num_experts_per_tok")
    expert_ffn = f.positive("moe_intermediate_size")
    shared_ffn = f.count("shared_expert_intermediate_size", 0)
    linear, state = _gated_delta_net(f, h)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied,
        attn=_gated_attention(h, heads, kv, hd, f.flag("attn_output_gate", True)),
        norms=2 * h, ffn=expert_ffn, dense_mlp=_gated_mlp(h, expert_ffn), dense_layers=0,
        experts=experts, top_k=top_k, expert_ffn=expert_ffn,
        expert=_gated_mlp(h, expert_ffn), router=_Count(h * experts),
        shared_experts=1 if shared_ffn else 0,
        shared=_gated_mlp(h, shared_ffn) + _Count(h) if shared_ffn else _NONE,
        linear_layers=_linear_layers(f, layers), linear_attn=linear, linear_state=state,
    )  # fmt: skip


def _qwen3_5_text(f: _Fields) -> _Parts:
    """Qwen3.5 dense text model: Qwen3-Next's hybrid attention with a dense gated MLP."""
    h, layers, vocab, seq, tied = _common(f)
    heads, kv, hd = _heads(f, h, None, 256)
    ffn = f.positive("intermediate_size")
    linear, state = _gated_delta_net(f, h)
    gate = f.flag("attn_output_gate", True)
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied, attn=_gated_attention(h, heads, kv, hd, gate),
        norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn), dense_layers=layers,
        linear_layers=_linear_layers(f, layers), linear_attn=linear, linear_state=state,
    )  # fmt: skip


def _llama4_text(f: _Fields) -> _Parts:
    """Llama4ForCausalLM (text): MoE every ``interleave_moe_layer_step``-th layer, each with
    one routed expert of intermediate_size per token and a shared expert of the same
    size; the other layers a dense MLP of intermediate_size_mlp. Chunked local attention
    (attention_chunk_size) on three of every four layers (Llama4TextConfig's
    no_rope_layers default: every fourth layer global), which hold at most a chunk."""
    h, layers, vocab, seq, tied = _common(f, 131_072)
    heads, kv, hd = _heads(f, h, None, 128)
    experts, top_k = _moe_counts(f, "num_local_experts", "num_experts_per_tok")
    expert_ffn = f.positive("intermediate_size")
    ffn = f.positive("intermediate_size_mlp", expert_ffn)
    step = f.positive("interleave_moe_layer_step", 1)
    moe_layers = layers // step
    chunk = f.optional_int("attention_chunk_size")
    local = layers - layers // 4 if chunk else 0
    return _Parts(
        h=h, layers=layers, heads=heads, kv=kv, head_dim=hd, v_head_dim=hd, vocab=vocab,
        seq=seq, tied=tied,
        attn=_attention(h, heads, kv, hd, False, False, qk_norm=False),
        norms=2 * h, ffn=ffn, dense_mlp=_gated_mlp(h, ffn), dense_layers=layers - moe_layers,
        experts=experts, top_k=top_k, expert_ffn=expert_ffn,
        expert=_gated_mlp(h, expert_ffn), router=_Count(h * experts),
        shared_experts=1, shared=_gated_mlp(h, expert_ffn), moe_step=step,
        sliding_window=chunk if local else None, sliding_layers=local,
    )  # fmt: skip


_DECODER_PARTS = {
    "llama": _llama,
    "qwen3_next": _qwen3_next,
    "qwen3_5_text": _qwen3_5_text,
    "qwen3_5_moe_text": _qwen3_next,
    "llama4_text": _llama4_text,
    "mistral": _mistral,
    "mixtral": lambda f: _mistral(f, moe=True),
    "qwen2": lambda f: _qwen(f, 2),
    "qwen3": lambda f: _qwen(f, 3),
    "qwen3_moe": _qwen3_moe,
    "gemma3_text": _gemma3_text,
    "deepseek_v3": _deepseek_v3,
    "gpt_oss": _gpt_oss,
}


def _flops(params: int, layers: int, seq: int, attn_width: int) -> float:
    return 2.0 * params * seq + 4.0 * layers * seq * seq * attn_width


def _mix(linear: float, attention: float) -> OpMix:
    """The forward FLOPs split as formula (Kaplan et al. Eq. 2.2): the matrix products
    grow with the sequence, QKᵀ/AV with its square, so a shorter sequence than the
    config's context is charged its own attention; elementwise work is not counted."""
    return OpMix(
        matmul_conv_flops=linear,
        attention_flops=attention,
        recurrent_flops=0.0,
        elementwise_flops=0.0,
    )


def _gpt2(f: _Fields) -> Architecture:
    h, layers, heads = f.positive("n_embd"), f.positive("n_layer"), f.positive("n_head")
    vocab, seq = f.positive("vocab_size"), f.positive("n_positions", 1024)
    inner = f.positive("n_inner", 4 * h)
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
        op_mix=_mix(2.0 * (total - embed + vocab * h) * seq, 4.0 * layers * seq * seq * h),
    )


def _bert(f: _Fields) -> Architecture:
    h, layers = f.positive("hidden_size"), f.positive("num_hidden_layers")
    heads, ffn = f.positive("num_attention_heads"), f.positive("intermediate_size")
    vocab, seq = f.positive("vocab_size"), f.positive("max_position_embeddings", 512)
    types = f.positive("type_vocab_size", 2)
    per_layer = 4 * (h * h + h) + 2 * 2 * h + (h * ffn + ffn) + (ffn * h + h)
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
        ffn_hidden_size=ffn,
        mlp="gelu",
        vocab_size=vocab,
        lm_head=False,
        dropout=True,
        default_seq_len=seq,
        input_kind="text",
        input_bytes_per_sample=8.0 * seq,
        throughput_unit="sequences/s",
        forward_flops_per_sample=_flops(total - embed, layers, seq, h),
        op_mix=_mix(2.0 * (total - embed) * seq, 4.0 * layers * seq * seq * h),
    )


def custom_decoder(layers: int, hidden: int, heads: int, vocab: int) -> Architecture:
    """A Llama-style decoder of these sizes: SwiGLU feed-forward of 8/3 × hidden rounded up
    to a multiple of 256 (Llama's rule), one KV head per query head, 4,096-token
    context, counted as a Hugging Face ``config.json`` of it would be."""
    config = {
        "model_type": "llama",
        "num_hidden_layers": layers,
        "hidden_size": hidden,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "intermediate_size": int(hidden * 8 / 3 // 256 + 1) * 256,
        "vocab_size": vocab,
        "max_position_embeddings": 4096,
    }
    return architecture_from_hf_config(config)
