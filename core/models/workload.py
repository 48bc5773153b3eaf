"""Frozen models of a workload: the model architecture (preset or custom) and how it is run.

``WorkloadPreset`` holds architecture facts with a source per figure; ``Workload``
adds the task, precision, batch, optimizer, checkpointing and parallelism. All
validation of impossible combinations lives here, once.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from core.models.common import Frozen, NonEmptyStr
from core.models.system import Backend

# Physical ranges, far outside any real network, so no value a file can hold makes the
# analysis overflow (file format limits: docs/file-format.md).
Params = Annotated[int, Field(ge=1, le=10**14)]
Dim = Annotated[int, Field(ge=1, le=10_000_000)]
Tokens = Annotated[int, Field(ge=1, le=100_000_000)]
Flops = Annotated[float, Field(ge=0, le=1e21)]
Elements = Annotated[float, Field(ge=0, le=1e18)]
MAX_BATCH = 1_000_000

ModelKind = Literal["decoder", "encoder", "encoder_decoder", "cnn", "rnn", "diffusion_unet", "flow"]
InputKind = Literal["image", "text", "audio"]
ThroughputUnit = Literal["images/s", "sequences/s", "tokens/s", "mels/s", "audio-samples/s"]
Task = Literal["training", "lora", "qlora", "inference"]
Precision = Literal["fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"]
Optimizer = Literal["sgd", "adam", "adamw", "adafactor", "adam8bit", "adamw8bit", "paged-adamw8bit"]
Checkpointing = Literal["none", "selective", "op", "full"]
"""Activation checkpointing: ``selective`` recomputes the attention core (Megatron,
Korthikanti et al. 2022); ``op`` keeps every other matrix product's output and recomputes
the rest (torchtitan's per-op policy, ``core.calc.checkpoint``); ``full`` keeps only each
layer's input."""
Stack = Literal["pytorch-eager", "pytorch", "pytorch-compile", "transformer-engine", "unsloth"]
"""The training/inference software stack: what it fuses (docs/performance-model.md)."""
MasterWeights = Literal["fp32", "none"]
Offload = Literal["none", "activations", "optimizer", "both"]
Parallelism = Literal["data", "zero1", "zero2", "zero3", "fsdp", "independent"]
MlpKind = Literal["gelu", "relu", "swiglu"]
AttentionImpl = Literal["eager", "flash"]
LoraTarget = Literal["q", "k", "v", "o", "gate", "up", "down"]

TRAINING_TASKS: frozenset[str] = frozenset({"training", "lora", "qlora"})

Engine = Literal[
    "llama.cpp", "vllm", "tensorrt-llm", "sglang", "transformers", "exllamav2", "mlx-lm"
]
WeightsFormat = Literal[
    "f16",
    "bf16",
    "fp8",
    "int8",
    "q8_0",
    "q6_k",
    "q5_k_m",
    "q4_k_m",
    "q4_0",
    "iq4_xs",
    "gptq-int4",
    "awq-int4",
    "q4f16_1",
    "nf4",
    "nf4-dq",
    "mxfp4",
    "nvfp4",
]
KvFormat = Literal["f16", "fp8", "q8_0", "q4_0"]
Split = Literal["layer", "tensor"]


class OpMix(Frozen):
    """Forward FLOPs of one sample split by operation class (2 FLOPs per multiply-add).

    ``attention`` is the s^2 part only (QK^T and AV); ``recurrent`` the LSTM/GRU
    cell matmuls on the hidden state; ``elementwise`` one FLOP per output value of
    every other op (normalization, activation, softmax, residual adds).
    """

    matmul_conv_flops: Flops
    attention_flops: Flops
    recurrent_flops: Flops
    elementwise_flops: Flops
    unaligned_matmul_flops: Flops = 0.0
    """Part of ``matmul_conv_flops`` in GEMMs with a dimension that is not a multiple
    of 8 (an odd vocabulary size, say): 16- and 8-bit tensor-core kernels need 16-byte
    aligned rows (NVIDIA "Matrix Multiplication Background" guide, Tensor Core
    requirements), so these run far below the tensor-core peak at those precisions."""
    dilated_conv_flops: Flops = 0.0
    """Part of ``matmul_conv_flops`` in dilated convolutions (dilation > 1). cuDNN has no
    algorithm that runs a dilated convolution on tensor cores (NVIDIA's note in chainer
    PR #4064, cuDNN 7), so at 16-bit precision these run on the CUDA cores, at the
    chip's non-tensor 16-bit rate (as unaligned GEMMs do)."""
    conv_flops: Flops = 0.0
    """Part of ``matmul_conv_flops`` in convolutions (1-D, 2-D, transposed; dilated ones
    included), counted by ``tools/derive/count_conv_flops.py``; the rest are linear layers.
    0 where not counted: the model then treats every product as a plain GEMM."""
    depthwise_conv_flops: Flops = 0.0
    """Part of ``conv_flops`` in depthwise convolutions (one input channel per output
    channel: EfficientNet's MBConv, ConvNeXt's 7 x 7), counted by
    ``tools/derive/count_conv_flops.py``. With no reduction dimension there is no
    tensor-core MMA to run them on: they run on the CUDA cores."""

    @model_validator(mode="after")
    def _parts_within_total(self) -> OpMix:
        if self.conv_flops > self.matmul_conv_flops * (1 + 1e-9):
            raise ValueError("conv_flops is part of matmul_conv_flops and cannot exceed it")
        if self.depthwise_conv_flops > self.conv_flops * (1 + 1e-9):
            raise ValueError("depthwise_conv_flops is part of conv_flops and cannot exceed it")
        return self

    @property
    def total_flops(self) -> float:
        return (
            self.matmul_conv_flops
            + self.attention_flops
            + self.recurrent_flops
            + self.elementwise_flops
        )


class Architecture(Frozen):
    """What the memory and throughput models need to know about a network.

    Transformer fields (``layers`` .. ``vocab_size``) are ``None`` for CNNs and
    other nets where they do not apply or no source gives them.
    """

    kind: ModelKind
    params_total: Params
    params_active: Params | None = None
    """Parameters used per token (MoE top-k); ``None`` means all (dense)."""
    embedding_params: Annotated[int, Field(ge=0, le=10**14)] = 0
    """Token/position embeddings and an untied output layer (kept 16-bit when quantized)."""
    layers: Annotated[int, Field(ge=1, le=100_000)] | None = None
    hidden_size: Dim | None = None
    heads: Dim | None = None
    kv_heads: Dim | None = None
    head_dim: Dim | None = None
    ffn_hidden_size: Dim | None = None
    mlp: MlpKind | None = None
    vocab_size: Annotated[int, Field(ge=1, le=100_000_000)] | None = None
    num_experts: Annotated[int, Field(ge=1, le=100_000)] | None = None
    experts_per_token: Annotated[int, Field(ge=1, le=100_000)] | None = None
    shared_experts: Annotated[int, Field(ge=0, le=1024)] | None = None
    """MoE experts every token uses besides its routed ones (DeepSeek's shared experts)."""
    moe_ffn_hidden_size: Dim | None = None
    """Hidden size of one routed expert when it differs from ``ffn_hidden_size``."""
    dense_layers: Annotated[int, Field(ge=0, le=100_000)] | None = None
    """Leading layers with a dense MLP in an MoE model (DeepSeek's first_k_dense_replace)."""
    moe_layer_step: Annotated[int, Field(ge=1, le=1024)] | None = None
    """Every how many layers (after ``dense_layers``) one is MoE: Llama 4 Maverick's
    ``interleave_moe_layer_step`` 2 makes every second layer MoE; ``None``: every layer."""
    linear_attention_layers: Annotated[int, Field(ge=0, le=100_000)] | None = None
    """Layers with linear (recurrent) attention, e.g. Gated DeltaNet in Qwen3-Next/Qwen3.5:
    they keep a fixed-size state per sequence instead of a KV cache that grows."""
    linear_state_values: Annotated[int, Field(ge=0, le=10**12)] | None = None
    """Values in one such layer's state per sequence (recurrent state plus the short
    convolution's cache), whatever the context."""
    sliding_window: Tokens | None = None
    """Tokens a sliding-window attention layer looks back (its KV cache never holds more)."""
    sliding_window_layers: Annotated[int, Field(ge=0, le=100_000)] | None = None
    """How many of ``layers`` use the sliding window (the rest attend to the whole context)."""
    kv_lora_rank: Dim | None = None
    """Multi-head latent attention (DeepSeek-V2/V3): width of the compressed KV per token and
    layer; the cache keeps it plus ``qk_rope_head_dim`` values instead of K and V."""
    qk_rope_head_dim: Dim | None = None
    release_weights: WeightsFormat | None = None
    """Weights format of the maker's own release when it is not 16-bit (gpt-oss: MXFP4
    experts; DeepSeek-V3: FP8), read from config.json's ``quantization_config``."""
    lm_head: bool = True
    """Whether training computes vocabulary logits for every token (LMs, MLM)."""
    dropout: bool = False
    attention_impl: AttentionImpl = "eager"
    default_seq_len: Tokens | None = None
    image_resolution_px: Annotated[int, Field(ge=1, le=100_000)] | None = None
    input_kind: InputKind
    input_bytes_per_sample: Annotated[float, Field(ge=0, le=1e13)] | None = None
    throughput_unit: ThroughputUnit
    unit_items_per_sample: Annotated[float, Field(ge=1e-6, le=1e10)] = 1.0
    """Tokens, mel frames or audio samples in one sample when the unit is not the sample."""
    forward_flops_per_sample: Flops | None = None
    op_mix: OpMix | None = None
    activation_elements_per_sample: Elements | None = None
    """Values produced by all non-view ops in one forward pass (eval mode); used by the
    throughput model, and by the memory model for inference of non-transformer nets."""
    conv_io_elements_per_sample: Elements | None = None
    """Input plus output values of every 2-D convolution in one forward, per sample
    (``tools/derive/count_conv_io.py``): what an NCHW run transposes to and from the NHWC
    layout of cuDNN's 16-bit tensor-core kernels."""
    saved_activation_bytes_per_sample_fp32: Elements | None = None
    """Bytes of activations one training forward (loss included) saves for backward, per
    sample, in fp32 at the default resolution / sequence length: distinct storages,
    parameters excluded (counted with ``saved_tensors_hooks``; benchmarks/
    count_saved_activations.py). ``None`` where not counted. Used for non-transformer
    training; transformer presets keep the Korthikanti formula and record it as a check."""

    @model_validator(mode="after")
    def _consistent(self) -> Architecture:
        if self.params_active is not None and self.params_active > self.params_total:
            raise ValueError("params_active exceeds params_total")
        if self.embedding_params > self.params_total:
            raise ValueError("embedding_params exceeds params_total")
        if self.heads and self.kv_heads and self.heads % self.kv_heads:
            raise ValueError("heads must be a multiple of kv_heads")
        if self.is_transformer and None in (self.layers, self.hidden_size, self.heads):
            raise ValueError(f"a {self.kind} model needs layers, hidden_size and heads")
        if self.sliding_window_layers and self.layers and self.sliding_window_layers > self.layers:
            raise ValueError("sliding_window_layers exceeds layers")
        if self.sliding_window_layers and self.sliding_window is None:
            raise ValueError("sliding_window_layers needs sliding_window")
        linear = self.linear_attention_layers or 0
        if linear and self.layers and linear + (self.sliding_window_layers or 0) > self.layers:
            raise ValueError("linear_attention_layers and sliding_window_layers exceed layers")
        return self

    @property
    def is_transformer(self) -> bool:
        return self.kind in ("decoder", "encoder", "encoder_decoder")

    @property
    def resolved_head_dim(self) -> int | None:
        if self.head_dim is not None:
            return self.head_dim
        if self.hidden_size and self.heads:
            return self.hidden_size // self.heads
        return None

    @property
    def resolved_kv_heads(self) -> int | None:
        return self.kv_heads or self.heads

    def lora_params(self, rank: int, targets: tuple[str, ...]) -> int:
        """LoRA adapter parameters: r x (d_in + d_out) per targeted matrix, per layer.

        Source: Hu et al. 2021, "LoRA" (arXiv:2106.09685) §4.1. MLP targets (gate, up,
        down) are adapted in every expert of an MoE layer (PEFT wraps each expert's
        linear layers); "gate" exists only in gated (SwiGLU) MLPs. The one formula the
        memory and the throughput models both use.
        """
        if not (self.layers and self.hidden_size and self.heads):
            raise ValueError("LoRA needs layers, hidden_size and heads")
        h, hd = self.hidden_size, self.resolved_head_dim or 1
        q_out, kv_out = self.heads * hd, (self.resolved_kv_heads or self.heads) * hd
        f = self.ffn_hidden_size or 4 * h
        experts = self.num_experts or 1
        dims = {
            "q": (h, q_out),
            "k": (h, kv_out),
            "v": (h, kv_out),
            "o": (q_out, h),
            "up": (h, f),
            "down": (f, h),
            "gate": (h, f),
        }
        per_layer = 0
        for target in targets:
            if target == "gate" and self.mlp != "swiglu":
                continue
            d_in, d_out = dims[target]
            count = experts if target in ("up", "down", "gate") else 1
            per_layer += count * rank * (d_in + d_out)
        return per_layer * self.layers


class WorkloadPreset(Frozen):
    """A named architecture with the source of each figure (field name -> source)."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")]
    name: NonEmptyStr
    aliases: tuple[NonEmptyStr, ...] = ()
    architecture: Architecture
    sources: dict[str, NonEmptyStr]
    notes: str = ""
    default_batch_size: Annotated[int, Field(ge=1, le=MAX_BATCH)] = 1
    default_task: Task = "training"

    @model_validator(mode="after")
    def _sourced(self) -> WorkloadPreset:
        for key in ("params_total", "forward_flops_per_sample"):
            if getattr(self.architecture, key) is not None and key not in self.sources:
                raise ValueError(f"preset {self.id}: {key} has no source")
        return self


class LoraSettings(Frozen):
    rank: Annotated[int, Field(ge=1, le=4096)] = 16
    targets: Annotated[tuple[LoraTarget, ...], Field(min_length=1)] = ("q", "v")
    base_bits: Literal[4, 8, 16] = 16
    """Bits per base weight: 16 for LoRA, 4 (NF4 + double quantization) or 8 for QLoRA."""


ALL_LINEAR: tuple[LoraTarget, ...] = ("q", "k", "v", "o", "gate", "up", "down")


def default_lora(task: str) -> LoraSettings:
    """The adapters a task starts from: LoRA rank 16 on q and v (the matrices Hu et al.
    2021 adapt); QLoRA rank 64 on every linear layer over a 4-bit base (Dettmers et al.
    2023 put adapters on all linear layers)."""
    if task == "qlora":
        return LoraSettings(rank=64, targets=ALL_LINEAR, base_bits=4)
    return LoraSettings()


def lora_for_task(lora: LoraSettings, task: str) -> LoraSettings:
    """The same adapters with the base precision the task needs (QLoRA 4-bit, LoRA 16)."""
    bits = (
        lora.base_bits if task == "qlora" and lora.base_bits != 16 else default_lora(task).base_bits
    )
    return lora.model_copy(update={"base_bits": bits})


ENGINE_WEIGHTS: dict[str, frozenset[str]] = {
    "llama.cpp": frozenset(
        {"f16", "bf16", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "iq4_xs", "mxfp4"}
    ),
    "vllm": frozenset(
        {"f16", "bf16", "fp8", "int8", "gptq-int4", "awq-int4", "nf4", "mxfp4", "nvfp4"}
    ),
    "tensorrt-llm": frozenset(
        {"f16", "bf16", "fp8", "int8", "gptq-int4", "awq-int4", "mxfp4", "nvfp4"}
    ),
    "sglang": frozenset({"f16", "bf16", "fp8", "int8", "gptq-int4", "awq-int4", "mxfp4"}),
    "transformers": frozenset(
        {"f16", "bf16", "fp8", "int8", "gptq-int4", "awq-int4", "nf4", "nf4-dq", "mxfp4"}
    ),
    "exllamav2": frozenset({"f16", "gptq-int4", "q4f16_1", "awq-int4"}),
    # MLX's own quantisation (group of 64 with an fp16 scale and bias: 4.5 and 8.5 bits a
    # weight) has q4_0's and q8_0's sizes; RigForge names it by them
    "mlx-lm": frozenset({"f16", "bf16", "q8_0", "q4_0"}),
}
"""Weights formats each engine loads (their documentation's supported-quantisation lists)."""

ENGINE_BACKENDS: dict[str, tuple[str, ...]] = {
    "llama.cpp": ("cuda", "rocm", "vulkan", "metal", "sycl"),
    "vllm": ("cuda", "rocm", "sycl"),
    "tensorrt-llm": ("cuda",),
    "sglang": ("cuda", "rocm"),
    "transformers": ("cuda", "rocm", "metal", "sycl"),
    "exllamav2": ("cuda", "rocm"),
    "mlx-lm": ("mlx",),
}
"""GPU software each engine runs on (llama.cpp's README backends: CUDA, HIP, Vulkan,
Metal, SYCL; vLLM's CUDA, ROCm and XPU builds; MLX-LM on Apple's MLX only)."""


Speculative = Literal["none", "draft", "mtp", "ngram"]


def default_weights(engine: str, arch: Architecture) -> WeightsFormat:
    """The weights a user of ``engine`` downloads for ``arch``: the maker's own release
    where it is quantised and the engine loads it (gpt-oss's MXFP4), else llama.cpp's
    usual Q4_K_M GGUF, else the 16-bit checkpoint (bf16)."""
    loads = ENGINE_WEIGHTS.get(engine, frozenset())
    if arch.release_weights is not None and arch.release_weights in loads:
        return arch.release_weights
    return "q4_k_m" if engine == "llama.cpp" else "bf16"


class Serving(Frozen):
    """How a decoder LLM is served: engine, formats, lengths, concurrent streams, GPU split.

    Used when the task is inference and the model is a decoder (``core.calc.inference``).
    """

    engine: Engine = "llama.cpp"
    weights: WeightsFormat = "f16"
    kv_cache: KvFormat = "f16"
    prompt_len: Tokens = 512
    """Tokens of the prompt (prefill) before generation starts."""
    gen_len: Annotated[int, Field(ge=1, le=10_000_000)] = 128
    """Tokens each stream generates."""
    streams: Annotated[int, Field(ge=1, le=4096)] = 1
    """Concurrent sequences decoded together (users served at once)."""
    split: Split = "layer"
    """Several GPUs: ``layer`` puts consecutive layers on each card (capacity), ``tensor``
    splits every layer across the cards (speed). Never one copy per GPU."""
    offload_gib: Annotated[float, Field(ge=0, le=100_000)] = 0.0
    """Weights kept in host RAM (layers or MoE experts), computed by the CPU."""
    n_cpu_moe: Annotated[int, Field(ge=0, le=100_000)] = 0
    """MoE models: the routed experts of the first N layers stay in host RAM and run on
    the CPU (llama.cpp ``--n-cpu-moe N``; layers counted from 0, dense ones included)."""
    offload_to_fit: bool = False
    """Keep in host RAM just what does not fit on each machine's GPUs (llama.cpp's
    ``--fit``): the experts of the fewest first layers for a mixture-of-experts model,
    else the fewest GiB of weights. Each build of a comparison gets its own amount."""
    speculative: Speculative = "none"
    """Speculative decoding: a draft model, the model's own multi-token-prediction heads
    (``mtp``) or n-gram lookup drafts tokens that one step of the model verifies."""
    draft_model: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    """Preset of the draft model (``speculative == "draft"``); ``None``: one a tenth of
    the target's size."""
    draft_tokens: Annotated[int, Field(ge=1, le=64)] | None = None
    """Tokens drafted per step; ``None``: the method's default."""
    acceptance: Annotated[float, Field(gt=0, lt=1)] | None = None
    """Chance a drafted token is accepted; ``None``: the method's published default."""
    engine_build: Literal["2023-12"] | None = None
    """An older engine build with constants of its own (llama.cpp's December 2023 build);
    ``None``: the current one."""
    backend: Backend | None = None
    """GPU software the engine runs on; ``None``: the GPU maker's own (NVIDIA CUDA, AMD
    ROCm, Intel SYCL, Apple Metal)."""
    flash_attention: bool = True
    """Fused (flash) attention kernels. llama.cpp runs them by default since August 2025
    (pull request #15434, ``-fa auto``); ``False`` models ``-fa off`` and older builds,
    whose attention writes the score matrix out and re-reads the cache per query head.
    The other engines always fuse attention."""

    @model_validator(mode="after")
    def _engine_loads_the_weights(self) -> Serving:
        loads = ENGINE_WEIGHTS.get(self.engine)
        if loads is not None and self.weights not in loads:
            raise ValueError(
                f"{self.engine} does not load {self.weights} weights; it loads "
                + ", ".join(sorted(loads))
            )
        return self

    @model_validator(mode="after")
    def _build_of_the_engine(self) -> Serving:
        if self.engine_build is not None and self.engine != "llama.cpp":
            raise ValueError(f"RigForge knows one build of {self.engine}: the current one")
        return self

    @model_validator(mode="after")
    def _engine_runs_the_backend(self) -> Serving:
        runs = ENGINE_BACKENDS.get(self.engine, ())
        if self.backend is not None and self.backend not in runs:
            raise ValueError(
                f"{self.engine} does not run on {self.backend}; it runs on " + ", ".join(runs)
            )
        return self

    @model_validator(mode="after")
    def _quantised_cache_needs_flash_attention(self) -> Serving:
        # llama.cpp refuses to start with a quantised V cache and flash attention off
        # ("V cache quantization requires flash_attn", src/llama-context.cpp)
        if self.engine == "llama.cpp" and self.kv_cache != "f16" and not self.flash_attention:
            raise ValueError(
                f"llama.cpp keeps a {self.kv_cache} KV cache only with flash attention on"
            )
        return self

    @property
    def context(self) -> int:
        """Tokens in the cache at the end of generation."""
        return self.prompt_len + self.gen_len


class TrainingTarget(Frozen):
    epochs: Annotated[float, Field(gt=0, le=1e6)] | None = None
    tokens: Annotated[float, Field(gt=0, le=1e18)] | None = None

    @model_validator(mode="after")
    def _one(self) -> TrainingTarget:
        if (self.epochs is None) == (self.tokens is None):
            raise ValueError("give exactly one of epochs or tokens")
        return self


class Workload(Frozen):
    """An architecture and how it runs; ``batch_size`` is the per-GPU micro-batch."""

    name: NonEmptyStr
    preset_id: str | None = None
    architecture: Architecture
    task: Task = "training"
    precision: Precision = "bf16"
    batch_size: Annotated[int, Field(ge=1, le=MAX_BATCH)] = 1
    seq_len: Tokens | None = None
    """Tokens per sequence (training), the input resolution in pixels for an image model,
    or ``None`` for the architecture default."""
    prompt_len: Tokens | None = None
    generated_len: Annotated[int, Field(ge=0, le=100_000_000)] = 0
    optimizer: Optimizer = "adamw"
    checkpointing: Checkpointing = "none"
    parallelism: Parallelism = "data"
    tp_degree: Annotated[int, Field(ge=1, le=1024)] = 1
    pp_degree: Annotated[int, Field(ge=1, le=1024)] = 1
    """Pipeline-parallel stages: each GPU of a pipeline holds 1/``pp_degree`` of the
    layers, and the micro-batches of a step (``grad_accum_steps``) flow through them
    (training only; 1F1B schedule, Narayanan et al. 2021)."""
    pp_virtual_stages: Annotated[int, Field(ge=1, le=256)] = 1
    """Model chunks per pipeline GPU (Megatron's interleaved schedule, "VP"): the
    pipeline bubble shrinks by this factor."""
    cpu_offload: bool = False
    """ZeRO-Offload of optimizer state and (ZeRO-3/FSDP) parameters; see ``offload``."""
    grad_accum_steps: Annotated[int, Field(ge=1, le=100_000)] = 1
    """Micro-batches per optimizer step: gradients are exchanged and the optimizer
    steps once per ``grad_accum_steps`` micro-batches (training only)."""
    stack: Stack = "pytorch"
    master_weights: MasterWeights = "fp32"
    """``none``: pure bf16 training without fp32 master weights."""
    optimizer_in_backward: bool = False
    """The optimizer steps each layer as its gradients arrive, so gradients never all
    exist at once (torchtune optimizer_in_bwd)."""
    chunked_loss: bool = False
    """The cross-entropy upcasts the logits to fp32 one chunk of tokens at a time
    (torchtune ``CEWithChunkedOutputLoss``, 8 chunks) instead of all at once. Applies to
    training a model with an LM head; otherwise it changes nothing."""
    offload: Offload = "none"
    """What lives in host RAM during training: activations (checkpoints copied to the
    host), optimizer state, or both; costs PCIe time and host RAM."""
    lora: LoraSettings | None = None
    dataset_samples: Annotated[int, Field(ge=1, le=10**15)] | None = None
    bytes_per_sample: Annotated[float, Field(ge=0, le=1e13)] | None = None
    target: TrainingTarget | None = None
    serving: Serving | None = None
    """LLM serving settings (decoder inference); ``None`` uses the defaults."""

    @model_validator(mode="after")
    def _possible(self) -> Workload:
        arch, task = self.architecture, self.task
        if task == "qlora" and self.precision in ("fp32", "tf32"):
            raise ValueError("QLoRA computes in 16-bit: choose fp16 or bf16, not fp32/tf32")
        if task == "qlora" and self.precision not in ("fp16", "bf16"):
            raise ValueError(f"QLoRA needs fp16 or bf16 compute, not {self.precision}")
        if task in ("training", "lora") and self.precision in ("int8", "int4"):
            raise ValueError(f"{task} cannot run with {self.precision} weights; use qlora")
        if task in ("lora", "qlora") and not arch.is_transformer:
            raise ValueError(
                f"LoRA adapters need a transformer's linear layers; {arch.kind} unsupported"
            )
        if task == "inference" and self.parallelism in ("zero1", "zero2"):
            raise ValueError(
                "ZeRO-1/2 shard optimizer state and gradients, which inference has none of"
            )
        if self.parallelism == "independent" and self.tp_degree > 1:
            raise ValueError(
                "independent experiments run one job per GPU; tensor parallel needs communication"
            )
        if self.pp_degree > 1 and not self.trains:
            raise ValueError(
                "pipeline parallelism is modelled for training; inference splits layers "
                "with the engine's split setting"
            )
        if self.pp_degree > 1 and self.parallelism not in ("data", "zero1"):
            raise ValueError(
                f"pipeline parallelism runs with data parallelism or ZeRO-1 (Megatron's "
                f"distributed optimizer; DeepSpeed refuses ZeRO-2/3 with a pipeline), "
                f"not {self.parallelism}"
            )
        if self.pp_degree > 1 and not (arch.is_transformer and arch.layers):
            raise ValueError("pipeline parallelism is modelled for transformer layers only")
        chunks = self.pp_degree * self.pp_virtual_stages
        if arch.layers and chunks > arch.layers:
            raise ValueError(
                f"{self.pp_degree} pipeline stages x {self.pp_virtual_stages} virtual stages "
                f"exceed the model's {arch.layers} layers"
            )

        if self.pp_virtual_stages > 1 and self.pp_degree == 1:
            raise ValueError("virtual pipeline stages need a pipeline-parallel degree above 1")
        if self.tp_degree > 1 and not arch.is_transformer:
            raise ValueError("tensor parallelism is modelled for transformer layers only")
        if self.tp_degree > 1 and arch.heads and arch.heads % self.tp_degree:
            raise ValueError(
                f"tensor parallel degree {self.tp_degree} must divide {arch.heads} heads"
            )
        if (
            self.cpu_offload
            and task != "inference"
            and self.parallelism not in ("zero1", "zero2", "zero3", "fsdp")
        ):
            raise ValueError("CPU offload of training state needs ZeRO or FSDP")
        if task == "qlora" and self.lora is not None and self.lora.base_bits == 16:
            raise ValueError("QLoRA quantizes the base model: base_bits must be 4 or 8")
        if task == "lora" and self.lora is not None and self.lora.base_bits != 16:
            raise ValueError("LoRA keeps a 16-bit base; use task qlora for a quantized base")
        if self.offload in ("activations", "both") and not (self.trains and arch.is_transformer):
            raise ValueError("activation offload is modelled for training transformers only")
        if self.master_weights == "none" and self.precision in ("fp32", "tf32"):
            raise ValueError("training without fp32 master weights needs bf16 or fp16 weights")
        if task != "inference" and (self.prompt_len is not None or self.generated_len):
            raise ValueError("prompt_len and generated_len apply to inference only")
        return self

    @property
    def trains(self) -> bool:
        return self.task in TRAINING_TASKS

    @property
    def offloads_optimizer(self) -> bool:
        return self.cpu_offload or self.offload in ("optimizer", "both")

    @property
    def offloads_activations(self) -> bool:
        return self.offload in ("activations", "both")

    @property
    def is_serving(self) -> bool:
        """Whether this is LLM serving (inference of a decoder transformer)."""
        return (
            self.task == "inference"
            and self.architecture.kind == "decoder"
            and self.architecture.is_transformer
        )

    @property
    def serving_settings(self) -> Serving:
        """The serving block; when the file has none, defaults from precision and lengths."""
        if self.serving is not None:
            return self.serving
        weights = {"int8": "q8_0", "int4": "q4_k_m"}.get(self.precision) or default_weights(
            "llama.cpp", self.architecture
        )
        return Serving(
            weights=weights,
            prompt_len=self.prompt_len or 512,
            gen_len=max(self.generated_len, 1) if self.generated_len else 128,
            streams=self.batch_size,
        )

    @property
    def lora_settings(self) -> LoraSettings:
        """LoRA settings with the task's defaults (QLoRA: NF4 base, all linear layers)."""
        if self.lora is not None:
            return self.lora
        return default_lora(self.task)

    @property
    def trainable_params(self) -> float:
        """Parameters that get gradients and optimizer state: all of them in full training,
        the adapters in LoRA/QLoRA (``Architecture.lora_params``), none in inference."""
        if self.task == "training":
            return float(self.architecture.params_total)
        if self.task in ("lora", "qlora"):
            lora = self.lora_settings
            return float(self.architecture.lora_params(lora.rank, lora.targets))
        return 0.0

    @property
    def tokens_per_sequence(self) -> int:
        """Sequence length the activations and KV cache are sized for."""
        if self.task == "inference" and self.prompt_len is not None:
            return self.prompt_len + self.generated_len
        return self.seq_len or self.architecture.default_seq_len or 1
