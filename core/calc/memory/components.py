"""Byte counts behind the VRAM model, one function per component (pure; bytes, not GiB)."""

from __future__ import annotations

import math
from typing import NamedTuple

from core.calc import checkpoint
from core.calc.inference.formats import FORMATS
from core.calc.performance.stacks import STACKS
from core.errors import InvalidWorkload
from core.models.workload import Workload

GIB = float(2**30)
FRAMEWORK_GIB = 1.3e9 / GIB
"""CUDA context + framework kernels: "the kernels alone take up 1.3GB of GPU memory"
(Hugging Face Transformers docs, model_memory_anatomy.md)."""
FRAGMENTATION_FRACTION = 0.05
"""Workspace and fragmentation allowance on per-step allocations (activations, KV cache).

Physics: the caching allocator rounds large blocks to 2 MiB (under 1 % for tensors of
hundreds of MB) and backward adds the gradients of one layer's input and output (about
3 % of the saved activations for BERT-base's a*s^2 scores, 7 % for ResNet-50's largest
map). Bound: accelerate's "up to an additional 20%" is contradicted by Lambda's
published batches - BERT-base SQuAD fp16 batch 96 ran on 24 GB cards, leaving 4.5 % of
its activations after model states and the 1.3 GB context
(tests/validation/test_memory_calibration_batches.py, docs/memory-model.md)."""
NF4_DQ_BITS = 4.127
"""QLoRA NF4 with double quantization: 4 bits + 0.127 bits of constants per parameter
(Dettmers et al. 2023, arXiv:2305.14314 §3)."""

_MIXED = frozenset({"fp16", "bf16", "fp8"})
_WEIGHT_BYTES = {
    "fp32": 4.0,
    "tf32": 4.0,
    "fp16": 2.0,
    "bf16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
}
_OPTIMIZER_BYTES = {
    "adam": 8.0,
    "adamw": 8.0,
    "sgd": 4.0,
    "adafactor": 4.0,
    "adam8bit": 2.0,
    "adamw8bit": 2.0,
    "paged-adamw8bit": 2.0,
}
"""Optimizer state per trainable parameter (fp32 m and v for Adam; momentum for SGD;
Adafactor's factored second moment with first moment: HF model_memory_anatomy.md;
bitsandbytes 8-bit states: 1 byte each for m and v, Dettmers et al. 2022). Paged
AdamW 8-bit keeps the same state on the GPU and pages it to host RAM only under memory
pressure (bitsandbytes docs), so its peak is counted like AdamW 8-bit."""
_OPTIMIZER_BYTES_BF16 = {
    "adam": 4.0,
    "adamw": 4.0,
    "sgd": 2.0,
    "adafactor": 2.0,
    "adam8bit": 2.0,
    "adamw8bit": 2.0,
    "paged-adamw8bit": 2.0,
}
"""The same with bf16 states (no master weights)."""
"""Optimizer state per trainable parameter (HF docs model_memory_anatomy.md: AdamW 8,
8-bit AdamW 2, SGD with momentum 4; perf_train_gpu_one.md: Adafactor "slightly more
than 4 bytes")."""


class ModelStates(NamedTuple):
    weights: float
    gradients: float
    optimizer: float


def act_bytes(workload: Workload) -> float:
    """Bytes per stored activation value: 4 in fp32/tf32, else 2 (fp8 recipes keep
    most activations in bf16; quantized inference computes in fp16).

    Mixed precision (AMP / apex O2): convolution and matmul outputs are 16-bit and the
    elementwise ops after them (BatchNorm, ReLU, GeLU, dropout masks at 1 byte) keep
    that; what stays fp32 (BatchNorm statistics, fp32 loss log-softmax, autocast's fp32
    list) is a few percent: the counted CNN, Tacotron 2 and WaveGlow forwards under CPU
    autocast fp16 save 0.50-0.51 of their fp32 bytes (GNMT 0.98 and Transformer-XL 0.80
    there: CPU autocast leaves LSTM cell and softmax ops in fp32; not modelled)."""
    return 4.0 if workload.precision in ("fp32", "tf32") else 2.0


def data_parallel_degree(workload: Workload, gpu_count: int) -> int:
    if workload.parallelism == "independent":
        return 1
    return gpu_count // (workload.tp_degree * workload.pp_degree)


def model_state_bytes(workload: Workload, gpu_count: int) -> ModelStates:
    """Weights, gradients and optimizer state per GPU.

    Source: ZeRO (arXiv:1910.02054) §5, Table 1: Pos divides optimizer state by Nd,
    Pos+g also gradients, Pos+g+p also parameters (FSDP full shard = ZeRO-3);
    tensor parallelism divides all by t (Megatron-LM, Shoeybi et al. 2019), pipeline
    parallelism by its stages (each holds 1/p of the layers; Narayanan et al. 2021).
    CPU offload moves optimizer state (and with ZeRO-2/3 gradients, with ZeRO-3
    parameters) to host memory (ZeRO-Offload, Ren et al. 2021).
    """
    arch, task = workload.architecture, workload.task
    p_total = float(arch.params_total)
    dp = data_parallel_degree(workload, gpu_count)
    mixed = workload.precision in _MIXED
    if task == "training":
        weights = p_total * (2.0 if mixed else 4.0)
        trainable = p_total
        grad_b = 2.0 if mixed else 4.0
        if mixed and workload.master_weights == "none":
            # pure bf16: no fp32 master copy, and the states take the weights' dtype
            # (torchtune full fine-tune recipes, dtype bf16)
            opt_b = _OPTIMIZER_BYTES_BF16[workload.optimizer]
        else:
            opt_b = _OPTIMIZER_BYTES[workload.optimizer] + (4.0 if mixed else 0.0)
    elif task in ("lora", "qlora"):
        lora = workload.lora_settings
        trainable = workload.trainable_params
        dense = p_total - arch.embedding_params
        if task == "qlora":
            linear_b = NF4_DQ_BITS / 8.0 if lora.base_bits == 4 else 1.0
            weights = dense * linear_b + arch.embedding_params * 2.0
        else:
            weights = p_total * (2.0 if mixed else 4.0)
        weights += trainable * 4.0  # PEFT keeps adapters in fp32
        grad_b, opt_b = 4.0, _OPTIMIZER_BYTES[workload.optimizer]
    else:
        quant = _WEIGHT_BYTES[workload.precision]
        if workload.serving is not None and workload.precision in ("int8", "int4"):
            # the file names the quantised format: its bits with scales (nf4 4.5 = 4 + one
            # fp32 absmax per 64; nf4-dq 4.127; core.calc.inference.formats)
            quant = FORMATS[workload.serving.weights].bits / 8.0
        dense = p_total - arch.embedding_params
        weights = p_total * quant
        if workload.precision in ("fp8", "int8", "int4"):  # embeddings stay 16-bit (bitsandbytes)
            weights = dense * quant + arch.embedding_params * 2.0
        trainable, grad_b, opt_b = 0.0, 0.0, 0.0
    share = pipeline_stage_share(workload)
    layer_share = fullest_stage_layers(workload)  # adapters sit in the layers only
    trained_share = share if task == "training" else layer_share
    weights *= share / workload.tp_degree
    gradients = trainable * grad_b * trained_share / workload.tp_degree
    optimizer = trainable * opt_b * trained_share / workload.tp_degree
    stage = workload.parallelism
    if stage in ("zero1", "zero2", "zero3", "fsdp"):
        optimizer /= dp
    if stage in ("zero2", "zero3", "fsdp"):
        gradients /= dp
    if stage in ("zero3", "fsdp"):
        # one gathered layer + one prefetched (DeepSpeed ZeRO-3 gathers parameters per layer)
        working_set = 2.0 * weights / arch.layers if arch.layers and dp > 1 else 0.0
        weights = weights / dp + working_set
    if workload.optimizer_in_backward and workload.trains and arch.layers:
        # each layer's gradients are applied and freed as the backward produces them
        # (torchtune optimizer_in_bwd): one layer's, and the next being computed
        gradients = 2.0 * gradients / arch.layers
    if workload.offloads_optimizer:
        optimizer = 0.0
    if workload.cpu_offload:
        if stage in ("zero2", "zero3", "fsdp"):
            gradients = 0.0
        if stage in ("zero3", "fsdp") or task == "inference":
            weights = 2.0 * weights / arch.layers if arch.layers else weights
    return ModelStates(weights, gradients, optimizer)


def pipeline_stage_share(workload: Workload) -> float:
    """Share of the model's parameters on the fullest pipeline stage: its 1/p of the layers
    plus a vocabulary matrix (V x h): the first stage holds the token embedding, the last
    the output layer, or a copy of the tied embedding (Megatron-LM keeps the shared word
    embeddings on both ends of the pipeline; Shoeybi et al. 2019, Narayanan et al. 2021).
    1 without a pipeline."""
    arch = workload.architecture
    if workload.pp_degree <= 1 or not arch.params_total:
        return 1.0
    total, embed = float(arch.params_total), float(arch.embedding_params)
    vocab = float(arch.vocab_size or 0) * float(arch.hidden_size or 0)
    return min(1.0, ((total - embed) * fullest_stage_layers(workload) + min(embed, vocab)) / total)


def fullest_stage_layers(workload: Workload) -> float:
    """Share of the layers on the fullest pipeline GPU: each of its v chunks holds whole
    layers, ceil(L / (p v)) of them, so an uneven split (126 layers over 8 x 8 chunks)
    puts 2 x 8 = 16 layers, not 15.75, on some GPU. 1 without a pipeline."""
    layers, p = workload.architecture.layers, workload.pp_degree
    if p <= 1 or not layers:
        return 1.0
    v = workload.pp_virtual_stages
    return min(1.0, math.ceil(layers / (p * v)) * v / layers)


def transformer_layer_activation_bytes(workload: Workload) -> float:
    """Stored activations of one transformer layer for the whole micro-batch, per GPU.

    Korthikanti et al. 2022 (arXiv:2205.05198) §4.1, restated per element: LayerNorm
    inputs 2h, QKV input h, MLP input h (replicated under TP, 4h values) plus dropout
    masks 2h bytes; Q, K, V, projection input (sharded over t) and the MLP interior
    (GeLU/ReLU: 2f values; SwiGLU: 4f); softmax output a*s per token and, with dropout,
    its mask (1 B) and output. With B = 2, f = 4h, GQA off this is the paper's
    sbh(10 + 24/t + 5as/(ht)). Selective recompute (or flash attention) drops the a*s
    terms; full recompute keeps the 2sbh layer input (Table 2) - the recomputed layer
    is added once by ``activation_bytes``.
    """
    arch = workload.architecture
    h, a = float(arch.hidden_size or 0), float(arch.heads or 0)
    hd = float(arch.resolved_head_dim or 0)
    kv = float(arch.resolved_kv_heads or 0)
    f = float(arch.ffn_hidden_size or 4 * h)
    s, b, t, by = (
        float(workload.tokens_per_sequence),
        float(workload.batch_size),
        workload.tp_degree,
        act_bytes(workload),
    )
    experts = float(arch.experts_per_token or 1)
    drop = 1.0 if arch.dropout else 0.0
    mlp = (4.0 if arch.mlp == "swiglu" else 2.0) * f * experts
    replicated = 4.0 * h * by + 2.0 * h * drop
    sharded = ((2.0 * a * hd + 2.0 * kv * hd) + mlp) * by
    if workload.task == "qlora" and workload.stack != "unsloth":
        # bitsandbytes' 4-bit product keeps its input for the backward although its weight
        # is frozen (MatMul4Bit.forward: ``ctx.tensors = (A, B)`` whenever the input needs
        # a gradient); torch's linear with a frozen weight keeps none. Over LoRA's count:
        # the inputs of the QKV, output, MLP and down products, 3h + f values per token.
        # Unsloth runs its own LoRA kernels instead (fast_lora.py LoRA_MLP keeps X, e, g).
        replicated += 3.0 * h * by
        sharded += f * experts * by
    per_token = replicated + sharded / t
    attention = 0.0
    eager = arch.attention_impl == "eager" and not STACKS[workload.stack].flash_attention
    if eager and workload.checkpointing == "none":
        attention = a * s * (by + drop * (by + 1.0)) / t
    return s * b * (per_token + attention)


def _unchecked_layer_bytes(workload: Workload) -> float:
    """One layer's activations without checkpointing: what a layer being recomputed (or
    reloaded from host RAM) holds at once in the backward."""
    return transformer_layer_activation_bytes(workload.model_copy(update={"checkpointing": "none"}))


LOSS_CHUNKS = 8
"""Chunks of a chunked cross-entropy (torchtune ``CEWithChunkedOutputLoss`` default
``num_output_chunks=8``)."""


def chunked_logit_bytes(workload: Workload) -> float:
    """Bytes per logit value (tokens × vocabulary) at the peak of a chunked loss.

    torchtune's ``CEWithChunkedOutputLoss`` computes the output projection chunk by chunk
    and ``F.cross_entropy(chunk.float(), labels)`` one chunk at a time: the 16-bit logits
    of every chunk stay for the backward; one chunk at a time holds its fp32 copy, its
    fp32 gradient and its 16-bit gradient (4 + 4 + 2 bytes over 8 chunks). Uncompiled,
    ``log_softmax`` also keeps each chunk's fp32 output for the backward (4 bytes); a
    compiled loss (``pytorch-compile``) saves only its 16-bit input and recomputes it.
    """
    kept = act_bytes(workload)
    if workload.stack != "pytorch-compile":
        kept += 4.0
    return kept + (4.0 + 4.0 + 2.0) / LOSS_CHUNKS


def activation_bytes(workload: Workload) -> float:
    """Activation memory per GPU for training, or the transient working set for inference.

    Transformers: ``transformer_layer_activation_bytes`` x L, plus the output logits
    4sbv/t bytes at 16 bit (Korthikanti et al. 2022 §4.3, scaled to the activation
    dtype). Other nets in training: the counted bytes saved for backward
    (``saved_activation_bytes_per_sample_fp32``, halved at 16 bit, see ``act_bytes``);
    without that count, and for inference, every forward output retained (counted
    ``activation_elements_per_sample``, an upper bound). Both scale linearly with
    sequence length or with resolution squared (convolution outputs scale with pixels).
    """
    arch = workload.architecture
    by, b = act_bytes(workload), float(workload.batch_size)
    if arch.is_transformer:
        s = float(workload.tokens_per_sequence)
        h, v = float(arch.hidden_size or 0), float(arch.vocab_size or 0)
        if not workload.trains:
            # Inference frees activations layer by layer: one layer's values + last-token logits.
            one = transformer_layer_activation_bytes(
                workload.model_copy(update={"checkpointing": "selective"})
            )
            return one + b * v * 4.0
        layer = transformer_layer_activation_bytes(workload)
        layers = float(arch.layers or 1)
        logits = 2.0 * by * s * b * v / workload.tp_degree if arch.lm_head else 0.0
        stack = STACKS[workload.stack]
        if stack.logit_bytes is not None and arch.lm_head:
            logits = stack.logit_bytes * s * b * v / workload.tp_degree
        if workload.chunked_loss and arch.lm_head:
            logits = chunked_logit_bytes(workload) * s * b * v / workload.tp_degree
        if stack.chunked_loss:
            logits = 0.0
        stored, working = layers * layer, 0.0
        if workload.offloads_activations:
            # the layer checkpoints wait in host RAM (host_ram_bytes); the GPU holds the
            # layer being recomputed and the checkpoint in flight
            full_layer = _unchecked_layer_bytes(workload)
            stored, working = 0.0, 2.0 * by * s * b * h / workload.tp_degree + full_layer
        elif workload.checkpointing == "full":
            stored, working = layers * by * s * b * h, _unchecked_layer_bytes(workload)
        elif workload.checkpointing == "op":
            # every block keeps its input, the attention output and every other product's
            # output; the backward recomputes the rest of one block at a time
            kept = by * s * b * checkpoint.saved_values_per_token(arch, workload.tp_degree)
            full_layer = _unchecked_layer_bytes(workload)
            stored, working = layers * kept, max(0.0, full_layer - kept)
        in_flight = first_stage_in_flight(
            workload.pp_degree, workload.pp_virtual_stages, workload.grad_accum_steps
        )
        share = fullest_stage_layers(workload)
        return pipeline_peak(workload.pp_degree, in_flight, share * stored, working, logits)
    saved = arch.saved_activation_bytes_per_sample_fp32
    if saved is not None and workload.trains and workload.checkpointing == "none":
        # counted fp32 bytes; 16-bit compute keeps them in 2 bytes (see act_bytes)
        return saved * _input_scale(workload) * (by / 4.0) * b
    elements = arch.activation_elements_per_sample
    if elements is None:
        raise InvalidWorkload(
            f"activation count of {workload.name} is unknown (not counted for this preset)"
        )
    if workload.checkpointing != "none":
        raise InvalidWorkload("gradient checkpointing is modelled for transformer layers only")
    return elements * _input_scale(workload) * by * b


def first_stage_in_flight(stages: int, chunks: int, micro_batches: int) -> float:
    """Micro-batches whose activations the first pipeline GPU holds at its peak, in units
    of all its layers. 1F1B: min(p, m) (Narayanan et al. 2021 §2.2). The interleaved
    schedule runs 2(p − 1) + (v − 1)p warm-up forwards of one chunk (1/v of the GPU's
    layers) and one more in the steady state, at most all m·v (Megatron-LM,
    ``megatron/core/pipeline_parallel/schedules.py``, the interleaved schedule's
    ``num_warmup_microbatches``): (1 + (p − 1)/(p v)) times 1F1B's p micro-batches."""
    p, v, m = max(stages, 1), max(chunks, 1), max(micro_batches, 1)
    if p <= 1:
        return 1.0
    if v <= 1:
        return float(min(p, m))
    return min(2 * (p - 1) + (v - 1) * p + 1, m * v) / v


def pipeline_peak(
    stages: int, in_flight: float, stage: float, working: float, logits: float
) -> float:
    """The fullest GPU of a pipeline. ``stage``: what one micro-batch keeps for the
    backward over one stage's layers (all of them without a pipeline); ``working``: the
    one layer being recomputed (or offloaded checkpoints in flight), on every stage.
    The first stage holds ``in_flight`` micro-batches (``first_stage_in_flight``); the
    last stage holds one micro-batch plus the logits."""
    if stages <= 1:
        return stage + working + logits
    return max(in_flight * stage + working, stage + working + logits)


def _input_scale(workload: Workload) -> float:
    """Activation size relative to the counted input: resolution squared for images
    (convolution outputs scale with pixel count), sequence length otherwise."""
    arch = workload.architecture
    if arch.image_resolution_px and workload.seq_len:
        return float((workload.seq_len / arch.image_resolution_px) ** 2)
    if arch.default_seq_len and workload.seq_len:
        return workload.seq_len / arch.default_seq_len
    return 1.0


def kv_cache_bytes(workload: Workload) -> float:
    """Decoder KV cache: 2 x L x n_kv x head_dim x (prompt + generated) x batch x bytes / t.

    Source: HF docs llm_tutorial_optimization.md §3.2 (MQA/GQA store n_kv heads);
    vLLM (arXiv:2309.06180) §3: OPT-13B needs 800 KB per token in fp16. The cache is
    kept in 16 bit even when weights are int8/int4 (4 bytes in fp32/tf32).
    """
    arch = workload.architecture
    if workload.task != "inference" or arch.kind != "decoder":
        return 0.0
    kv, hd, layers = arch.resolved_kv_heads or 0, arch.resolved_head_dim or 0, arch.layers or 0
    return (
        2.0
        * layers
        * kv
        * hd
        * workload.tokens_per_sequence
        * workload.batch_size
        * act_bytes(workload)
    ) / workload.tp_degree


def host_ram_bytes(workload: Workload, gpu_count: int) -> float:
    """Host RAM: weights staged on the CPU while loading, pinned input buffers, offloaded state.

    Each process stages its own copy of its weights in the checkpoint's 16/32-bit dtype
    (its 1/(t*p) share under tensor and pipeline parallelism, so n/(t*p) copies in all;
    one shared copy under ZeRO-3/FSDP); pinned buffers hold two batches per GPU
    (PyTorch DataLoader prefetch_factor default 2); CPU offload keeps fp32 optimizer
    state, master weights and gradients in host memory (ZeRO-Offload, Ren et al. 2021):
    one copy when ZeRO/FSDP shards it over the GPUs, one per data-parallel replica when
    not.
    """
    arch = workload.architecture
    load_b = 4.0 if workload.precision in ("fp32", "tf32") else 2.0
    if workload.parallelism in ("zero3", "fsdp"):
        copies = 1.0
    else:
        copies = gpu_count / (workload.tp_degree * workload.pp_degree)
    staged = copies * arch.params_total * load_b
    pinned = 2.0 * workload.batch_size * (arch.input_bytes_per_sample or 0.0) * gpu_count
    # Sharded optimizers (ZeRO, FSDP) offload 1/n each, one copy in all; every data-parallel
    # replica of a plain or independent run offloads its own (its 1/(t*p) per process).
    sharded = workload.parallelism in ("zero1", "zero2", "zero3", "fsdp")
    replicas = 1.0 if sharded else gpu_count / (workload.tp_degree * workload.pp_degree)
    offload = 0.0
    if workload.offloads_optimizer and workload.trains:
        state = _OPTIMIZER_BYTES[workload.optimizer] + 4.0 + 4.0
        offload = replicas * workload.trainable_params * state
    elif workload.cpu_offload:
        offload = arch.params_total * _WEIGHT_BYTES[workload.precision]
    if workload.offloads_activations and workload.trains and arch.is_transformer:
        offload += (
            float(arch.layers or 1)
            * workload.tokens_per_sequence
            * workload.batch_size
            * float(arch.hidden_size or 0)
            * act_bytes(workload)
            * gpu_count
            / workload.tp_degree
        )
    return staged + pinned + offload
