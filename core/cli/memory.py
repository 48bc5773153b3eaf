"""``rigforge memory``: per-GPU VRAM breakdown, fit verdict and ranked fixes."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from core.cli.options import add_workload_options, workload_from
from core.cli.types import whole
from core.models.build import MAX_GPUS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workload", required=True, help="preset name or alias, or a path to config.json"
    )
    parser.add_argument("--gpus", type=whole(1, MAX_GPUS), default=1)
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--gpu", help="GPU name from the catalog (default RTX 4090)")
    chosen.add_argument(
        "--system",
        help="a prebuilt unified-memory system (serving): its GPU's share of the memory",
    )
    parser.add_argument("--nodes", type=whole(1, 2), help="with --system: two linked systems")
    add_workload_options(parser)
    parser.add_argument("--json", action="store_true")


def _rate(args: argparse.Namespace) -> Callable[[Any], float | None]:
    """Total throughput of a workload on ``--gpus`` x ``--gpu`` (the GPUs' own link, an
    unknown host), for what each fix costs."""
    from core.calc.rig import rig_for, training_throughput
    from core.catalog import load_gpus

    rig = rig_for(load_gpus().gpu(args.gpu), args.gpus)

    def rate(workload: Any) -> float | None:
        result = training_throughput(workload, rig, curve=False)
        return None if result is None else result.total_throughput

    return rate


def _gpu_vram_gib(name: str) -> float:
    from core.catalog import load_gpus

    gpu = load_gpus().gpu(name)
    return float(gpu.vram_gib)  # marketed GB are binary for NVIDIA/AMD (parts.GPU docs)


def run(args: argparse.Namespace) -> int:
    from core.calc.fixes import with_throughput_cost
    from core.calc.memory import estimate_vram
    from core.text.vram import render

    workload = workload_from(args)
    if args.system:
        return _on_system(args, workload)
    if args.nodes is not None:
        from core.errors import RigForgeError

        raise RigForgeError("--nodes applies to --system (two identical systems)")
    args.gpu = args.gpu or "RTX 4090"
    capacity = _gpu_vram_gib(args.gpu)
    if workload.is_serving:
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

    serving = workload.serving_settings
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


def _on_system(args: argparse.Namespace, workload: Any) -> int:
    """Serving memory on a prebuilt system: the model against the GPU's share of the one
    memory, and what to set when it needs more than the share as shipped."""
    from core.calc.inference import inference_memory
    from core.calc.system import accelerator
    from core.catalog.systems import find_system
    from core.errors import RigForgeError
    from core.text.systems import memory_share_note

    system = find_system(args.system)
    if not workload.is_serving:
        return _training_on_system(args, workload, system)
    serving = workload.serving_settings
    if serving.offload_gib or serving.n_cpu_moe:
        raise RigForgeError(
            f"{system.name} has one memory for CPU and GPU: offloading to host RAM moves nothing"
        )
    nodes = args.nodes or 1
    gpu = accelerator(system)
    memory = inference_memory(workload, serving, gpu.vram_gib, nodes, with_fixes=False)
    note = memory_share_note(system, memory.total_gib, memory.fits)
    if args.json:
        data = {
            "workload": workload.name,
            "system": system.id,
            "nodes": nodes,
            "serving": serving.model_dump(),
            **memory.model_dump(exclude={"fixes"}),
            "gpu_memory_gib": system.gpu_max_gb,
            "gpu_memory_default_gib": system.gpu_default_gb,
            "memory_share_note": note,
        }
        print(json.dumps(data, indent=2))
    else:
        verdict = "fits" if memory.fits else "does not fit"
        where = f"2 x {system.name}" if nodes == 2 else system.name
        print(
            f"{workload.name}, {serving.weights}, {serving.streams} stream(s) at "
            f"{serving.context:,} tokens on {where}: {verdict}"
        )
        print(
            f"  {memory.total_gib:.1f} GiB (weights {memory.weights_gib:.1f}, KV cache "
            f"{memory.kv_cache_gib:.1f}, engine {memory.engine_gib:.1f}) of the "
            f"{system.gpu_max_gb:g} GiB the GPU can be given ({system.gpu_default_gb:g} as "
            "shipped)"
        )
        if note:
            print(f"  {note}")
    return 0 if memory.fits else 1


def _training_on_system(args: argparse.Namespace, workload: Any, system: Any) -> int:
    """Training or fine-tuning memory on a prebuilt system: the same model as on a GPU,
    against the most memory its GPU can be given (one system: the pair's link is for
    serving)."""
    from core.calc.memory import estimate_vram
    from core.errors import RigForgeError
    from core.text.systems import memory_share_note
    from core.text.vram import render

    if (args.nodes or 1) > 1:
        raise RigForgeError(
            f"{system.name}: training across two linked systems is not modelled (--nodes "
            "applies to serving)"
        )
    result = estimate_vram(workload, system.gpu_max_gb, 1)
    note = memory_share_note(system, result.total_gib, result.fits)
    if args.json:
        data = {
            "workload": workload.name,
            "system": system.id,
            **result.model_dump(),
            "gpu_memory_gib": system.gpu_max_gb,
            "gpu_memory_default_gib": system.gpu_default_gb,
            "memory_share_note": note,
        }
        print(json.dumps(data, indent=2))
    else:
        print(render(result, workload.name, system.name))
        print(
            f"the GPU can be given up to {system.gpu_max_gb:g} GiB ({system.gpu_default_gb:g} as "
            f"shipped); the host's {result.host_ram_gib:.1f} GiB comes out of the same "
            f"{system.memory_gb:g} GB"
        )
        if note:
            print(note)
    return 0 if result.fits else 1
