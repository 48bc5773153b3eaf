"""What a decoder LLM costs to serve, token by token: bytes read, FLOPs, KV cache.

- Weights read per generated token: every active parameter once (MoE: the routed top-k
  and shared experts), the output head whole, the input embedding one row (HF docs
  "LLM inference optimization"; Pope et al. 2022, "Efficiently Scaling Transformer
  Inference", §2: decode is memory-bound on the weights).
- KV cache per token and layer: 2 × kv_heads × head_dim values (GQA/MQA keep kv_heads);
  latent attention (DeepSeek-V2, arXiv:2405.04434 §2.1) keeps kv_lora_rank +
  qk_rope_head_dim; a sliding-window layer holds at most its window.
- MoE experts: a batch of T tokens with top-k routing over E experts touches
  E × (1 − (1 − k/E)^T) distinct experts per layer in expectation (uniform routing), so a
  batched decode step reads that union, not T × k experts. llama.cpp's ``--n-cpu-moe N``
  keeps the routed experts of the first N layers in host RAM (``common/arg.cpp``:
  "keep the Mixture of Experts (MoE) weights of the first N layers in the CPU"); the CPU
  reads only the experts the step's tokens touch.
- Linear-attention layers (Gated DeltaNet, Qwen3-Next/Qwen3.5) keep a fixed state per
  sequence; their prompt attention is linear in its length.
- FLOPs of the prompt: 2 × active parameters per token plus causal attention,
  2 × 2 × d_attn × P² / 2 per full layer (QKᵀ and AV; Kaplan et al. 2020 Eq. 2.2 with
  the attention term counted for both products), a window bounding sliding layers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from core.calc.inference.formats import FORMATS, KV_BYTES
from core.models.workload import Architecture, KvFormat, WeightsFormat

GIB = 2**30
LLAMA_CPP_MXFP4_REST_BITS = 8.5
"""ggml-org's gpt-oss GGUFs keep the MXFP4 experts and store the other weights in Q8_0:
llama-bench prints 11.27 GiB for gpt-oss-20b and 59.02 GiB for gpt-oss-120b (llama.cpp
``benches/dgx-spark.md``), the sizes these counts give with Q8_0 (11.24 and 58.88 GiB);
with 16-bit other weights, as the "F16" GGUFs keep them, 12.82 GiB (llama-bench: 12.83)."""


@dataclass(frozen=True)
class LlmShape:
    """The sizes the serving model needs, from an ``Architecture``."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    params_total: float
    params_active: float
    embedding_params: float
    expert_params: float
    """Routed-expert parameters (all experts): the part MXFP4 checkpoints quantise."""
    expert_active_params: float
    experts: int
    top_k: int
    moe_layers: int
    dense_leading: int
    moe_step: int
    per_expert_params: float
    """One routed expert of one layer (gate, up and down projections)."""
    full_layers: int
    sliding_layers: int
    linear_layers: int
    linear_state_values: float
    window: int | None
    kv_lora_rank: int | None
    rope_dim: int | None
    mxfp4_rest_bits: float = 16.0
    """Bits per weight of an MXFP4 checkpoint's other weights (attention, embeddings,
    head): 16 in OpenAI's gpt-oss release, which vLLM, SGLang and TensorRT-LLM load; 8.5
    (Q8_0) in llama.cpp's GGUF release (``LLAMA_CPP_MXFP4_REST_BITS``)."""

    @classmethod
    def of(cls, arch: Architecture, engine: str | None = None) -> LlmShape:
        """``engine``: whose release of an MXFP4 model is read (llama.cpp's GGUF keeps the
        non-expert weights in Q8_0, the others' checkpoints in 16 bits)."""
        layers = arch.layers or 1
        hidden = arch.hidden_size or 1
        heads = arch.heads or 1
        head_dim = arch.resolved_head_dim or hidden // heads
        experts = arch.num_experts or 0
        dense = arch.dense_layers or 0
        step = arch.moe_layer_step or 1
        moe_layers = max(layers - dense, 0) // step if experts else 0
        width = arch.moe_ffn_hidden_size or arch.ffn_hidden_size or 4 * hidden
        per_expert = 3 * hidden * width
        sliding = arch.sliding_window_layers or 0
        linear = arch.linear_attention_layers or 0
        return cls(
            layers=layers,
            hidden=hidden,
            heads=heads,
            kv_heads=arch.resolved_kv_heads or heads,
            head_dim=head_dim,
            vocab=arch.vocab_size or 32_000,
            params_total=float(arch.params_total),
            params_active=float(arch.params_active or arch.params_total),
            embedding_params=float(arch.embedding_params),
            expert_params=float(moe_layers * experts * per_expert),
            expert_active_params=float(moe_layers * (arch.experts_per_token or 0) * per_expert),
            experts=experts,
            top_k=arch.experts_per_token or 0,
            moe_layers=moe_layers,
            dense_leading=dense,
            moe_step=step,
            per_expert_params=float(per_expert),
            full_layers=layers - sliding - linear,
            sliding_layers=sliding,
            linear_layers=linear,
            linear_state_values=float(arch.linear_state_values or 0),
            window=arch.sliding_window,
            kv_lora_rank=arch.kv_lora_rank,
            rope_dim=arch.qk_rope_head_dim,
            mxfp4_rest_bits=LLAMA_CPP_MXFP4_REST_BITS if engine == "llama.cpp" else 16.0,
        )

    # -- weights ---------------------------------------------------------------------

    def weight_bytes(self, fmt: WeightsFormat) -> float:
        """Bytes of every weight in ``fmt`` (all experts, embeddings, head)."""
        return self._bytes(self.params_total, self.expert_params, self.embedding_params, fmt)

    def experts_touched(self, tokens: float) -> float:
        """Distinct routed experts per MoE layer that ``tokens`` tokens use (uniform
        routing: each expert is missed by a token with probability 1 − k/E)."""
        if not self.experts or not self.top_k:
            return 0.0
        miss = 1.0 - self.top_k / self.experts
        return float(self.experts * (1.0 - math.pow(miss, max(tokens, 1.0))))

    def host_moe_layers(self, n_cpu_moe: int) -> int:
        """MoE layers among the first ``n_cpu_moe`` layers (llama.cpp counts from layer 0,
        dense layers included)."""
        if not self.moe_layers or n_cpu_moe <= 0:
            return 0
        return min(max(n_cpu_moe - self.dense_leading, 0) // self.moe_step, self.moe_layers)

    def read_bytes(self, fmt: WeightsFormat, tokens: float, n_cpu_moe: int) -> tuple[float, float]:
        """Weight bytes a decode step of ``tokens`` tokens reads on the GPUs and on the host.

        Everything but the routed experts is read once (the input embedding is a lookup,
        the output head is read whole); each MoE layer reads the experts the tokens
        touch, those of the first ``n_cpu_moe`` layers from host RAM.
        """
        head = float(self.vocab * self.hidden)
        # embedding_params is one table when tied, input + head when not: either way the
        # input table leaves and the head stays.
        shared = self.params_active - self.expert_active_params - self.embedding_params + head
        touched = self.experts_touched(tokens) * self.per_expert_params
        host_layers = self.host_moe_layers(n_cpu_moe)
        gpu_experts = (self.moe_layers - host_layers) * touched
        expert_bits = FORMATS[fmt].bits / 8.0
        gpu = self._shared_bytes(shared, head, fmt) + gpu_experts * expert_bits
        return gpu, host_layers * touched * expert_bits

    def _bytes(self, params: float, experts: float, embed: float, fmt: WeightsFormat) -> float:
        info = FORMATS[fmt]
        if info.family in ("group-int4", "bnb"):
            # GPTQ/AWQ/bitsandbytes keep embeddings and the head in 16 bits.
            return (params - embed) * info.bits / 8.0 + embed * 2.0
        if fmt == "mxfp4":
            # MXFP4 checkpoints (gpt-oss) quantise the MoE experts; the rest is kept at
            # the release's own precision (mxfp4_rest_bits).
            quantised = experts if experts else params
            rest = self.mxfp4_rest_bits / 8.0
            return quantised * info.bits / 8.0 + (params - quantised) * rest
        return params * info.bits / 8.0

    def scaled(self, share: float) -> LlmShape:
        """A dense model ``share`` of this one's active size (half the layers, the same
        attention): a stand-in draft model."""
        return replace(
            self,
            layers=max(1, self.layers // 2),
            params_total=self.params_active * share,
            params_active=self.params_active * share,
            embedding_params=self.embedding_params * share,
            expert_params=0.0,
            expert_active_params=0.0,
            experts=0,
            top_k=0,
            moe_layers=0,
            full_layers=max(1, self.layers // 2),
            sliding_layers=0,
            linear_layers=0,
        )

    def host_expert_bytes(self, fmt: WeightsFormat, n_cpu_moe: int) -> float:
        """Bytes of the routed experts ``--n-cpu-moe n_cpu_moe`` keeps in host RAM."""
        per_layer = self.experts * self.per_expert_params * FORMATS[fmt].bits / 8.0
        return self.host_moe_layers(n_cpu_moe) * per_layer

    def host_active_params(self, n_cpu_moe: int) -> float:
        """Expert parameters one token uses on the host (what the CPU multiplies)."""
        return self.host_moe_layers(n_cpu_moe) * self.top_k * self.per_expert_params

    def _shared_bytes(self, params: float, embed: float, fmt: WeightsFormat) -> float:
        """Bytes of non-expert parameters (``embed`` of them embeddings or the head)."""
        info = FORMATS[fmt]
        if info.family in ("group-int4", "bnb"):
            return (params - embed) * info.bits / 8.0 + embed * 2.0
        if fmt == "mxfp4" and self.experts:
            return params * self.mxfp4_rest_bits / 8.0
        return params * info.bits / 8.0

    # -- KV cache ----------------------------------------------------------------------

    def kv_values_per_token_layer(self) -> float:
        if self.kv_lora_rank is not None:
            return float(self.kv_lora_rank + (self.rope_dim or 0))
        return float(2 * self.kv_heads * self.head_dim)

    def kv_bytes(self, context: float, kv: KvFormat) -> float:
        """KV cache of one sequence holding ``context`` tokens, all layers."""
        per = self.kv_values_per_token_layer() * KV_BYTES[kv]
        held = self.full_layers * context
        if self.sliding_layers:
            held += self.sliding_layers * min(context, float(self.window or context))
        return per * held + self.linear_state_bytes()

    def linear_state_bytes(self) -> float:
        """Fixed state of one sequence in the linear-attention layers, kept in fp32
        (Qwen3.5's config.json: ``mamba_ssm_dtype`` float32; llama.cpp keeps recurrent
        states in F32 whatever the KV cache format)."""
        return self.linear_layers * self.linear_state_values * 4.0

    def query_heads_per_kv_head(self) -> float:
        """Query heads sharing one KV head (1 without grouped-query attention; 1 for
        latent attention, whose cache is one shared latent per token)."""
        if self.kv_lora_rank is not None or self.kv_heads <= 0:
            return 1.0
        return max(1.0, self.heads / self.kv_heads)

    def kv_read_bytes(self, context: float, kv: KvFormat) -> float:
        """KV bytes one decode step reads at ``context`` (all of the cache it attends to)."""
        return self.kv_bytes(context, kv)

    # -- FLOPs ---------------------------------------------------------------------------

    def prefill_flops(self, prompt: float) -> float:
        dense = 2.0 * self.params_active * prompt
        width = float(self.heads * self.head_dim)
        attention = 2.0 * width * prompt * prompt * self.full_layers
        if self.sliding_layers:
            span = min(prompt, float(self.window or prompt))
            attention += 4.0 * width * prompt * span * self.sliding_layers / 2.0
        return dense + attention

    def attention_matrix_elements(self, prompt: float) -> float:
        """Scores of a causal prompt, all heads and layers (P² / 2 per head and layer)."""
        full = self.full_layers * prompt * prompt / 2.0
        if self.sliding_layers:
            full += self.sliding_layers * prompt * min(prompt, float(self.window or prompt))
        return full * self.heads

    def decode_flops(self, context: float) -> float:
        """FLOPs of one generated token at ``context`` (matrix products and attention)."""
        width = float(self.heads * self.head_dim)
        attention = 4.0 * width * context * self.full_layers
        if self.sliding_layers:
            span = min(context, float(self.window or context))
            attention += 4.0 * width * span * self.sliding_layers
        return 2.0 * self.params_active + attention
