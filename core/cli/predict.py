"""``rigforge predict``: throughput, step breakdown, bottleneck and scaling of one configuration."""

from __future__ import annotations

import argparse
import json
from typing import Any, get_args

from core.calc.inference import is_serving
from core.calc.parallel import check_gpu_count
from core.calc.performance.constants import FITTED
from core.calc.performance.profile import profile_from_workload
from core.calc.performance.scaling import estimate_throughput
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
from core.cli.types import number, whole
from core.errors import InvalidWorkload
from core.models.build import MAX_GPUS
from core.models.throughput import HostLink, HostSpec
from core.models.workload import MAX_BATCH, Checkpointing, Optimizer, Parallelism, Precision, Task
from core.text.throughput import bottleneck_text, precision_text, result_lines
from core.workloads import make_workload

NAME = "predict"
HELP = "Throughput, step-time breakdown, bottleneck and 1..N scaling for one configuration."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gpu", required=True, help="GPU name or alias from the catalog")
    parser.add_argument("--count", type=whole(1, MAX_GPUS), default=1, help="number of GPUs")
    parser.add_argument("--workload", required=True, help="workload preset name or alias")
    parser.add_argument("--precision", choices=get_args(Precision))
    parser.add_argument("--batch", type=whole(1, MAX_BATCH), help="per-GPU batch size")
    parser.add_argument(
        "--seq-len",
        type=whole(1, 100_000_000),
        help="tokens per sequence (default: the preset's; LoRA/QLoRA of a decoder: 2,048)",
    )
    parser.add_argument("--task", choices=get_args(Task))
    parser.add_argument("--optimizer", choices=get_args(Optimizer))
    parser.add_argument("--parallelism", choices=get_args(Parallelism))
    add_lora_arguments(parser)
    add_parallel_arguments(parser)
    parser.add_argument(
        "--interconnect",
        choices=("nvlink", "pcie", "host"),
        help="default: card's own; host = through host memory (peer-to-peer off)",
    )
    parser.add_argument("--pcie-gen", type=whole(3, 6), help="slot PCIe generation")
    parser.add_argument("--lanes", type=int, choices=(1, 2, 4, 8, 16), help="slot lane width")
    parser.add_argument("--cpu-cores", type=whole(1, 4096), help="CPU cores for data loading")
    parser.add_argument(
        "--storage-mb-s", type=number(0, 1e6, low_open=True), help="storage read rate in MB/s"
    )
    parser.add_argument(
        "--host-memory-gb-s",
        type=number(1, 1e5),
        metavar="GB_S",
        help="host DRAM bandwidth (channels x MT/s x 8 B / 1000) for an optimizer stepped on "
        "the CPU (--offload optimizer, ZeRO offload); without it, an assumed 89.6 GB/s "
        "(two DDR5-5600 channels)",
    )
    parser.add_argument("--no-tf32", action="store_true", help="fp32 stays on CUDA cores")
    parser.add_argument(
        "--checkpointing",
        choices=get_args(Checkpointing),
        help=(
            "activation checkpointing: full recomputes the forward in the backward "
            "(default: none; LoRA/QLoRA of a decoder: full)"
        ),
    )
    add_recipe_arguments(parser)
    add_serving_arguments(parser)
    parser.add_argument(
        "--power-limit",
        type=number(1, 5000),
        metavar="W",
        help="inference: cap each GPU at W watts (what-if; generation slows only below "
        "the power it draws)",
    )
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from core.catalog import load_catalog

    if args.count < 1:
        raise InvalidWorkload("--count must be at least 1")
    catalog = load_catalog()
    gpu = catalog.gpu(args.gpu)
    settings: dict[str, Any] = {
        "precision": args.precision,
        "batch_size": args.batch,
        "seq_len": args.seq_len,
        "task": args.task,
        "optimizer": args.optimizer,
        "parallelism": args.parallelism,
        **parallel_from(args),
        "checkpointing": args.checkpointing,
        **recipe_from(args),
    }
    preset = preset_from_arg(args.workload)
    workload = with_lora(make_workload(preset, **with_recipe(preset, args.task, settings)), args)
    note_offloaded_checkpointing(workload, args)
    if is_serving(workload):
        return _serve(args, gpu, workload)
    check_gpu_count(workload, args.count)
    host = None
    if args.pcie_gen or args.lanes or args.cpu_cores or args.storage_mb_s or args.host_memory_gb_s:
        link = HostLink(pcie_gen=args.pcie_gen or gpu.pcie_gen, lanes=args.lanes or gpu.pcie_lanes)
        host = HostSpec(
            cpu_cores=args.cpu_cores,
            storage_read_mb_s=args.storage_mb_s,
            links=(link,) * args.count,
            memory_gb_s=args.host_memory_gb_s,
        )
    result = estimate_throughput(
        profile_from_workload(workload),
        gpu,
        args.count,
        FITTED,
        interconnect=args.interconnect or "auto",
        host=host,
        allow_tf32=not args.no_tf32,
    )
    from core.calc.performance.scaling import ASSUMED_HOST_MEMORY_GB_S
    from core.calc.performance.stacks import stack_basis
    from core.validation.published import expected_error_pct, published_for

    published = published_for(catalog, gpu.id, workload.preset_id, workload.precision)
    expected = expected_error_pct(workload.preset_id) if workload.stack == "pytorch-eager" else None
    from core.calc.memory import estimate_vram

    vram = estimate_vram(workload, gpu.vram_gib, args.count, with_fixes=False)
    cpu_step_assumed = (
        workload.trains and workload.offloads_optimizer and args.host_memory_gb_s is None
    )
    if args.json:
        data = {"workload": workload.name, "gpu": gpu.id, **result.model_dump()}
        data["fits"] = vram.fits
        data["vram_gib"] = vram.total_gib
        data["vram_capacity_gib"] = gpu.vram_gib
        data["bottleneck_text"] = bottleneck_text(result.bottleneck)
        data["precision_text"] = precision_text(result.precision_note)
        data["published"] = [p.as_json() for p in published]
        data["expected_error_pct"] = expected
        data["stack_basis"] = stack_basis(workload)
        offloaded = workload.trains and workload.offloads_optimizer
        data["host_optimizer_timed"] = True if offloaded else None
        data["host_memory_gb_s"] = (
            (args.host_memory_gb_s or ASSUMED_HOST_MEMORY_GB_S) if offloaded else None
        )
        data["host_memory_assumed"] = cpu_step_assumed
        print(json.dumps(data, indent=2))
    else:
        print(f"{workload.name} on {args.count}x {gpu.name}, {workload.stack}")
        print("\n".join(result_lines(result, workload)))
        if not vram.fits:
            print(
                f"does not fit: {vram.total_gib:.1f} GiB per GPU of {gpu.vram_gib:g} GiB "
                "(rigforge memory lists fixes); the throughput is what it would be if it did"
            )
        for p in published:
            print(p.text())
        if expected is not None:
            print(f"expected error: ±{expected:.0f} % median on this workload's published runs")
        print(f"stack constants: {stack_basis(workload)}")
        if cpu_step_assumed:
            print(
                f"the CPU's optimizer step is timed at an assumed {ASSUMED_HOST_MEMORY_GB_S:g} "
                "GB/s of host DRAM (two DDR5-5600 channels): give --host-memory-gb-s for yours"
            )
    return 0


def _serve(args: argparse.Namespace, gpu: Any, workload: Any) -> int:
    """LLM serving: prefill, time to first token, generation per stream and in aggregate."""
    from core.calc.inference import inference_memory, inference_speed, with_power_limit
    from core.calc.inference.constants import FITTED
    from core.calc.inference.speed import default_link
    from core.text.inference import speed_lines

    serving = serving_from(args)
    workload = workload.model_copy(update={"serving": serving})
    memory = inference_memory(workload, serving, gpu.vram_gib, args.count, with_fixes=False)
    speed = inference_speed(
        workload,
        serving,
        gpu,
        args.count,
        link=default_link(gpu),
        max_streams=memory.max_streams,
        curves=False,
    )
    if args.power_limit is not None:
        speed = with_power_limit(speed, gpu, args.count, args.power_limit)
    basis = FITTED.engine(serving.engine, gpu.vendor).basis
    if args.json:
        data = {
            "workload": workload.name,
            "gpu": gpu.id,
            "count": args.count,
            "serving": serving.model_dump(),
            "prefill_tokens_s": speed.prefill_tokens_s,
            "ttft_s": speed.ttft_s,
            "decode_tokens_s_per_stream": speed.decode_tokens_s_per_stream,
            "aggregate_decode_tokens_s": speed.aggregate_decode_tokens_s,
            "max_streams": speed.max_streams,
            "bottleneck": speed.bottleneck,
            "step_ms": speed.step_ms,
            "fits": memory.fits,
            "power_limit_w": args.power_limit,
            "decode_power_w": speed.decode_power_w,
            "engine_basis": basis,
        }
        print(json.dumps(data, indent=2))
    else:
        print(f"{workload.name} on {args.count}x {gpu.name}, {serving.engine}, {serving.weights}")
        print("\n".join(speed_lines(speed, memory)))
        if args.power_limit is not None:
            print(f"At a {args.power_limit:,.0f} W limit per GPU")
        print(f"Engine constants: {basis}")
    return 0
