"""The workload options every command shares, made from ``core.fields``, and the one path
from options to a workload (``workload_from``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pydantic import ValidationError

from core.cli.types import number, whole
from core.errors import RigForgeError, validation_message
from core.fields import WORKLOAD_FIELDS, Field, changes, stored
from core.models.workload import ALL_LINEAR, Workload

GROUPS = {"serving": "LLM serving (--task inference)", "lora": "LoRA / QLoRA adapters"}


def dest(f: Field) -> str:
    """The attribute an option's value lands on (``--kv-cache`` -> ``kv_cache``)."""
    assert f.flag is not None
    return f.flag.lstrip("-").replace("-", "_")


def lora_targets(text: str) -> tuple[str, ...]:
    """``--lora-targets``: comma-separated projection names, or ``all`` (every linear)."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if names == ["all"]:
        return ALL_LINEAR
    unknown = [n for n in names if n not in ALL_LINEAR]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give projections from {', '.join(ALL_LINEAR)} (comma-separated) or all"
        )
    return tuple(t for t in ALL_LINEAR if t in names)


def add_workload_options(parser: argparse.ArgumentParser, *, skip: tuple[str, ...] = ()) -> None:
    """One option per workload field with a flag (``core.fields.WORKLOAD_FIELDS``), with the
    field's range and help; ``skip`` leaves out the named keys."""
    groups: dict[str | None, Any] = {None: parser}
    for f in WORKLOAD_FIELDS:
        if f.flag is None or f.key in skip:
            continue
        block = f.block if f.block in GROUPS else None
        if block is not None and block not in groups:
            groups[block] = parser.add_argument_group(GROUPS[block])
        _add(groups[block], f)
    if "serving.prompt_len" not in skip:
        groups.setdefault("serving", parser.add_argument_group(GROUPS.get("serving", "serving")))
        groups["serving"].add_argument(
            "--context",
            type=whole(2, 100_000_000),
            help="Tokens in the cache at the end (prompt + output): the prompt is this less "
            "the output length",
        )


def _add(group: Any, f: Field) -> None:
    assert f.flag is not None
    if f.cli_style == "store_true":
        group.add_argument(f.flag, action="store_true", help=f.help)
    elif f.cli_style == "on_off":
        group.add_argument(f.flag, choices=("on", "off"), help=f.help)
    elif f.key == "lora.targets":
        group.add_argument(f.flag, type=lora_targets, metavar="LIST", help=f.help)
    elif f.kind == "choice":
        group.add_argument(f.flag, type=str.lower, choices=f.choices, help=f.help)
    elif f.kind == "whole":
        low = int(f.low) + 1 if f.unset else int(f.low)  # not given is "not set"
        group.add_argument(f.flag, type=whole(low, int(f.high)), help=f.help)
    else:
        group.add_argument(f.flag, type=number(f.low, f.high), help=f.help)


def given(args: argparse.Namespace) -> list[tuple[Field, Any]]:
    """The workload fields the command line sets, with their values, in table order."""
    out: list[tuple[Field, Any]] = []
    for f in WORKLOAD_FIELDS:
        if f.flag is None:
            continue
        value = getattr(args, dest(f), None)
        if value is None or value is False:
            continue
        if f.cli_style == "on_off":
            value = value == "on"
        out.append((f, value))
    return out


def workload_from(
    args: argparse.Namespace,
    base: Workload | None = None,
    *,
    recipe_without: tuple[str, ...] = (),
) -> Workload:
    """The workload the options describe: ``--workload``'s preset (its task's common recipe,
    as the window starts from, less the ``recipe_without`` keys) or ``base``, with every
    option given applied by the same rules as the window's editor
    (``core.fields.changes``)."""
    from core.workloads import make_workload, recipe_settings

    options = given(args)
    plain = {f.key: stored(f, v) for f, v in options if f.block is None}
    if base is None or getattr(args, "workload", None):
        preset = preset_from_arg(args.workload)
        recipe = recipe_settings(preset, plain.get("task"))
        for key in recipe_without:
            recipe.pop(key, None)
        workload = make_workload(preset, **(recipe | plain))
    else:
        workload = _validated({**dict(base), **plain})
    for f, value in options:
        if f.block is None:
            continue
        if f.block == "lora" and workload.task not in ("lora", "qlora"):
            raise RigForgeError("--lora-rank and --lora-targets apply to --task lora or qlora")
        if f.block == "serving" and not workload.is_serving:
            raise RigForgeError(
                f"{f.flag} applies to serving an LLM (--task inference on a decoder model)"
            )
        workload = _validated({**dict(workload), **changes(f, workload, value)})
    context = getattr(args, "context", None)
    if context is not None:
        if not workload.is_serving:
            raise RigForgeError("--context applies to serving an LLM (--task inference)")
        # the whole context: the prompt is what the output leaves (at least one token)
        serving = workload.serving_settings
        gen = min(serving.gen_len, max(context - 1, 1))
        lengths = {"prompt_len": max(context - gen, 1), "gen_len": gen}
        workload = _validated(
            {**dict(workload), "serving": serving.model_copy(update=lengths).model_dump()}
        )
    _note_offloaded_checkpointing(workload, {f.key: v for f, v in options})
    return workload


def _validated(fields: dict[str, Any]) -> Workload:
    try:
        return Workload.model_validate(fields)
    except ValidationError as error:
        raise RigForgeError(f"invalid option: {validation_message(error)}") from None


def _note_offloaded_checkpointing(workload: Workload, options: dict[str, Any]) -> None:
    """Say on standard error that ``--checkpointing`` does not apply when activations are
    offloaded: they are layer checkpoints, so every layer is recomputed in the backward
    (docs/memory-model.md)."""
    asked = options.get("checkpointing")
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
