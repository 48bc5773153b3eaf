"""Words for every fix: the one renderer GUI, CLI and PDF use.

A fix's text is filled from its changes (``fix.build``, ``fix.workload``) and its
resulting numbers (``fix.numbers``); a memory fix ends with what it leads to
("full gradient checkpointing → 20.6 GiB, fits").
"""

from __future__ import annotations

from core.models.checks import Fix
from core.text.format import render_template

FIX_TEXT: dict[str, str] = {
    "use_psu": "use {count} × {name} ({wattage_w} W, ATX {atx_version})",
    "psu_min_watts": "use an ATX 3.1 PSU of at least {min_psu_w} W",
    "power_limit_gpus": (
        "power-limit the {gpus} GPU(s) to {limit_w} W each (keeps about {throughput_pct} % "
        "of throughput)"
    ),
    "power_limit_for_cooling": (
        "space the cards, use water cooling, or power-limit them to {limit_w} W "
        "(keeps about {throughput_pct} % of throughput)"
    ),
    "add_psus": "use {count} PSUs of up to 1,600 W each",
    "use_bigger_circuit": "put the {wall_w} W machine on a bigger circuit ({circuits})",
    "split_across_circuits": (
        "no single listed circuit carries {wall_w} W: split the PSUs across circuits"
    ),
    "use_board": "use the {name} board ({socket})",
    "serve_smaller": "{changes} → {total_gib} GiB per GPU, fits ({max_streams} {streams})",
    "serve_offload": (
        "{weights} weights with {offload_gib} GiB offloaded to host RAM → {total_gib} GiB "
        "per GPU, fits (needs {host_ram_gib} GiB of host RAM; generation slows)"
    ),
    "serve_experts_to_ram": (
        "experts of the first {n_cpu_moe} layers to host RAM (--n-cpu-moe {n_cpu_moe}: "
        "{experts_gib} GiB) → {total_gib} GiB per GPU, fits (needs {host_ram_gib} GiB of "
        "host RAM; its memory bandwidth sets the speed)"
    ),
    "serve_fewer_streams": "serve {streams} streams at {context} tokens",
    "use_frame_and_risers": (
        "mount the {gpus} GPUs on {name} risers in the {frame} (the cards are wider than "
        "the board's slot pitch)"
    ),
    "use_riser": "add {gpus} × {name} (PCIe Gen{riser_gen}), one per GPU",
    "use_platform": "switch to the {cpu} ({cpu_lanes} lanes) on the {board}",
    "fill_channels": "fit {kits} × {name} ({dimms} DIMMs, one per channel or more)",
    "use_memory": "use {name} ({capacity_gib} GB in {modules} modules)",
    "add_nvlink_bridges": "fit {bridges} NVLink bridge(s)",
    "use_case": "use the {name} case ({expansion_slots} expansion slots)",
    "use_blower_gpu": "use blower-style cards such as the {name} ({vram_gib} GB)",
    "use_pcie_gpu": "use the PCIe card {name} ({vram_gib} GB) instead",
    # memory (workload changes)
    "reduce_batch": "batch {batch_size}",
    "checkpointing_selective": "selective activation recomputation",
    "checkpointing_op": "per-op selective checkpointing (every other matrix product kept)",
    "checkpointing_full": "full gradient checkpointing",
    "mixed_precision": "bf16 mixed precision",
    "use_layer_split": "split the layers over the GPUs instead (pipeline parallelism)",
    "use_precision": "switch the workload to {precision} (the GPU runs it at {throughput} {unit})",
    "optimizer_8bit": "8-bit Adam",
    "zero1": "ZeRO-1 over the GPUs (optimizer state sharded; the pipeline stays)",
    "zero2": "ZeRO-2 over the GPUs",
    "zero3": "ZeRO-3 over the GPUs",
    "tensor_parallel": "tensor parallel degree {tp_degree}",
    "pipeline_parallel": (
        "pipeline parallel over {pp_degree} stages, {grad_accum_steps} micro-batches per step"
    ),
    "lora": "LoRA r={lora_rank}",
    "qlora": "QLoRA (4-bit NF4 base)",
    "quantize_int8": "int8 weights",
    "quantize_int4": "int4 weights",
    "cpu_offload": "CPU offload of optimizer state",
    "add_gpus_zero3": "ZeRO-3 over {gpu_count} GPUs",
}


def fix_text(fix: Fix) -> str:
    """One line for people: what to change and, for memory fixes, what it leads to."""
    values: dict[str, object] = {str(k): v for k, v in fix.build.items()}
    values |= {str(k): v for k, v in fix.workload.items()}
    values |= fix.numbers
    values["streams"] = "stream" if fix.numbers.get("max_streams") == 1 else "streams"
    text = render_template(FIX_TEXT.get(fix.code, fix.code.replace("_", " ")), values)
    if fix.code in ("zero2", "zero3", "add_gpus_zero3") and fix.workload.get("pp_degree") == 1:
        text += " without the pipeline"
    if "total_gib" in fix.numbers and not fix.code.startswith("serve_"):
        fits = "fits" if fix.numbers.get("fits") == 1 else "still does not fit"
        text += f" → {render_template('{total_gib}', fix.numbers)} GiB, {fits}"
        pct = fix.numbers.get("throughput_pct")
        if isinstance(pct, int | float) and pct != 0:
            text += f", {'+' if pct > 0 else '−'}{abs(pct):.0f} % throughput"
    return text
