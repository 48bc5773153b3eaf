"""``rigforge predict``: throughput, step breakdown, bottleneck and scaling of one configuration.

Either ``--gpu``/``--count`` (a machine of those GPUs: each card's own PCIe link, the
host's DRAM assumed where not given) or a build file (``FILE`` or ``--default``): then
the build is analysed exactly as ``check`` and the window analyse it, and the figures are
theirs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from core.cli.figures import serving_figures, training_figures
from core.cli.options import add_workload_options, workload_from
from core.cli.types import number, whole
from core.errors import RigForgeError
from core.models.build import MAX_GPUS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    machine = parser.add_argument_group("the machine: GPUs, or a build file")
    machine.add_argument("file", nargs="?", type=Path, help="a RigForge build or comparison file")
    machine.add_argument("--default", action="store_true", help="the bundled default build")
    machine.add_argument(
        "--build", type=whole(1, 64), help="with FILE: which build (1 = first, the default)"
    )
    chosen = machine.add_mutually_exclusive_group()
    chosen.add_argument("--gpu", help="GPU name or alias from the catalog (without FILE)")
    chosen.add_argument(
        "--system",
        help="a prebuilt unified-memory system (DGX Spark, Framework Desktop, Mac Studio M3 "
        "Ultra, …; --list-systems names them all)",
    )
    machine.add_argument(
        "--nodes",
        type=whole(1, 2),
        help="with --system: two identical systems linked by their fastest port, the layers "
        "split between them",
    )
    machine.add_argument(
        "--list-systems", action="store_true", help="list the prebuilt systems and exit"
    )
    machine.add_argument("--count", type=whole(1, MAX_GPUS), help="number of GPUs (default 1)")
    machine.add_argument(
        "--interconnect",
        choices=("nvlink", "pcie", "host"),
        help="default: card's own; host = through host memory (peer-to-peer off)",
    )
    machine.add_argument("--pcie-gen", type=whole(3, 6), help="slot PCIe generation")
    machine.add_argument("--lanes", type=int, choices=(1, 2, 4, 8, 16), help="slot lane width")
    machine.add_argument("--cpu-cores", type=whole(1, 4096), help="CPU cores for data loading")
    machine.add_argument(
        "--storage-mb-s", type=number(0, 1e6, low_open=True), help="storage read rate in MB/s"
    )
    machine.add_argument(
        "--host-memory-gb-s",
        type=number(1, 1e5),
        metavar="GB_S",
        help="host DRAM bandwidth (channels x MT/s x 8 B / 1000), for an optimizer stepped "
        "on the CPU and for weights offloaded to host RAM; without it, an assumed 89.6 GB/s "
        "(two DDR5-5600 channels)",
    )
    machine.add_argument(
        "--power-limit",
        type=number(1, 5000),
        metavar="W",
        help="cap each GPU at W watts (what-if; serving slows only below the power it draws)",
    )
    parser.add_argument(
        "--workload",
        help="workload preset name or alias, or a config.json path (default: the file's)",
    )
    parser.add_argument("--no-tf32", action="store_true", help="fp32 stays on CUDA cores")
    add_workload_options(parser)
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.list_systems:
        return _list_systems(args)
    if args.system:
        if args.file is not None or args.default:
            raise RigForgeError("--system names the machine: leave out FILE and --default")
        if not args.workload:
            raise RigForgeError("give --workload: a preset name or a config.json path")
        return _on_system(args)
    if args.nodes is not None:
        raise RigForgeError("--nodes applies to --system (two identical systems)")
    if args.file is not None or args.default:
        return _on_build(args)
    if not args.gpu:
        raise RigForgeError("give --gpu (and --count), or a build FILE, or --default")
    if not args.workload:
        raise RigForgeError("give --workload: a preset name or a config.json path")
    return _on_gpus(args)


def _list_systems(args: argparse.Namespace) -> int:
    from core.catalog.systems import load_systems
    from core.text.systems import system_line

    systems = load_systems()
    if args.json:
        print(json.dumps([s.model_dump(mode="json") for s in systems], indent=1))
    else:
        print("\n".join(system_line(s) for s in systems))
    return 0


def _on_system(args: argparse.Namespace) -> int:
    from core.calc.system import serve_system
    from core.catalog.systems import find_system
    from core.cli.figures import system_figures
    from core.text.systems import system_report

    system = find_system(args.system)
    workload = workload_from(args)
    if not workload.is_serving:
        raise RigForgeError(
            f"{system.name}: RigForge estimates serving an LLM on prebuilt systems "
            "(--task inference on a decoder); the speed of training and fine-tuning on them is "
            "not estimated (no published run gives a throughput the model can be checked "
            "against), their memory is: rigforge memory --system NAME --task lora|qlora|training"
        )
    served = serve_system(system, workload, args.nodes or 1)
    data = system_figures(served, workload)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    serving = workload.serving_settings
    nodes = f"2 × {system.name}" if served.nodes == 2 else system.name
    print(f"{workload.name} on {nodes}, {serving.engine} ({data['backend']}), {serving.weights}")
    print("\n".join(system_report(served)))
    if data["launch_command"]:
        print(f"Launch: {data['launch_command']}")
    return 0 if served.memory.fits else 1


def _on_gpus(args: argparse.Namespace) -> int:
    from core.calc.inference.serve import serve
    from core.calc.parallel import check_gpu_count
    from core.calc.rig import rig_for, training_throughput
    from core.catalog import load_gpus
    from core.models.settings import AnalysisSettings

    gpu = load_gpus().gpu(args.gpu)
    count = args.count or 1
    workload = workload_from(args)
    rig = rig_for(
        gpu,
        count,
        interconnect=args.interconnect,
        pcie_gen=args.pcie_gen,
        lanes=args.lanes,
        cpu_cores=args.cpu_cores,
        storage_mb_s=args.storage_mb_s,
        host_memory_gb_s=args.host_memory_gb_s,
        power_limit_w=args.power_limit,
    )
    if workload.is_serving:
        _require_split(workload, count)
        served = serve(rig, workload, AnalysisSettings(), None, curves=False)
        data = serving_figures(served, workload, rig)
        return _print_serving(args, workload, data, served, f"{count}x {gpu.name}")
    check_gpu_count(workload, count)
    result = training_throughput(workload, rig, allow_tf32=not args.no_tf32)
    if result is None:
        raise RigForgeError(f"{workload.name}: no throughput model for this workload")
    data = training_figures(result, workload, rig)
    return _print_training(args, workload, data, result, f"{count}x {gpu.name}")


def _require_split(workload: Any, count: int) -> None:
    """The tensor split the engine refuses to start (``serving.split``'s check)."""
    from core.calc.inference.split import tensor_split_refused

    if tensor_split_refused(workload, count):
        engine = workload.serving_settings.engine
        raise RigForgeError(
            f"{engine} splits the attention heads evenly over the GPUs in a tensor "
            f"split: {workload.architecture.heads} heads do not divide over {count} GPUs; "
            "give --split layer or another GPU count"
        )


def _on_build(args: argparse.Namespace) -> int:
    """The build's own analysis (``analyze``): the window's and ``check``'s figures."""
    from core.calc import analyze
    from core.calc.rig import rig_of
    from core.cli.check import read_builds
    from core.cli.common import load_context

    if args.gpu or args.count or args.interconnect or args.pcie_gen or args.lanes:
        raise RigForgeError(
            "--gpu, --count, --interconnect, --pcie-gen and --lanes describe a machine "
            "without a build; a build file brings its own"
        )
    context = load_context(args)
    session, _notices = read_builds(args, context)
    index = (args.build or 1) - 1
    if not 0 <= index < len(session.builds):
        raise RigForgeError(f"--build must be between 1 and {len(session.builds)}")
    build = session.builds[index]
    if args.power_limit is not None:
        build = build.model_copy(update={"gpu_power_limit_w": args.power_limit})
    if session.workload is None and not args.workload:
        raise RigForgeError("the file has no workload: give --workload")
    workload = workload_from(args, base=session.workload)
    analysis = analyze(
        build, workload, session.settings, context.catalog, cloud_rates=context.cloud_rates
    )
    rig = rig_of(build, analysis.pcie)
    machine = f"{build.name}: {build.gpu_count}x {build.gpu.name}"
    if analysis.inference is not None:
        data = serving_figures(analysis.inference, workload, rig)
        return _print_serving(args, workload, data, analysis.inference, machine)
    if analysis.throughput is None:
        failed = [
            c
            for c in analysis.checks
            if c.severity == "fail" and c.id.startswith(("workload", "analysis"))
        ]
        raise RigForgeError(
            f"{workload.name} on {build.name}: no estimate"
            + (f" ({failed[0].numbers.get('message')})" if failed else "")
        )
    data = training_figures(analysis.throughput, workload, rig, analysis.vram)
    return _print_training(args, workload, data, analysis.throughput, machine)


def _print_training(
    args: argparse.Namespace, workload: Any, data: dict[str, Any], result: Any, machine: str
) -> int:
    from core.calc.performance.stacks import stack_basis
    from core.catalog import load_gpus
    from core.text.throughput import result_lines
    from core.validation.bands import training_band
    from core.validation.published import expected_error_pct, published_for

    published = published_for(load_gpus(), data["gpu"], workload.preset_id, workload.precision)
    own = expected_error_pct(workload.preset_id) if workload.stack == "pytorch-eager" else None
    family = training_band(workload)
    data["published"] = [p.as_json() for p in published]
    # this workload's own published runs where there are some, else its family's figure
    expected = own if own is not None and workload.task == "training" else family.pct
    data["expected_error_pct"] = expected
    data["expected_error_basis"] = (
        "median on this workload's published runs" if expected == own else family.basis
    )
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{workload.name} on {machine}, {workload.stack}")
    print("\n".join(result_lines(result, workload)))
    if not data["fits"]:
        print(
            f"does not fit: {data['vram_gib']:.1f} GiB per GPU of "
            f"{data['vram_capacity_gib']:g} GiB (rigforge memory lists fixes); the throughput "
            "is what it would be if it did"
        )
    for p in published:
        print(p.text())
    if expected is not None:
        print(f"expected error: ±{expected:.0f} % ({data['expected_error_basis']})")
    print(f"stack constants: {stack_basis(workload)}")
    if data["host_memory_assumed"]:
        print(
            f"the CPU's optimizer step is timed at an assumed {data['host_memory_gb_s']:g} "
            "GB/s of host DRAM (two DDR5-5600 channels): give --host-memory-gb-s for yours"
        )
    return 0


def _print_serving(
    args: argparse.Namespace, workload: Any, data: dict[str, Any], served: Any, machine: str
) -> int:
    from core.text.inference import speed_lines

    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    serving = workload.serving_settings
    print(f"{workload.name} on {machine}, {serving.engine}, {serving.weights}")
    print("\n".join(speed_lines(served.speed, served.memory)))
    if data["power_limit_w"] is not None:
        print(f"At a {data['power_limit_w']:,.0f} W limit per GPU")
    if data["host_memory_assumed"] and (serving.offload_gib > 0 or serving.n_cpu_moe > 0):
        print(
            f"offloaded weights are read at an assumed {data['host_memory_gb_s']:g} GB/s of "
            "host DRAM (two DDR5-5600 channels): give --host-memory-gb-s, or a build file"
        )
    for key, label in (
        ("decode_tokens_s_per_stream", "generation"),
        ("prefill_tokens_s", "prompt"),
        ("ttft_s", "first token"),
    ):
        pct = data["expected_error_pct_by_figure"][key]
        shown = f"±{pct:.0f} %" if pct is not None else "not measured"
        print(f"expected error, {label}: {shown} ({data['expected_error_basis'][key]})")
    print(f"Engine constants: {served.engine_basis}")
    if data["launch_command"]:
        print(f"Launch: {data['launch_command']}")
    return 0
