"""What each software stack fuses, and the few constants fitted per stack.

A stack changes three things in the roofline (``roofline.gpu_step_time``):

- **DRAM passes per activation element** of the elementwise and normalisation kernels:
  eager PyTorch runs each op as its own kernel (every op reads and writes its tensor);
  PyTorch 2.x fuses more (fused optimizers, cuDNN conv+bias+activation fusions,
  channels-last), ``torch.compile`` generates fused Triton kernels for whole chains,
  Transformer Engine and Unsloth ship hand-fused kernels. ``elementwise_factor`` scales
  the eager stack's fitted passes.
- **Attention memory traffic**: eager attention writes the s × s score matrix of every
  head to DRAM (scale, mask, softmax, dropout and their backward); PyTorch 2's
  ``scaled_dot_product_attention`` and the others use FlashAttention, whose traffic is
  linear in the sequence length (Dao et al. 2022, arXiv:2205.14135, §3: IO complexity
  O(N² d² / M) against Θ(N d + N²) for standard attention), so the score term is dropped.
- **Host dispatch**: the CPU launches every kernel (about 5–10 µs each from Python in
  eager PyTorch); it runs ahead of the GPU, so dispatch costs time only when the GPU's
  kernels are shorter than their launches. ``host_factor`` scales the eager stack's
  host time per layer (fewer, fused kernels); CUDA graphs (``torch.compile`` with
  ``mode="reduce-overhead"``, TensorRT) remove most of it.

Transformer Engine runs FP8 matrix products on GPUs with FP8 tensor cores when the
workload asks for fp8 (``compute_mode``); the others run fp8 requests at 16 bit.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.models.workload import Stack, Workload


@dataclass(frozen=True)
class StackPhysics:
    elementwise_factor: float
    """DRAM passes per activation element relative to eager PyTorch."""
    flash_attention: bool
    """Attention traffic linear in sequence length (no s × s scores in DRAM)."""
    host_factor: float
    """Host dispatch time per layer relative to eager PyTorch."""
    fused_optimizer: bool
    """The optimizer step is one fused kernel per parameter group (no per-tensor launches)."""
    basis: str
    """What the stack's constants were fitted on, in a user's words."""
    tensor_factor: float = 1.0
    """Matrix-product efficiency relative to the eager stack's fitted one (newer cuDNN and
    cuBLASLt kernels, fused epilogues); the result never exceeds the peak."""
    logit_bytes: float | None = None
    """Bytes per logit value (tokens × vocabulary) held at the loss's peak; ``None``:
    Korthikanti et al. 2022 §4.3's 2 × activation bytes (Megatron's fused vocab-parallel
    cross-entropy). Hugging Face models under plain PyTorch upcast the logits to fp32
    and keep the fp32 log-softmax and its gradient next to the 16-bit logits and their
    gradient: 2 + 4 + 4 + 4 + 2 = 16 (transformers ``LlamaForCausalLM.forward``:
    ``logits = logits.float()``; ``torch.nn.functional.cross_entropy``)."""
    chunked_loss: bool = False
    """The loss is computed without materialising the logits (Cut Cross-Entropy,
    Wijmans et al. 2024, arXiv:2411.09009, which Unsloth uses): no s × vocabulary
    tensor is kept."""
    tp_comm_overlap: bool = False
    """Tensor-parallel all-reduces run in pieces under the matrix products they feed
    (Transformer Engine userbuffers; NeMo's performance recipes turn it on:
    ``MegatronCommOverlapCallback(tp_comm_overlap=True)`` in
    ``nemo/collections/llm/recipes/gpt3_175b.py`` ``pretrain_performance_optimizations``),
    so only what outlasts the products is exposed."""
    channels_last: bool = True
    """Convnets run in the channels-last (NHWC) memory format, the layout cuDNN's 16-bit
    tensor-core convolutions use, so no tensor is transposed around them (PyTorch
    "Channels Last Memory Format" tutorial; timm's ``--channels-last``). Eager PyTorch
    keeps its NCHW default."""


STACKS: dict[Stack, StackPhysics] = {
    "pytorch-eager": StackPhysics(
        elementwise_factor=1.0,
        flash_attention=False,
        channels_last=False,
        host_factor=1.0,
        fused_optimizer=False,
        basis=(
            "fitted on 1,673 Lambda and NVIDIA DeepLearningExamples rows (eager PyTorch "
            "with autocast, 2019–2023)"
        ),
    ),
    "pytorch": StackPhysics(
        elementwise_factor=0.668,
        tensor_factor=1.447,
        flash_attention=True,
        host_factor=0.6,
        fused_optimizer=True,
        logit_bytes=16.0,
        basis=(
            "fitted on 76 published PyTorch 2 rows (timm training and inference on RTX "
            "3090/4090, torchtitan on A100): median error 10 %, estimates are rough"
        ),
    ),
    "pytorch-compile": StackPhysics(
        elementwise_factor=0.434,
        tensor_factor=1.6,
        flash_attention=True,
        host_factor=0.15,
        fused_optimizer=True,
        logit_bytes=16.0,
        basis=(
            "fitted on 24 published torch.compile rows (timm inference on RTX 4090): "
            "median error 6 %"
        ),
    ),
    "transformer-engine": StackPhysics(
        elementwise_factor=0.02,
        tensor_factor=1.041,
        flash_attention=True,
        host_factor=0.1,
        fused_optimizer=True,
        tp_comm_overlap=True,
        basis=(
            "fitted on 31 published NeMo / Megatron rows (H100), each run with its tensor- "
            "and pipeline-parallel layout: median error 11.3 %, leaving one publisher out "
            "6.0-18.6 % (context parallelism is run as data parallelism)"
        ),
    ),
    "unsloth": StackPhysics(
        elementwise_factor=0.45,
        flash_attention=True,
        host_factor=0.3,
        fused_optimizer=True,
        chunked_loss=True,
        basis="assumed (Triton-fused LoRA kernels); two published rows only",
    ),
}


TRANSFORMER_ONLY: tuple[Stack, ...] = ("transformer-engine", "unsloth")
"""Stacks whose fused kernels are transformer layers (Transformer Engine's ``TransformerLayer``
and linear/norm modules; Unsloth's Llama-family kernels): any other network runs under them
as plain PyTorch 2.x."""


def effective_stack(workload: Workload) -> Stack:
    """The stack whose physics times ``workload``: its own, except a transformer-only
    stack on another kind of network, which runs as ``pytorch``."""
    if workload.stack in TRANSFORMER_ONLY and not workload.architecture.is_transformer:
        return "pytorch"
    return workload.stack


def stack_basis(workload: Workload) -> str:
    """What the constants timing ``workload`` were fitted on, in a user's words (and why
    they are another stack's when the one asked for does not apply)."""
    used = effective_stack(workload)
    if used == workload.stack:
        return STACKS[used].basis
    return (
        f"{workload.stack} fuses transformer layers only, so {workload.name} runs as "
        f"{used}: {STACKS[used].basis}"
    )
