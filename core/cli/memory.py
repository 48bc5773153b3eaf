"""``rigforge memory``: per-GPU VRAM breakdown, fit verdict and ranked fixes."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any, get_args

from core.calc.fixes import with_throughput_cost
from core.calc.inference import is_serving
from core.calc.memory import estimate_vram
from core.cli.common import (
    add_lora_arguments,
    add_parallel_arguments,
    add_recipe_arguments,
    add_serving_arguments,
    note_offloaded_checkpointing,
    parallel_from,
    preset_from_arg,
    recipe_from,
    serving_from,
    with_lora,
    with_recipe,
)
from core.cli.types import whole
from core.errors import InvalidWorkload
from core.models.build import MAX_GPUS
from core.models.workload import MAX_BATCH, Checkpointing, Optimizer, Parallelism, Precision, Task
from core.text.vram import render
from core.workloads import make_workload

NAME = "memory"
HELP = "Will the workload fit? VRAM breakdown per GPU, the largest batch and fixes."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workload", required=True, help="preset name or alias, or a path to config.json"
    )
    parser.add_argument("--task", choices=get_args(Task))
    parser.add_argument("--precision", choices=get_args(Precision))
    parser.add_argument("--batch", type=whole(1, MAX_BATCH), help="per-GPU micro-batch")
    parser.add_argument(
        "--seq-len",
        type=whole(1, 100_000_000),
        help="tokens per sequence (default: the preset's; LoRA/QLoRA of a decoder: 2,048)",
    )
    parser.add_argument("--optimizer", choices=get_args(Optimizer))
    parser.add_argument(
        "--checkpointing",
        choices=get_args(Checkpointing),
        help="activation checkpointing (default: none; LoRA/QLoRA of a decoder: full)",
    )
    parser.add_argument("--parallelism", choices=get_args(Parallelism))
    add_parallel_arguments(parser)
    add_lora_arguments(parser)
    parser.add_argument("--gpus", type=whole(1, MAX_GPUS), default=1)
    parser.add_argument("--gpu", default="RTX 4090", help="GPU name from the catalog")
    parser.add_argument(
        "--context",
        type=whole(2, 100_000_000),
        help="serving: tokens in the cache (prompt + output)",
    )
    add_recipe_arguments(parser)
    add_serving_arguments(parser)
    parser.add_argument("--json", action="store_true")


def _rate(args: argparse.Namespace) -> Callable[[Any], float | None]:
    """Total throughput of a workload on ``--gpus`` x ``--gpu`` (the GPUs' own link, an
    unknown host), for what each fix costs."""
    from core.calc.performance.constants import FITTED
    from core.calc.performance.profile import profile_from_workload
    from core.calc.performance.scaling import estimate_throughput
    from core.catalog import load_catalog

    gpu = load_catalog().gpu(args.gpu)

    def rate(workload: Any) -> float | None:
        try:
            profile = profile_from_workload(workload)
        except InvalidWorkload:
            return None
        return estimate_throughput(profile, gpu, args.gpus, FITTED).total_throughput

    return rate


def _gpu_vram_gib(name: str) -> float:
    from core.catalog import load_catalog  # type: ignore[import-not-found,unused-ignore]

    gpu = load_catalog().gpu(name)
    return float(gpu.vram_gib)  # marketed GB are binary for NVIDIA/AMD (parts.GPU docs)


def _workload(args: argparse.Namespace) -> Any:
    settings: dict[str, Any] = {
        "task": args.task,
        "precision": args.precision,
        "batch_size": args.batch,
        "seq_len": args.seq_len,
        "optimizer": args.optimizer,
        "checkpointing": args.checkpointing,
        "parallelism": args.parallelism,
        **parallel_from(args),
        **recipe_from(args),
    }
    preset = preset_from_arg(args.workload)
    workload = with_lora(make_workload(preset, **with_recipe(preset, args.task, settings)), args)
    note_offloaded_checkpointing(workload, args)
    return workload


def run(args: argparse.Namespace) -> int:
    workload = _workload(args)
    if args.gpus < 1:
        raise InvalidWorkload("--gpus must be at least 1")
    capacity = _gpu_vram_gib(args.gpu)
    if is_serving(workload):
        return _serving(args, workload, capacity)
    result = estimate_vram(workload, capacity, args.gpus)
    if result.fixes:
        result = result.model_copy(
            update={"fixes": with_throughput_cost(result.fixes, workload, _rate(args))}
        )
    if args.json:
        print(
            json.dumps(
                {"workload": workload.name, "gpu": args.gpu, **result.model_dump()}, indent=2
            )
        )
    else:
        print(render(result, workload.name, args.gpu))
    return 0 if result.fits else 1


def _serving(args: argparse.Namespace, workload: Any, capacity: float) -> int:
    """LLM serving memory on the fullest GPU, host RAM, and fixes (cheapest first)."""
    from core.calc.inference import inference_memory
    from core.calc.inference.memory import memory_fixes
    from core.text.fixes import fix_text

    serving = serving_from(args, args.context)
    workload = workload.model_copy(update={"serving": serving})
    memory = inference_memory(workload, serving, capacity, args.gpus, with_fixes=False)
    fixes = (
        ()
        if memory.fits
        else memory_fixes(
            workload, serving, capacity, args.gpus, gpu_options=tuple(range(args.gpus, 9))
        )
    )
    if args.json:
        data = {
            "workload": workload.name,
            "gpu": args.gpu,
            "gpus": args.gpus,
            "serving": serving.model_dump(),
            **memory.model_dump(exclude={"fixes"}),
            "fixes": [fix.model_dump() | {"text": fix_text(fix)} for fix in fixes],
        }
        print(json.dumps(data, indent=2))
    else:
        verdict = "fits" if memory.fits else "does not fit"
        print(
            f"{workload.name}, {serving.weights}, {serving.streams} stream(s) at "
            f"{serving.context:,} tokens on {args.gpus} x {args.gpu}: {verdict}"
        )
        print(
            f"  fullest GPU {memory.total_gib:.1f} GiB (weights {memory.weights_gib:.1f}, "
            f"KV cache {memory.kv_cache_gib:.1f}, engine {memory.engine_gib:.1f}) of "
            f"{memory.usable_gib:.1f} GiB usable; host RAM {memory.host_ram_gib:.1f} GiB"
        )
        for fix in fixes:
            print(f"  fix: {fix_text(fix)}")
    return 0 if memory.fits else 1
