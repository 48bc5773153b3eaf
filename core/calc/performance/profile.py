"""Adapter: a ``Workload`` (preset architecture + run settings) -> a flat ``WorkProfile``.

All knowledge of the shape of ``core.models.workload`` lives here, so the
throughput, host-I/O and scaling models only ever see ``WorkProfile``.

Sources:
- Training step = 3 x forward FLOPs; LoRA/QLoRA skip the base weight
  gradients, 2 x forward. Source: Kaplan et al. 2020 sec. 2.1; Hu et al. 2021
  "LoRA" (arXiv:2106.09685) sec. 4 (no gradients for frozen weights).
- Optimizer step traffic per parameter (fp32 state): Adam/AdamW read param, grad,
  m, v and write param, m, v = 7 x 4 B; SGD with momentum 5 x 4 B; 8-bit Adam
  keeps m, v in 1 B each. Source: Kingma & Ba 2015 (Adam update); Dettmers et
  al. 2022 "8-bit Optimizers via Block-wise Quantization" (arXiv:2110.02861).
- Gradients are all-reduced in fp32 under automatic mixed precision (fp32
  master weights). Source: Micikevicius et al. 2018 "Mixed Precision Training"
  sec. 3.1; PyTorch DDP with torch.cuda.amp.
"""

from __future__ import annotations

from core.calc import checkpoint
from core.calc.memory.components import NF4_DQ_BITS
from core.calc.performance.stacks import STACKS, effective_stack
from core.models.throughput import WorkProfile
from core.models.workload import Architecture, Checkpointing, Workload

_OPTIMIZER_BYTES = {
    "sgd": 20.0,
    "adam": 28.0,
    "adamw": 28.0,
    "adafactor": 16.0,
    "adam8bit": 16.0,
    "adamw8bit": 16.0,
    "paged-adamw8bit": 16.0,
}
"""DRAM bytes the optimizer step moves per trainable parameter with fp32 master weights
(AdamW: read fp32 weight, 16-bit gradient, m and v; write weight, m, v and the 16-bit
copy = 4 + 2 + 8 + 12 + 2)."""
_OPTIMIZER_BYTES_NO_MASTER = {
    "sgd": 10.0,
    "adam": 14.0,
    "adamw": 14.0,
    "adafactor": 8.0,
    "adam8bit": 10.0,
    "adamw8bit": 10.0,
    "paged-adamw8bit": 10.0,
}
"""The same in pure bf16 (no master weights; states in bf16, 8-bit states in 1 byte):
AdamW reads weight, gradient, m, v (2 + 2 + 4) and writes weight, m, v (2 + 4)."""
_DEFAULT_LAYERS = {"cnn": 50, "flow": 96, "diffusion_unet": 60, "rnn": 8}
"""Kernel-launch groups for nets whose preset gives no layer count (ResNet-50: 50 conv
layers; WaveGlow: 12 flows x 8 WaveNet layers)."""


_EAGER_SCORE_TENSORS = 2.0
"""Score-sized outputs every explicit attention writes per head and layer: QKᵀ and its
softmax (timm's ``Attention`` with fused attention off). The counted modules that also
scale or mask the scores write more (Llama 2 7B's count per token and layer, 679 k
elements, leaves about four score rows of 32 heads x 4,096 keys beside some 155 k of
projections, norms and MLP), so this is a lower bound."""

_WAVENET_CHANNELS = 512
_WAVEGLOW_GROUP = 8
"""WaveGlow's coupling layers are WaveNet stacks of 512-channel convolutions over the
audio folded into groups of 8 samples (NVIDIA DLE Tacotron2 waveglow/arg_parser.py:
--wn-channels default 512, --groups default 8); the preset has no hidden size."""


def _gemm_shape(arch: Architecture, seq: int | None) -> tuple[int | None, float]:
    """(narrowest GEMM inner dimension, GEMM rows per sample) of an architecture."""
    if arch.kind == "flow":
        return _WAVENET_CHANNELS, float(seq or 1) / _WAVEGLOW_GROUP
    if arch.kind in ("cnn", "diffusion_unet"):
        return None, 1.0
    return arch.hidden_size, float(seq or 1)


def _layers(arch: Architecture) -> int:
    if arch.layers is not None and arch.kind not in ("cnn", "flow", "diffusion_unet"):
        return arch.layers * (2 if arch.kind == "encoder_decoder" else 1)
    return arch.layers or _DEFAULT_LAYERS.get(arch.kind, 24)


def profile_from_workload(workload: Workload) -> WorkProfile:
    """Flatten a ``Workload`` into the numbers the performance model uses.

    Per-sample FLOPs and activation counts are the preset's at its default
    sequence length; a different ``seq_len`` scales the linear parts by s and the
    attention part by s^2 (for an image model ``seq_len`` is the resolution, and s the
    pixel-count ratio).
    """
    arch = workload.architecture
    mix = arch.op_mix
    if mix is not None:
        matmul, attention = mix.matmul_conv_flops, mix.attention_flops
        recurrent, elementwise = mix.recurrent_flops, mix.elementwise_flops
        unaligned, dilated = mix.unaligned_matmul_flops, mix.dilated_conv_flops
        conv, depthwise = mix.conv_flops, mix.depthwise_conv_flops
    else:
        matmul = arch.forward_flops_per_sample or 2.0 * (arch.params_active or arch.params_total)
        attention = recurrent = elementwise = unaligned = dilated = conv = depthwise = 0.0
    activations = arch.activation_elements_per_sample or 0.0
    items = arch.unit_items_per_sample
    default_seq = arch.default_seq_len
    seq = workload.seq_len or default_seq
    ratio = 1.0
    tokens = seq
    resolution = arch.image_resolution_px if arch.input_kind == "image" else None
    if resolution:
        # An image model's ``seq_len`` is its input resolution: convolution outputs and a
        # vision transformer's patches grow with the pixel count (resolution squared),
        # never with the side length (ViT-B/16 at 224 px has 197 tokens, not 224).
        if workload.seq_len and workload.seq_len != resolution:
            ratio = (workload.seq_len / resolution) ** 2
        tokens = round(default_seq * ratio) if default_seq else None
    elif seq is not None and default_seq and seq != default_seq:
        ratio = seq / default_seq
    if ratio != 1.0:
        matmul, recurrent, elementwise, activations, unaligned, dilated, conv, depthwise = (
            matmul * ratio,
            recurrent * ratio,
            elementwise * ratio,
            activations * ratio,
            unaligned * ratio,
            dilated * ratio,
            conv * ratio,
            depthwise * ratio,
        )
        attention *= ratio * ratio
        if not resolution and (arch.throughput_unit == "tokens/s" or items == default_seq):
            items *= ratio
    if workload.task == "inference" and workload.generated_len:
        # Decode re-reads the weights per token; the roofline below sees it as
        # one forward of the prompt plus generated tokens.
        items = float(workload.tokens_per_sequence)

    recurrent_steps = float(tokens or 0) if recurrent > 0 else 0.0
    # A recurrence whose output unit is produced one per timestep (an autoregressive
    # decoder such as Tacotron 2's) is stepped from Python, one kernel chain per step;
    # a seq2seq encoder/decoder trained with teacher forcing runs fused cuDNN kernels.
    host_loop = recurrent_steps if (recurrent_steps and items == float(tokens or 0)) else 0.0

    pass_factor = {"inference": 1.0, "lora": 2.0, "qlora": 2.0}.get(workload.task, 3.0)
    trainable = workload.trainable_params

    gemm_width, gemm_rows = _gemm_shape(arch, tokens)
    head_dim = arch.resolved_head_dim
    scores = attention / (4.0 * head_dim) if head_dim else 0.0
    if arch.activation_elements_per_sample and STACKS[effective_stack(workload)].flash_attention:
        # The presets' activations were counted over a forward with explicit attention
        # (the counter tags its QKᵀ and AV matmuls), which writes the score matrix and its
        # softmax to DRAM; FlashAttention keeps both on chip (Dao et al. 2022,
        # arXiv:2205.14135, §3), so at least these two score-sized tensors leave the
        # elementwise traffic.
        activations = max(activations - _EAGER_SCORE_TENSORS * scores, 0.0)

    target = workload.target if workload.trains else None  # inference has no target
    return WorkProfile(
        name=workload.name,
        unit=arch.throughput_unit,
        items_per_sample=items,
        params_total=float(arch.params_total),
        params_trainable=trainable,
        matmul_flops=matmul,
        attention_flops=attention,
        recurrent_flops=recurrent,
        elementwise_flops=elementwise,
        activation_elements=activations,
        recurrent_steps=recurrent_steps,
        layers=_layers(arch),
        host_loop_steps=host_loop,
        pass_factor=pass_factor,
        requested_precision=workload.precision,
        batch_per_gpu=workload.batch_size,
        optimizer_bytes_per_param=(
            _OPTIMIZER_BYTES_NO_MASTER
            if workload.master_weights == "none" and workload.task == "training"
            else _OPTIMIZER_BYTES
        )[workload.optimizer],
        grad_bytes_per_param=4.0,
        parallelism=workload.parallelism,
        tp_degree=workload.tp_degree,
        pp_degree=workload.pp_degree,
        pp_virtual_stages=workload.pp_virtual_stages,
        hidden_size=arch.hidden_size,
        gemm_width=gemm_width,
        tokens_per_sample=gemm_rows,
        attention_score_elements=scores,
        unaligned_matmul_flops=min(unaligned, matmul),
        dilated_conv_flops=min(dilated, matmul - min(unaligned, matmul)),
        conv_flops=min(conv, matmul),
        depthwise_conv_flops=min(depthwise, conv, matmul),
        conv_io_elements=(arch.conv_io_elements_per_sample or 0.0) * ratio,
        channels_last=STACKS[effective_stack(workload)].channels_last,
        seq_len=seq,
        input_kind=arch.input_kind,
        input_bytes_per_sample=(
            workload.bytes_per_sample
            if workload.bytes_per_sample is not None
            else arch.input_bytes_per_sample or 0.0
        ),
        dataset_samples=workload.dataset_samples,
        target_epochs=target.epochs if target else None,
        target_tokens=target.tokens if target else None,
        stack=effective_stack(workload),
        grad_accum_steps=workload.grad_accum_steps if workload.trains else 1,
        recompute=_recompute(workload),
        op_recompute_matmul_share=(
            checkpoint.recomputed_matmul_share(arch) if arch.is_transformer else 0.5
        ),
        offload_bytes_per_step=_offload_bytes(workload),
        host_optimizer=workload.trains and workload.offloads_optimizer,
        dequant_bytes_per_pass=_dequant_bytes(workload),
        frozen_weight_bytes=_frozen_weight_bytes(workload),
    )


def _frozen_weight_bytes(workload: Workload) -> float:
    """The frozen base of a LoRA/QLoRA run as it is stored, the same bytes the memory
    model holds (``core.calc.memory.components``): 16-bit under mixed precision (fp32
    otherwise) for LoRA; for QLoRA the linear layers packed (NF4 with double
    quantisation 4.127 bits, Dettmers et al. 2023 §3, or 8 bits) and the embeddings
    16-bit. Zero for full training and inference (nothing frozen to gather)."""
    arch = workload.architecture
    if workload.task == "lora":
        mixed = workload.precision in ("fp16", "bf16", "fp8")
        return float(arch.params_total) * (2.0 if mixed else 4.0)
    if workload.task == "qlora":
        bits = 8.0 if workload.lora is not None and workload.lora.base_bits == 8 else NF4_DQ_BITS
        dense = float(arch.params_total - arch.embedding_params)
        return dense * bits / 8.0 + float(arch.embedding_params) * 2.0
    return 0.0


def _dequant_bytes(workload: Workload) -> float:
    """QLoRA's base weights outside the embeddings (which stay 16-bit), read packed
    (NF4 with double quantisation 4.127 bits, Dettmers et al. 2023 §3, or 8 bits) and
    written as 16-bit for the product (bitsandbytes ``dequantize_4bit``): the whole
    model's, as every device term; tensor and pipeline parallelism split it with them."""
    if workload.task != "qlora":
        return 0.0
    arch = workload.architecture
    bits = 8.0 if workload.lora is not None and workload.lora.base_bits == 8 else NF4_DQ_BITS
    dense = float(arch.params_total - arch.embedding_params)
    return dense * (bits / 8.0 + 2.0)


def _recompute(workload: Workload) -> Checkpointing:
    """What the backward recomputes: the checkpointing asked for; offloaded activations
    are layer checkpoints (docs/memory-model.md), so every layer is recomputed as under
    full checkpointing whatever else is set."""
    if not workload.trains:
        return "none"
    if workload.offloads_activations and workload.architecture.is_transformer:
        return "full"
    return workload.checkpointing


def _offload_bytes(workload: Workload) -> float:
    """Bytes each way over PCIe per step: the layer checkpoints when activations are
    offloaded (each layer's input, Korthikanti et al. 2022 Table 2: s·b·h values), and the
    16-bit gradients out and weights back when the optimizer runs on the CPU
    (ZeRO-Offload, Ren et al. 2021, §4). Per GPU: tensor parallelism splits both, and a
    pipeline stage copies only its layers'."""
    if not workload.trains:
        return 0.0
    arch = workload.architecture
    out = 0.0
    if workload.offloads_activations and arch.hidden_size and arch.layers:
        act = 4.0 if workload.precision in ("fp32", "tf32") else 2.0
        out += (
            arch.layers
            * workload.tokens_per_sequence
            * workload.batch_size
            * arch.hidden_size
            * act
            / workload.tp_degree
        )
    if workload.offloads_optimizer:
        out += workload.trainable_params * 2.0 / workload.tp_degree
    return out / workload.pp_degree


def with_run(
    profile: WorkProfile, *, batch: int | None = None, precision: str | None = None
) -> WorkProfile:
    """The same profile with another per-GPU batch or precision (both plain fields)."""
    update: dict[str, object] = {}
    if batch is not None:
        update["batch_per_gpu"] = batch
    if precision is not None:
        update["requested_precision"] = precision
    return profile.model_copy(update=update) if update else profile
