"""What every command shares: the one price-aware catalog, the money formatter, the
analysis settings options, and reading a build file."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from core.catalog import Catalog
from core.cli.types import number
from core.errors import RigForgeError, validation_message
from core.models.cost import CloudRate
from core.models.settings import AnalysisSettings, CircuitId
from core.models.workload import MasterWeights, Offload, Serving, Stack
from core.text.money import Money


@dataclass(frozen=True)
class Context:
    """The reference data one command run analyses with."""

    catalog: Catalog
    """The bundled catalog with the user's feed prices and overrides applied."""
    cloud_rates: tuple[CloudRate, ...]
    money: Money


def add_price_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", type=Path, help="price-feed cache directory")
    parser.add_argument("--overrides", type=Path, help="price overrides file")
    parser.add_argument(
        "--currency",
        default="USD",
        help="show money in this currency (ECB reference rates of the bundled table's day)",
    )


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--region",
        choices=get_args(CircuitId),
        help="mains circuit the machine plugs into (default: the file's, else us-120v-15a)",
    )
    parser.add_argument(
        "--utilization", type=number(0, 1), help="share of the year at full load, 0-1 (default 0.5)"
    )
    parser.add_argument(
        "--electricity-price",
        type=number(0, 10),
        help="electricity price per kWh in USD (default: US residential average, EIA 2024)",
    )


def priced_catalog(cache_dir: Path | None, overrides: Path | None) -> Catalog:
    """The price-aware catalog; what the user should know about their overrides (a named
    file that does not exist, each entry ignored and why) goes to standard error, so
    ``--json`` output stays clean."""
    import sys

    from core.prices.models import Rejection
    from core.prices.store import load_priced_catalog
    from core.text.cost import rejection_lines

    rejected: list[Rejection] = []
    notes: list[str] = []
    catalog = load_priced_catalog(cache_dir, overrides, rejected, notes)
    if overrides is not None and not overrides.exists():
        print(
            f"rigforge: note: the price overrides file {str(overrides)!r} does not exist; "
            "none applied",
            file=sys.stderr,
        )
    for line in [*notes, *rejection_lines(rejected, "price override ignored: ")]:
        print(f"rigforge: note: {line}", file=sys.stderr)
    return catalog


def load_context(args: argparse.Namespace) -> Context:
    """The price-aware catalog, cloud rates and money formatter, loaded once per run."""
    from core.prices.cloud import load_cloud_rates
    from core.prices.currency import load_currency_table

    catalog = priced_catalog(getattr(args, "cache_dir", None), getattr(args, "overrides", None))
    currency = str(getattr(args, "currency", "USD") or "USD").upper()
    try:
        money = Money(currency, load_currency_table())
    except ValueError as error:
        raise RigForgeError(str(error)) from None
    return Context(catalog, load_cloud_rates().rates, money)


def settings_from(args: argparse.Namespace, base: AnalysisSettings) -> AnalysisSettings:
    """``base`` (the file's settings) with the options the user gave on the command line."""
    update = {
        key: value
        for key, value in (
            ("circuit", getattr(args, "region", None)),
            ("utilization", getattr(args, "utilization", None)),
            ("electricity_usd_per_kwh", getattr(args, "electricity_price", None)),
        )
        if value is not None
    }
    try:
        return AnalysisSettings.model_validate(base.model_dump() | update)
    except ValidationError as error:
        raise RigForgeError(f"invalid option: {validation_message(error)}") from None


def add_recipe_arguments(parser: argparse.ArgumentParser) -> None:
    """Software stack and training-memory recipe options (``recipe_from``)."""
    group = parser.add_argument_group("software stack and training recipe")
    group.add_argument(
        "--stack",
        type=str.lower,
        choices=get_args(Stack),
        help="what runs the model and what it fuses (default: pytorch, i.e. PyTorch 2.x)",
    )
    group.add_argument(
        "--master-weights",
        choices=get_args(MasterWeights),
        help="none: pure bf16 training without fp32 master weights",
    )
    group.add_argument(
        "--optimizer-in-backward",
        action="store_true",
        help="step the optimizer per layer during the backward (gradients never all exist)",
    )
    group.add_argument(
        "--chunked-loss",
        action="store_true",
        help="cross-entropy upcast to fp32 one chunk of tokens at a time (torchtune's "
        "CEWithChunkedOutputLoss): less memory for the logits",
    )
    group.add_argument(
        "--offload",
        choices=get_args(Offload),
        help="keep activations and/or optimizer state in host RAM (costs PCIe time)",
    )


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--tp``, ``--pp``, ``--virtual-stages`` and ``--grad-accum`` (``parallel_from``)."""
    from core.cli.types import whole

    parser.add_argument("--tp", type=whole(1, 1024), help="tensor parallel degree")
    parser.add_argument(
        "--pp",
        type=whole(1, 1024),
        help="pipeline parallel stages (training): each GPU of a pipeline holds 1/PP of the layers",
    )
    parser.add_argument(
        "--virtual-stages",
        type=whole(1, 256),
        metavar="V",
        help="model chunks per pipeline GPU (interleaved schedule): the bubble shrinks V times",
    )
    parser.add_argument(
        "--grad-accum",
        type=whole(1, 100_000),
        metavar="M",
        help="micro-batches per optimizer step (gradient accumulation; a pipeline's "
        "bubble is spread over them)",
    )


def parallel_from(args: argparse.Namespace) -> dict[str, Any]:
    """Workload fields from the parallel options (only those given)."""
    fields = {
        "tp_degree": args.tp,
        "pp_degree": args.pp,
        "pp_virtual_stages": args.virtual_stages,
        "grad_accum_steps": args.grad_accum,
    }
    return {k: v for k, v in fields.items() if v is not None}


def with_recipe(preset: Any, task: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The settings a command makes its workload from: the common recipe for the
    preset's task, as the window starts from (LoRA of a decoder: 2,048-token sequences,
    full checkpointing; ``recipe_settings``), under the options given."""
    from core.workloads import recipe_settings

    return recipe_settings(preset, task) | {k: v for k, v in given.items() if v is not None}


def recipe_from(args: argparse.Namespace) -> dict[str, Any]:
    """Workload fields from the recipe options (only those given)."""
    fields: dict[str, Any] = {
        "stack": args.stack,
        "master_weights": args.master_weights,
        "offload": args.offload,
    }
    if args.optimizer_in_backward:
        fields["optimizer_in_backward"] = True
    if args.chunked_loss:
        fields["chunked_loss"] = True
    return {k: v for k, v in fields.items() if v is not None}


def note_offloaded_checkpointing(workload: Any, args: argparse.Namespace) -> None:
    """Say on standard error that ``--checkpointing`` does not apply when activations are
    offloaded: they are layer checkpoints, so every layer is recomputed in the backward
    (docs/memory-model.md)."""
    import sys

    asked = getattr(args, "checkpointing", None)
    if asked in (None, "full") or not workload.offloads_activations:
        return
    if not (workload.trains and workload.architecture.is_transformer):
        return
    print(
        f"rigforge: note: --offload {workload.offload} keeps each layer's input in host RAM "
        "and recomputes the layer in the backward, as full checkpointing does; "
        f"--checkpointing {asked} does not apply",
        file=sys.stderr,
    )


def lora_targets(text: str) -> tuple[str, ...]:
    """``--lora-targets``: comma-separated projection names, or ``all`` (every linear)."""
    from core.models.workload import ALL_LINEAR

    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if names == ["all"]:
        return ALL_LINEAR
    unknown = [n for n in names if n not in ALL_LINEAR]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give projections from {', '.join(ALL_LINEAR)} (comma-separated) or all"
        )
    return tuple(t for t in ALL_LINEAR if t in names)


def add_lora_arguments(parser: argparse.ArgumentParser) -> None:
    """``--lora-rank`` and ``--lora-targets`` (``with_lora``)."""
    from core.cli.types import whole

    parser.add_argument(
        "--lora-rank", type=whole(1, 4096), help="adapter rank (default 16; QLoRA 64)"
    )
    parser.add_argument(
        "--lora-targets",
        type=lora_targets,
        metavar="LIST",
        help="projections with adapters: q,k,v,o,gate,up,down or all (default q,v; QLoRA all)",
    )


def with_lora(workload: Any, args: argparse.Namespace) -> Any:
    """``workload`` with the adapters ``--lora-rank``/``--lora-targets`` ask for, over the
    task's default adapters (unchanged when neither is given)."""
    from core.models.workload import Workload, default_lora

    if args.lora_rank is None and args.lora_targets is None:
        return workload
    if workload.task not in ("lora", "qlora"):
        raise RigForgeError("--lora-rank and --lora-targets apply to --task lora or qlora")
    base = default_lora(workload.task)
    lora = {
        "rank": args.lora_rank or base.rank,
        "targets": args.lora_targets or base.targets,
        "base_bits": base.base_bits,
    }
    try:
        return Workload.model_validate({**dict(workload), "lora": lora})
    except ValidationError as error:
        raise RigForgeError(f"invalid option: {validation_message(error)}") from None


def add_serving_arguments(parser: argparse.ArgumentParser) -> None:
    """LLM serving options (with ``--task inference`` on a decoder model)."""
    from core.cli.types import whole
    from core.models.workload import Engine, KvFormat, Split, WeightsFormat

    group = parser.add_argument_group("LLM serving (--task inference)")
    group.add_argument(
        "--engine", type=str.lower, choices=get_args(Engine), help="default: llama.cpp"
    )
    group.add_argument(
        "--weights", type=str.lower, choices=get_args(WeightsFormat), help="default: f16"
    )
    group.add_argument(
        "--kv-cache", type=str.lower, choices=get_args(KvFormat), help="default: f16"
    )
    group.add_argument("--prompt-len", type=whole(1, 100_000_000), help="default: 512")
    group.add_argument("--gen-len", type=whole(1, 10_000_000), help="default: 128")
    group.add_argument("--streams", type=whole(1, 4096), help="concurrent sequences (1)")
    group.add_argument(
        "--split", type=str.lower, choices=get_args(Split), help="several GPUs (layer)"
    )
    group.add_argument(
        "--offload-gb", type=number(0, 100_000), help="weights kept in host RAM, GiB (0)"
    )
    group.add_argument(
        "--flash-attention",
        choices=("on", "off"),
        help="llama.cpp's fused attention (default on, as llama.cpp's -fa auto since "
        "August 2025); off: -fa off and older builds",
    )


def serving_from(args: argparse.Namespace, context: int | None = None) -> Serving:
    """The serving settings the options name (defaults for the others)."""
    fields = {
        "engine": args.engine,
        "weights": args.weights,
        "kv_cache": args.kv_cache,
        "prompt_len": args.prompt_len,
        "gen_len": args.gen_len,
        "streams": args.streams,
        "split": args.split,
        "offload_gib": args.offload_gb,
        "flash_attention": {"on": True, "off": False}.get(
            getattr(args, "flash_attention", None) or ""
        ),
    }
    serving = Serving(**{k: v for k, v in fields.items() if v is not None})
    if context is not None:  # the whole context: the prompt is what the output leaves
        gen = min(serving.gen_len, max(context - 1, 1))
        serving = serving.model_copy(update={"prompt_len": max(context - gen, 1), "gen_len": gen})
    return serving


def preset_from_arg(name: str) -> Any:
    """The workload preset ``--workload`` names: a preset name or alias, or the path of a
    Hugging Face ``config.json`` (read offline, its parameters counted)."""
    from core.models.workload import WorkloadPreset
    from core.workloads import find_preset, load_hf_config

    if not name.endswith(".json"):
        return find_preset(name)
    return WorkloadPreset(
        id="custom",
        name=name,
        architecture=load_hf_config(name),
        sources={
            "params_total": "counted from config.json",
            "forward_flops_per_sample": "Kaplan 2N + attention",
        },
    )
