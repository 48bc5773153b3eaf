"""Every workload and build setting a user edits, declared once.

Each ``Field`` says what the setting is called, its unit and range, the file key it is
stored under, the CLI flag that sets it, its help text and the rules that say when it
applies. The window's editors make their widgets from it, the commands their options
(``core.cli.options``), the PDF its workload rows, and undo its words; ``changes``
holds the rules that move other settings with one (a task's adapters, an engine's
weights format, a pipeline's chunks) so every front end applies them alike.

Adding a setting: a field on the model (``core.models.workload`` or ``build``), a row
here, the calculation that reads it, and tests (``docs/architecture.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from core.models.build import MAX_GPUS, Build
from core.models.system import Backend
from core.models.workload import (
    ALL_LINEAR,
    MAX_BATCH,
    Checkpointing,
    Engine,
    KvFormat,
    MasterWeights,
    Offload,
    Optimizer,
    Parallelism,
    Precision,
    Speculative,
    Split,
    Stack,
    Task,
    WeightsFormat,
    Workload,
    lora_for_task,
)

Kind = Literal["choice", "whole", "number", "switch"]

DRAFT_MODELS = ("auto", "llama-3.2-1b", "llama-3.2-3b", "qwen3-0.6b", "qwen3-1.7b", "qwen3-8b")
"""Draft models offered: small presets of the families people pair them with."""


@dataclass(frozen=True)
class Rule:
    """When a setting applies, and what the user is told when it does not."""

    test: Callable[[Any], bool]
    why_not: str


def _training(w: Workload) -> bool:
    return w.task != "inference"


TRAINING = Rule(_training, "applies to training and fine-tuning, not inference")
NOT_SERVING = Rule(
    lambda w: not w.is_serving,
    "a served LLM sets this in Serving the LLM (streams, weights format, split)",
)
SERVING = Rule(lambda w: w.is_serving, "applies to serving an LLM (inference of a decoder)")
ADAPTERS = Rule(lambda w: w.task in ("lora", "qlora"), "applies to LoRA and QLoRA")
TRANSFORMER = Rule(
    lambda w: w.architecture.is_transformer, "applies to transformer models (layers to split)"
)
NOT_IMAGES = Rule(
    lambda w: w.architecture.input_kind != "image", "an image model has no sequence length"
)
CHECKPOINTS = Rule(
    lambda w: not (w.offloads_activations and w.architecture.is_transformer),
    "offloaded activations are layer checkpoints: every layer is recomputed in the "
    "backward, as with full checkpointing",
)
PIPELINE = Rule(lambda w: w.pp_degree > 1, "applies with two or more pipeline stages")
VOCABULARY = Rule(
    lambda w: bool(w.architecture.lm_head and w.architecture.vocab_size),
    "applies to a model with a language-model head (a vocabulary)",
)
LLAMA_CPP = Rule(
    lambda w: w.serving_settings.engine == "llama.cpp",
    "only llama.cpp has a choice: the other engines always fuse attention",
)
MOE_ON_LLAMA_CPP = Rule(
    lambda w: bool(w.architecture.num_experts) and w.serving_settings.engine == "llama.cpp",
    "applies to a mixture-of-experts model served by llama.cpp (--n-cpu-moe)",
)
SPECULATING = Rule(
    lambda w: w.serving_settings.speculative != "none", "choose a speculative method first"
)
DRAFTING = Rule(
    lambda w: w.serving_settings.speculative == "draft", "applies to a draft model's drafts"
)
TARGET_SET = Rule(lambda w: w.target is not None, "choose epochs or tokens first")
BRIDGED_CARDS = Rule(
    lambda b: b.gpu.nvlink_topology == "bridge_pair" and b.gpu_count >= 2,
    "NVLink bridges join pairs of cards that take them",
)


@dataclass(frozen=True)
class Field:
    """One setting: what it is called, its values, where it is stored and set."""

    key: str
    """File key: the model field, dotted inside a block (``serving.prompt_len``)."""
    label: str
    """Its name in the user's words (editor label, undo text, PDF row)."""
    kind: Kind
    help: str
    choices: tuple[str, ...] = ()
    low: float = 0
    high: float = 0
    unit: str = ""
    """Shown after the value (" GiB", " W")."""
    special: str | None = None
    """What the lowest value shows instead of the number ("no pipeline")."""
    unset: bool = False
    """The lowest value means "not set": ``None`` in the file."""
    flag: str | None = None
    """The command-line option that sets it (``None``: not on the command line)."""
    cli_style: Literal["value", "on_off", "store_true"] = "value"
    applies: tuple[Rule, ...] = ()
    decimals: int = 0
    step: float = 1

    @property
    def name(self) -> str:
        """The last part of the key (``prompt_len``)."""
        return self.key.rsplit(".", 1)[-1]

    @property
    def block(self) -> str | None:
        """``serving``, ``lora`` or ``target`` for a field inside a block."""
        return self.key.split(".", 1)[0] if "." in self.key else None

    def text(self, value: Any) -> str:
        """The value as a user reads it: "on", "512 tokens", "none"."""
        if isinstance(value, bool):
            return "on" if value else "off"
        if value is None or (self.special is not None and value == self.low):
            return self.special or "none"
        if isinstance(value, tuple):
            return ", ".join(value)
        if isinstance(value, float):
            shown = f"{value:,.0f}" if value.is_integer() else f"{value:,g}"
        elif isinstance(value, int):
            shown = f"{value:,}"
        else:
            shown = str(value)
        return shown + self.unit


LORA_TARGET_CHOICES: dict[str, tuple[str, ...]] = {
    "q, v": ("q", "v"),
    "q, k, v": ("q", "k", "v"),
    "q, k, v, o": ("q", "k", "v", "o"),
    "all linear": ALL_LINEAR,
}
"""The adapter sets offered by name (LoRA's usual q, v up to QLoRA's every linear)."""

TARGET_KINDS = ("none", "epochs", "tokens")

WORKLOAD_FIELDS: tuple[Field, ...] = (
    Field(
        "task",
        "task",
        "choice",
        "Full training, LoRA/QLoRA fine-tuning, or inference",
        choices=get_args(Task),
        flag="--task",
    ),
    Field(
        "precision",
        "precision",
        "choice",
        "Compute precision (fp16/bf16 = mixed precision)",
        choices=get_args(Precision),
        flag="--precision",
        applies=(NOT_SERVING,),
    ),
    Field(
        "serving.engine",
        "engine",
        "choice",
        "Inference engine (its kernels and memory reservation); default llama.cpp",
        choices=get_args(Engine),
        flag="--engine",
        applies=(SERVING,),
    ),
    Field(
        "serving.weights",
        "weights format",
        "choice",
        "Weights format (bits per weight); formats the engine does not load cannot be picked",
        choices=get_args(WeightsFormat),
        flag="--weights",
        applies=(SERVING,),
    ),
    Field(
        "serving.kv_cache",
        "KV cache",
        "choice",
        "KV-cache precision",
        choices=get_args(KvFormat),
        flag="--kv-cache",
        applies=(SERVING,),
    ),
    Field(
        "serving.split",
        "split over GPUs",
        "choice",
        "Several GPUs: layers in sequence on the cards, or every layer split over them",
        choices=get_args(Split),
        flag="--split",
        applies=(SERVING,),
    ),
    Field(
        "serving.prompt_len",
        "prompt length",
        "whole",
        "Tokens of the prompt (default 512)",
        low=1,
        high=100_000_000,
        unit=" tokens",
        flag="--prompt-len",
        applies=(SERVING,),
    ),
    Field(
        "serving.gen_len",
        "output length",
        "whole",
        "Tokens each stream generates (default 128)",
        low=1,
        high=10_000_000,
        unit=" tokens",
        flag="--gen-len",
        applies=(SERVING,),
    ),
    Field(
        "serving.streams",
        "streams",
        "whole",
        "Concurrent streams: users served at once (default 1)",
        low=1,
        high=4096,
        unit=" streams",
        flag="--streams",
        applies=(SERVING,),
    ),
    Field(
        "serving.offload_gib",
        "weights offloaded",
        "number",
        "Weights kept in host RAM and computed by the CPU, GiB (default 0)",
        low=0,
        high=100_000,
        unit=" GiB",
        flag="--offload-gb",
        applies=(SERVING,),
        decimals=1,
    ),
    Field(
        "serving.n_cpu_moe",
        "experts in RAM",
        "whole",
        "Mixture-of-experts models on llama.cpp: the routed experts of the first N layers "
        "stay in host RAM and run on the CPU (--n-cpu-moe N; default 0, all on the GPUs). "
        "Per token the CPU reads only the experts the token uses, at the host's memory "
        "bandwidth.",
        low=0,
        high=100_000,
        unit=" layers",
        flag="--n-cpu-moe",
        applies=(SERVING, MOE_ON_LLAMA_CPP),
    ),
    Field(
        "serving.offload_to_fit",
        "offload to fit",
        "switch",
        "Keep in host RAM just what does not fit on each build's GPUs (llama.cpp's --fit): "
        "the experts of the fewest first layers of an MoE model, else the fewest GiB of "
        "weights",
        flag="--offload-to-fit",
        cli_style="store_true",
        applies=(SERVING, LLAMA_CPP),
    ),
    Field(
        "serving.speculative",
        "speculative decoding",
        "choice",
        "Draft tokens and verify them in one step: a small draft model, the model's own "
        "multi-token-prediction heads (mtp) or n-gram lookup in the context (default none)",
        choices=get_args(Speculative),
        flag="--speculative",
        applies=(SERVING,),
    ),
    Field(
        "serving.draft_model",
        "draft model",
        "choice",
        "The draft model (auto: one about a tenth of the model's size)",
        choices=DRAFT_MODELS,
        special="auto",
        flag="--draft-model",
        applies=(SERVING, DRAFTING),
    ),
    Field(
        "serving.draft_tokens",
        "draft tokens",
        "whole",
        "Tokens drafted per step (auto: llama.cpp's --draft-max 16 for a draft model, 1 "
        "for MTP, 4 for n-gram)",
        low=0,
        high=64,
        special="auto",
        unset=True,
        flag="--draft-tokens",
        applies=(SERVING, SPECULATING),
    ),
    Field(
        "serving.acceptance",
        "acceptance",
        "number",
        "Chance a drafted token is accepted, 0-1 (auto: the method's published median)",
        low=0,
        high=0.99,
        special="auto",
        unset=True,
        flag="--acceptance",
        applies=(SERVING, SPECULATING),
        decimals=2,
        step=0.05,
    ),
    Field(
        "serving.engine_build",
        "engine build",
        "choice",
        "Which llama.cpp build: current (May 2024 and later kernels) or 2023-12 (the "
        "December 2023 ./main, whose prompt kernels were slower on data-centre GPUs)",
        choices=("current", "2023-12"),
        special="current",
        flag="--engine-build",
        applies=(SERVING, LLAMA_CPP),
    ),
    Field(
        "serving.backend",
        "backend",
        "choice",
        "GPU software the engine runs on (auto: the GPU maker's own — CUDA, ROCm, SYCL, "
        "Metal; Vulkan also runs on AMD and Intel cards, MLX on Macs with the mlx-lm engine)",
        choices=("auto", *get_args(Backend)),
        special="auto",
        flag="--backend",
        applies=(SERVING,),
    ),
    Field(
        "serving.flash_attention",
        "flash attention",
        "switch",
        "llama.cpp's fused attention (-fa; on by default since August 2025). Off: the "
        "prompt's score matrix goes through memory and generation re-reads the KV cache, "
        "slower at long context. The other engines always fuse attention.",
        flag="--flash-attention",
        cli_style="on_off",
        applies=(SERVING, LLAMA_CPP),
    ),
    Field(
        "stack",
        "software stack",
        "choice",
        "Software that runs the model: plain PyTorch (eager or default), torch.compile, "
        "Transformer Engine or Unsloth; the more it fuses, the faster it runs "
        "(default pytorch, i.e. PyTorch 2.x)",
        choices=get_args(Stack),
        flag="--stack",
        applies=(NOT_SERVING,),
    ),
    Field(
        "batch_size",
        "batch",
        "whole",
        "Per-GPU micro-batch size",
        low=1,
        high=MAX_BATCH,
        flag="--batch",
        applies=(NOT_SERVING,),
    ),
    Field(
        "seq_len",
        "sequence length",
        "whole",
        "Tokens per sequence (default: the model's; LoRA/QLoRA of a decoder: 2,048)",
        low=0,
        high=100_000_000,
        special="model default",
        unset=True,
        flag="--seq-len",
        applies=(NOT_SERVING, NOT_IMAGES),
    ),
    Field(
        "optimizer",
        "optimizer",
        "choice",
        "Optimizer (sets optimizer-state bytes per parameter)",
        choices=get_args(Optimizer),
        flag="--optimizer",
        applies=(TRAINING,),
    ),
    Field(
        "checkpointing",
        "activation checkpointing",
        "choice",
        "Activation (gradient) checkpointing: full recomputes the forward in the backward "
        "(default none; LoRA/QLoRA of a decoder: full)",
        choices=get_args(Checkpointing),
        flag="--checkpointing",
        applies=(TRAINING, CHECKPOINTS),
    ),
    Field(
        "lora.rank",
        "LoRA rank",
        "whole",
        "LoRA/QLoRA adapter rank r (default 16; QLoRA 64)",
        low=1,
        high=4096,
        unit=" rank",
        flag="--lora-rank",
        applies=(ADAPTERS,),
    ),
    Field(
        "lora.targets",
        "LoRA targets",
        "choice",
        "Projections that get adapters: the attention's q and v (LoRA's usual), all four "
        "attention projections, or every linear layer (QLoRA's usual); on the command "
        "line q,k,v,o,gate,up,down (comma-separated) or all",
        choices=tuple(LORA_TARGET_CHOICES),
        flag="--lora-targets",
        applies=(ADAPTERS,),
    ),
    Field(
        "master_weights",
        "master weights",
        "choice",
        "fp32: keep an fp32 copy of the weights for the optimizer (usual mixed precision); "
        "none: train the bf16/fp16 weights directly, which needs less memory",
        choices=get_args(MasterWeights),
        flag="--master-weights",
        applies=(TRAINING,),
    ),
    Field(
        "offload",
        "offload",
        "choice",
        "Keep activations, optimizer state or both in the computer's RAM: less GPU memory, "
        "but slower (copied over PCIe)",
        choices=get_args(Offload),
        flag="--offload",
        applies=(TRAINING,),
    ),
    Field(
        "parallelism",
        "parallelism",
        "choice",
        "How the GPUs share the work",
        choices=get_args(Parallelism),
        flag="--parallelism",
        applies=(TRAINING,),
    ),
    Field(
        "tp_degree",
        "tensor parallel",
        "whole",
        "Tensor-parallel degree",
        low=1,
        high=1024,
        flag="--tp",
        applies=(NOT_SERVING,),
    ),
    Field(
        "pp_degree",
        "pipeline stages",
        "whole",
        "Pipeline-parallel stages: each GPU of a pipeline holds that share of the layers; "
        "the stages wait while the pipeline fills and drains (the pipeline bubble)",
        low=1,
        high=1024,
        unit=" stages",
        special="no pipeline",
        flag="--pp",
        applies=(TRAINING, TRANSFORMER),
    ),
    Field(
        "pp_virtual_stages",
        "virtual stages",
        "whole",
        "Model chunks per pipeline GPU (interleaved schedule, Megatron's virtual pipeline): "
        "the bubble shrinks by this factor",
        low=1,
        high=256,
        unit=" chunks",
        special="1 chunk",
        flag="--virtual-stages",
        applies=(TRAINING, PIPELINE),
    ),
    Field(
        "grad_accum_steps",
        "gradient accumulation",
        "whole",
        "Micro-batches per optimizer step (gradient accumulation): gradients are exchanged "
        "once per step, and a pipeline's bubble is spread over them",
        low=1,
        high=100_000,
        unit=" micro-batches",
        special="1 micro-batch",
        flag="--grad-accum",
        applies=(TRAINING,),
    ),
    Field(
        "optimizer_in_backward",
        "optimizer in backward",
        "switch",
        "Update each layer as soon as its gradients are ready, so the gradients of the "
        "whole model are never in memory at once",
        flag="--optimizer-in-backward",
        cli_style="store_true",
        applies=(TRAINING,),
    ),
    Field(
        "chunked_loss",
        "chunked loss",
        "switch",
        "Compute the cross-entropy one chunk of tokens at a time (torchtune's chunked "
        "output loss), so the fp32 copy of the logits is never whole",
        flag="--chunked-loss",
        cli_style="store_true",
        applies=(TRAINING, TRANSFORMER, VOCABULARY),
    ),
    Field(
        "cpu_offload",
        "ZeRO offload",
        "switch",
        "ZeRO-Offload: optimizer state and parameters in CPU memory (ZeRO or FSDP)",
        flag="--zero-offload",
        cli_style="store_true",
        applies=(TRAINING,),
    ),
    Field(
        "dataset_samples",
        "dataset",
        "whole",
        "Samples in the dataset (0 = unknown)",
        low=0,
        high=10**15,
        unit=" samples",
        special="unknown",
        unset=True,
        flag="--dataset-samples",
        applies=(TRAINING,),
    ),
    Field(
        "bytes_per_sample",
        "bytes per sample",
        "number",
        "Bytes read per sample (0 = the model's default)",
        low=0,
        high=1e13,
        unit=" B/sample",
        special="model default",
        unset=True,
        flag="--bytes-per-sample",
        applies=(TRAINING,),
    ),
    Field(
        "target.kind",
        "target",
        "choice",
        "Training target: epochs over the dataset, or tokens",
        choices=TARGET_KINDS,
        applies=(TRAINING,),
    ),
    Field(
        "target.value",
        "target amount",
        "number",
        "Epochs, or tokens, to train for",
        low=0,
        high=1e18,
        applies=(TRAINING, TARGET_SET),
        decimals=1,
    ),
)

BUILD_FIELDS: tuple[Field, ...] = (
    Field(
        "gpu_count",
        "GPU count",
        "whole",
        "Number of GPUs (1–8 in a tower, more in servers)",
        low=1,
        high=MAX_GPUS,
    ),
    Field(
        "gpu_power_limit_w",
        "GPU power limit",
        "whole",
        "Per-GPU power limit; 0 runs at board power",
        low=0,
        high=1500,
        unit=" W",
        special="no power limit",
        unset=True,
        step=10,
    ),
    Field(
        "nvlink_bridges",
        "NVLink bridges",
        "whole",
        "NVLink bridges, each joining a pair of cards",
        low=0,
        high=MAX_GPUS // 2,
        applies=(BRIDGED_CARDS,),
    ),
    Field("memory_kits", "memory kits", "whole", "Memory kits of this model", low=1, high=16),
    Field("psu_count", "PSU count", "whole", "Power supplies", low=1, high=4),
)

_BY_KEY = {f.key: f for f in (*WORKLOAD_FIELDS, *BUILD_FIELDS)}


def field(key: str) -> Field:
    """The field stored under ``key``."""
    return _BY_KEY[key]


def applies(f: Field, subject: Any) -> bool:
    """Whether ``f`` means anything for this workload (or build)."""
    return all(rule.test(subject) for rule in f.applies)


def why_not(f: Field, subject: Any) -> str | None:
    """Why ``f`` does not apply to ``subject``, in the user's words (``None`` if it does)."""
    return next((rule.why_not for rule in f.applies if not rule.test(subject)), None)


def targets_label(targets: tuple[str, ...]) -> str:
    """The targets' name when offered by name ("q, v"), else the projections listed."""
    for label, names in LORA_TARGET_CHOICES.items():
        if set(names) == set(targets):
            return label
    return ", ".join(targets)


def read(f: Field, w: Workload) -> Any:
    """The value ``f`` shows for workload ``w``: a choice's text, a number (the lowest
    where ``unset``), or a switch's state."""
    if f.block == "serving":
        value = getattr(w.serving_settings, f.name)
        if value is None:
            return f.special if f.kind == "choice" else f.low
        return value
    if f.key == "lora.rank":
        return w.lora_settings.rank
    if f.key == "lora.targets":
        return targets_label(w.lora_settings.targets)
    if f.key == "target.kind":
        if w.target is None:
            return "none"
        return "epochs" if w.target.epochs is not None else "tokens"
    if f.key == "target.value":
        return 0.0 if w.target is None else (w.target.epochs or w.target.tokens or 0.0)
    value = getattr(w, f.key)
    return f.low if value is None and f.unset else value


def read_build(f: Field, b: Build) -> Any:
    value = getattr(b, f.key)
    return f.low if value is None and f.unset else value


def stored(f: Field, value: Any) -> Any:
    """What the file stores for a shown value: ``None`` for the lowest of an ``unset``
    field, the adapters for a targets label, else the value."""
    if f.unset and value is not None and value == f.low:
        return None
    if f.kind == "choice" and f.special is not None and value == f.special:
        return None
    if f.key == "lora.targets" and isinstance(value, str):
        return LORA_TARGET_CHOICES.get(value) or tuple(t.strip() for t in value.split(","))
    return value


def changes(f: Field, w: Workload, value: Any) -> dict[str, Any]:
    """The workload update that sets ``f`` to ``value``, with the settings that follow it:
    a new task keeps the adapters at the base precision it needs (QLoRA 4-bit); a new
    engine loads the nearest weights format it supports; one pipeline stage has no
    virtual chunks; a target amount is kept positive."""
    value = stored(f, value)
    if f.block == "serving":
        serving = w.serving_settings.model_dump() | {f.name: value}
        if f.name == "engine":
            from core.calc.inference.formats import nearest_weights

            serving["weights"] = nearest_weights(str(value), serving["weights"])
        return {"serving": serving}
    if f.block == "lora":
        return {"lora": w.lora_settings.model_dump() | {f.name: value}}
    if f.block == "target":
        kind = read(field("target.kind"), w) if f.name == "value" else value
        amount = float(value if f.name == "value" else read(field("target.value"), w) or 0.0)
        if kind == "none":
            return {"target": None}
        if amount <= 0:
            amount = 1.0 if kind == "epochs" else 1e9
        return {"target": {kind: amount}}
    update: dict[str, Any] = {f.key: value}
    if f.key == "task" and w.lora is not None:
        update["lora"] = lora_for_task(w.lora, str(value)).model_dump()
    if f.key == "pp_degree" and value == 1:
        update["pp_virtual_stages"] = 1
    return update


def build_changes(f: Field, b: Build, value: Any) -> dict[str, Any]:
    """The build update that sets ``f`` to ``value``: fewer cards keep no more bridges than
    they have pairs."""
    value = stored(f, value)
    if f.key == "gpu_power_limit_w" and value is not None:
        value = float(value)
    update: dict[str, Any] = {f.key: value}
    if f.key == "gpu_count":
        update["nvlink_bridges"] = min(b.nvlink_bridges, int(value) // 2)
    return update


def edit_words(f: Field, value: Any) -> str:
    """ "Set GPU count to 3": one edit in the user's words (undo, status bar)."""
    return f"Set {f.label} to {f.text(value)}"


def workload_rows(w: Workload) -> list[tuple[str, str]]:
    """(label, value) of every setting that applies to ``w``, in the editor's order: the
    build sheet's workload table."""
    rows = []
    for f in WORKLOAD_FIELDS:
        if f.key == "target.value" or not applies(f, w):
            continue
        if f.key == "target.kind":
            rows.append(("Target", _target_text(w)))
            continue
        value = read(f, w)
        rows.append((f.label[0].upper() + f.label[1:], f.text(value)))
    return rows


def _target_text(w: Workload) -> str:
    if w.target is None:
        return "none"
    if w.target.epochs is not None:
        return f"{w.target.epochs:g} epochs"
    return f"{w.target.tokens:,.0f} tokens"
