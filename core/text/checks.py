"""Text for every check reason: the one place it lives (GUI, CLI, PDF).

Each template names the numbers behind the verdict; ``render_check`` gives one line.
"""

from __future__ import annotations

from core.models.checks import Check, Severity
from core.text.fixes import fix_text
from core.text.format import render_template

SEVERITY_LABELS: dict[Severity, str] = {
    "pass": "PASS",
    "info": "INFO",
    "warn": "WARN",
    "fail": "FAIL",
}

REASONS: dict[str, str] = {
    "vram_fits": (
        "Needs {total_gib} GiB of {capacity_gib} GiB per GPU; batch up to {max_batch} fits"
    ),
    "llm_fits": (
        "Needs {total_gib} GiB on the fullest of {gpus} GPU(s) of the {usable_gib} GiB the "
        "engine may use; room for {max_streams} stream(s) at this context"
    ),
    "llm_exceeds": (
        "Needs {total_gib} GiB on the fullest of {gpus} GPU(s) but the engine may use "
        "{usable_gib} GiB of {capacity_gib} GiB"
    ),
    "vram_exceeds": (
        "Needs {total_gib} GiB per GPU but the GPU has {capacity_gib} GiB "
        "(largest batch that fits: {max_batch})"
    ),
    "workload_invalid": "{message}",
    "tensor_split_heads": (
        "{engine} splits the attention heads evenly over the GPUs in a tensor split: "
        "{heads} heads do not divide over {gpus} GPUs, so it will not start"
    ),
    "precision_unsupported": (
        "{precision} does not exist on the {gpu} ({architecture}): bf16 needs Ampere or newer, "
        "fp8 Ada or Hopper, int8 tensor cores; the recipe cannot run as written"
    ),
    "numbers_out_of_range": "The memory and speed figures cannot be computed for these "
    "specifications ({message}); check the part and model numbers.",
    # power
    "power_summary": (
        "{steady_dc_w} W steady DC (GPUs {gpu_w} W, CPU {cpu_w} W), peak {peak_dc_w} W; "
        "{wall_w} W at the wall ({efficiency_pct} % efficient), {heat_btu_h} BTU/h of heat; "
        "{kwh_per_year} kWh/year at {utilization_pct} % utilization = ${usd_per_year}/year "
        "at ${usd_per_kwh}/kWh"
    ),
    "power_summary_serving": (
        "Serving: {steady_dc_w} W DC while processing prompts (GPUs {gpu_w} W, CPU {cpu_w} W), "
        "peak {peak_dc_w} W; {wall_w} W at the wall while generating ({efficiency_pct} % "
        "efficient), {heat_btu_h} BTU/h of heat; {kwh_per_year} kWh/year at "
        "{utilization_pct} % utilization = ${usd_per_year}/year at ${usd_per_kwh}/kWh"
    ),
    "power_unknown": "Power draw of {unknown} is unknown; totals below are lower bounds",
    "psu_not_chosen": "No PSU chosen: the build draws {steady_dc_w} W steady, {peak_dc_w} W peak",
    "psu_overloaded": "{steady_dc_w} W steady exceeds the {psu_w} W PSU rating ({load_pct} % load)",
    "psu_headroom_low": (
        "{steady_dc_w} W steady is {load_pct} % of the {psu_w} W PSU: less than 20 % headroom"
    ),
    "psu_ok": "{steady_dc_w} W steady is {load_pct} % of the {psu_w} W PSU",
    "transient_unknown": (
        "GPU power spikes are not measured for this card and it has no 16-pin connector; "
        "spike margin unknown"
    ),
    "transient_within_tolerance": (
        "GPU spikes ({ratio}× for {duration_us} µs) peak at {peak_dc_w} W, within the PSU's "
        "{tolerance_pct} % excursion limit of {limit_w} W"
    ),
    "transient_over_tolerance": (
        "GPU spikes ({ratio}× for {duration_us} µs) peak at {peak_dc_w} W, above the PSU's "
        "{tolerance_pct} % excursion limit of {limit_w} W: the PSU may shut down under load"
    ),
    "needs_more_psus": (
        "The load needs {needed} PSUs of the largest common ATX size; build has {psu_count}"
    ),
    "psu_count_ok": "{psu_count} PSU(s) cover the load",
    "circuit_ok": (
        "{wall_w} W at the wall ({amps_drawn} A) fits the {circuit} circuit's "
        "{limit_w} W continuous limit"
    ),
    "circuit_near_limit": (
        "{wall_w} W at the wall ({amps_drawn} A) is within 10 % of the {circuit} circuit's "
        "{limit_w} W continuous limit ({volts} V × {amps} A × {continuous_pct} %)"
    ),
    "circuit_overloaded": (
        "{wall_w} W at the wall ({amps_drawn} A) exceeds the {circuit} circuit's "
        "{limit_w} W continuous limit ({volts} V × {amps} A × {continuous_pct} %)"
    ),
    # prebuilt systems
    "system_memory_fits": (
        "Needs {total_gib} GiB of the {default_gib} GiB its GPU gets as shipped "
        "({memory_gb} GB in all); room for {max_streams} stream(s) at this context"
    ),
    "system_memory_share": (
        "Needs {total_gib} GiB, more than the {default_gib} GiB its GPU gets as shipped: "
        "give it up to {gpu_gib} GiB ({how})"
    ),
    "system_memory_exceeds": (
        "Needs {total_gib} GiB but its GPU may be given at most {gpu_gib} GiB of {memory_gb} GB"
    ),
    "system_power_unknown": "No source gives its wall power under load: the circuit is unchecked",
    "system_storage_ok": "The {weights_gb} GB of weights fit its {storage_gb} GB drive",
    "system_storage_short": ("The {weights_gb} GB of weights do not fit its {storage_gb} GB drive"),
    "system_storage_unknown": "No source gives its drive's size",
    "system_price_unknown": "No dated price: {why}",
    "system_pair_cable": (
        "Two nodes linked over {port} by a {cable} at {usd} ({as_of}), in the pair's total"
    ),
    "system_pair_link": (
        "Two nodes linked over {port}: the cable's price is not sourced, so the pair's total "
        "is unknown"
    ),
    # pcie
    "cpu_lanes_unknown": "The CPU's PCIe lane count is unknown; GPUs and NVMe ask for {demanded}",
    "lanes_oversubscribed": (
        "{gpus} GPUs × x{gpu_lanes} + {nvme} NVMe × x4 = {demanded} lanes demanded; "
        "the CPU has {available}, so the board splits them (each GPU's link below)"
    ),
    "lanes_enough": "{demanded} lanes demanded of the CPU's {available}",
    "gpu_link_ok": "GPU {gpu}: x{lanes} Gen{gen} in {slot} ({bandwidth_gb_s} GB/s per direction)",
    "gpu_link_narrow": (
        "GPU {gpu}: only x{lanes} Gen{gen} in {slot} ({bandwidth_gb_s} GB/s per direction, "
        "x8 Gen3-equivalent or less)"
    ),
    "gpu_on_chipset": (
        "GPU {gpu}: x{lanes} Gen{gen} in {slot} hangs off the chipset and shares its uplink"
    ),
    "gpu_no_usable_slot": "GPU {gpu} has no usable PCIe slot",
    "drives_placed": "{placed} M.2 NVMe drive(s) placed in the board's {m2_slots} M.2 slots",
    "drive_no_m2_slot": "No usable M.2 slot left for {unplaced}",
    "nothing_on_chipset": "No GPU or NVMe drive behind the chipset",
    "chipset_uplink_unknown": (
        "{chipset_gpus} GPU(s) and {chipset_drives} drive(s) sit behind the chipset; "
        "its uplink is unknown"
    ),
    "gpu_shares_chipset_uplink": (
        "{chipset_gpus} GPU(s) and {chipset_drives} drive(s) share the chipset's "
        "x{uplink_lanes} Gen{uplink_gen} uplink ({uplink_gb_s} GB/s)"
    ),
    "chipset_uplink_shared": (
        "{chipset_drives} drives behind the chipset ({devices_gb_s} GB/s) share its "
        "{uplink_gb_s} GB/s uplink"
    ),
    "chipset_uplink_enough": (
        "{chipset_drives} drive(s) behind the chipset fit its {uplink_gb_s} GB/s uplink"
    ),
    "nvlink_fabric": "GPUs talk over NVLink ({nvlink_gb_s} GB/s per GPU)",
    "nvlink_all_paired": "{bridges} NVLink bridge(s) pair all {gpus} GPUs ({nvlink_gb_s} GB/s)",
    "nvlink_bridges_missing": (
        "{bridges} NVLink bridge(s) for {gpus} GPUs; {pairs} pair(s) possible"
    ),
    "p2p_over_pcie": "GPUs support peer-to-peer over PCIe",
    "no_p2p": (
        "No GPU peer-to-peer on the stock driver: GPU-to-GPU traffic goes through host memory"
    ),
    "p2p_unknown": "Whether these GPUs do peer-to-peer over PCIe is unknown",
    # physical
    "module_needs_baseboard": (
        "{form_factor} modules need a vendor baseboard; they do not fit a PCIe workstation board"
    ),
    "pcie_card": "PCIe card",
    "slot_width_unknown": "The card's slot width is unknown; placed as one slot wide",
    "gpus_fit_board": (
        "{gpus} card(s) {slot_width} {slot_word} wide fit the board's {x16_slots} x16 slots"
    ),
    "gpus_placed_board_spacing_unknown": (
        "{gpus} card(s) placed in the board's {x16_slots} x16 slots (slot spacing not sourced)"
    ),
    "gpus_do_not_fit_board": (
        "Only {fitting} of {gpus} cards {slot_width} {slot_word} wide fit the board's "
        "{x16_slots} x16 slots"
    ),
    "gpus_exceed_board_slots": (
        "Only {fitting} of {gpus} cards fit the board's {x16_slots} x16 slots"
    ),
    "no_case": "No case chosen: case fit not checked",
    "board_fits_case": "{board_form_factor} board fits the case",
    "board_not_in_case": ("{board_form_factor} board does not fit the case ({case_form_factors})"),
    "case_slots_enough": "Cards reach slot {needed} of the case's {case_slots}",
    "slot_positions_unknown": (
        "No source gives this board's slot positions: check in its manual that "
        "{gpus} cards {slot_width} slot(s) wide fit side by side"
    ),
    "case_slots_short": "Cards reach slot {needed} but the case has {case_slots} expansion slots",
    "gpu_length_unknown": "The card's length is unknown",
    "case_room_unknown": "The case's maximum GPU length is unknown ({length_mm} mm card)",
    "cooling_not_evaluated": "Spacing not evaluated: fewer than two cards could be placed",
    "gpu_length_fits": "{length_mm} mm card fits the case's {max_mm} mm",
    "gpu_too_long": "{length_mm} mm card is longer than the case's {max_mm} mm",
    "cooler_unknown": "The card's cooler type is unknown",
    "passive_needs_airflow": (
        "Passive cards rely on server-chassis airflow through them; choose a case to check it"
    ),
    "open_air_on_frame": "{gpus} open-air cards on risers along an open frame: each in open air",
    "passive_server_airflow": "{case} pushes air through passive cards",
    "one_psu_fits": "One PSU: {case} mounts it",
    "channels_filled": "{dimms} DIMMs fill the CPU's {channels} memory channels",
    "channels_empty": (
        "{dimms} DIMM(s) for the CPU's {channels} memory channels: only {bandwidth_pct} % of "
        "its memory bandwidth is used"
    ),
    "psu_bays_enough": "{psus} PSUs in the {case}'s {bays} PSU bays",
    "psu_bays_short": "{psus} PSUs but the {case} holds {bays}",
    "psu_bays_unknown": (
        "{psus} PSUs: no source says the {case} holds more than one; check before buying"
    ),
    "passive_airflow_unknown": (
        "{case}: its maker does not state airflow for passive cards; check before buying"
    ),
    "passive_overheats": (
        "{case} has no airflow through passive cards: without server fans they overheat and "
        "throttle; choose a server chassis rated for passive accelerators or an actively "
        "cooled card"
    ),
    "frame_needs_risers": (
        "An open frame holds the {gpus} GPU(s) away from the board: each needs a riser cable"
    ),
    "risers_chosen": "{gpus} × {riser} (PCIe Gen{riser_gen})",
    "frame_mounts_enough": "The frame holds {mounts} GPUs; {gpus} used",
    "frame_mounts_short": "The frame holds {mounts} GPUs but the build has {gpus}",
    "frame_mounts_unknown": "The frame's number of GPU mounts is not stated; check it holds {gpus}",
    "cooling_ok": "{gpus} {cooler} card(s): no spacing concern",
    "open_air_spacing_unknown": (
        "{gpus} open-air cards; the board's slot spacing is not sourced, so leave at least "
        "one free slot between them or choose blower cards"
    ),
    "open_air_spaced": "{gpus} open-air cards with {min_gap_slots} free slot(s) between them",
    "open_air_no_gap": (
        "{gpus} open-air cards with no gap between them: the upper ones draw in the "
        "lower ones' exhaust and throttle"
    ),
    "open_air_many": "{gpus} open-air cards: blower cards are recommended beyond two",
    # compatibility
    "chipset_not_for_cpu": (
        "The {chipset} board runs Threadripper PRO processors only, not the {cpu}"
    ),
    "socket_match": "CPU and board share socket {cpu_socket}",
    "socket_mismatch": "CPU socket {cpu_socket} does not match the board's {board_socket}",
    "memory_type_match": "{memory_type} memory matches the platform",
    "memory_type_mismatch": (
        "{memory_type} memory on a {board_memory_type} board (CPU takes {cpu_memory_types})"
    ),
    "dimm_type_supported": "{dimm_type} modules supported",
    "dimm_type_unsupported": (
        "{dimm_type} modules unsupported (board {board_dimm_types}, CPU {cpu_dimm_types})"
    ),
    "dimms_fit": "{dimms} DIMMs in {slots} slots",
    "too_many_dimms": "{dimms} DIMMs but the board has {slots} slots",
    "max_memory_unknown": "Maximum memory of CPU and board unknown ({memory_gib} GB installed)",
    "memory_within_max": "{memory_gib} GB within the {max_memory_gib} GB maximum",
    "memory_over_max": "{memory_gib} GB exceeds the {max_memory_gib} GB maximum",
    "ecc_not_used": "Memory without ECC",
    "cpu_ecc_unknown": "ECC memory; whether the CPU enables ECC is unknown",
    "ecc_not_supported_by_cpu": "ECC memory, but the {cpu} does not enable ECC",
    "ecc_active": "ECC memory on an ECC platform",
    "gpu_powered_by_baseboard": "Modules are powered through their baseboard",
    "gpu_connectors_unknown": "The card's power connectors are unknown",
    "psu_connectors_unknown": "The PSU's GPU power cables are unknown",
    "connectors_native": (
        "PSU has the GPU power cables: {need_16pin} × 16-pin, {need_8pin} × 8-pin needed"
    ),
    "connectors_via_adapter": (
        "{adapters} GPU 16-pin input(s) need adapters from {eight_pin_per_adapter} × 8-pin each; "
        "{need_8pin} of the PSU's {have_8pin} 8-pin cables used"
    ),
    "connectors_short": (
        "GPU power cables short: {need_16pin} × 16-pin needed ({have_16pin} on the PSU), "
        "{need_8pin} × 8-pin needed ({have_8pin} on the PSU)"
    ),
    # host
    "ram_enough": "{ram_gib} GiB RAM for {vram_gib} GiB of VRAM",
    "ram_below_vram": (
        "{ram_gib} GiB RAM is less than the {vram_gib} GiB of total VRAM (rule of thumb; "
        "choose a workload to judge it)"
    ),
    "ram_below_workload": "{ram_gib} GiB RAM; the workload stages {needed_gib} GiB on the host",
    "ram_for_workload": "{ram_gib} GiB RAM; the workload stages {needed_gib} GiB on the host",
    "cores_enough": "{cores} cores for {gpus} GPU(s) ({cores_per_gpu} per GPU)",
    "cores_below_rule": (
        "{cores} cores for {gpus} GPU(s): at least {recommended} recommended "
        "(4 per GPU, 16 minimum)"
    ),
    "cores_below_workload": (
        "{cores} cores: the GPUs wait on data loading {wait_pct} % of each step; "
        "{needed} cores would keep them fed"
    ),
    "cores_for_workload": "{cores} cores keep {gpus} GPU(s) fed with data",
    "storage_enough": "{capacity_gb} GB of storage for {needed_gb} GB of data and checkpoints",
    "storage_too_small": "{capacity_gb} GB of storage; data and checkpoints need {needed_gb} GB",
    "read_speed_unknown": "Drive read speed unknown",
    "read_fast_enough": "{drive} reads {read_mb_s} MB/s; the workload needs {needed_mb_s} MB/s",
    "read_too_slow": "{drive} reads {read_mb_s} MB/s; the workload needs {needed_mb_s} MB/s",
}


def render_reason(check: Check) -> str:
    text = render_template(REASONS.get(check.reason, check.reason), check.numbers)
    if check.numbers.get("lower_bound") == "yes":
        text += " (lower bound: some draw is unknown)"
    return text


def render_check(check: Check) -> str:
    """ "FAIL power.circuit: … — fix: …" on one line."""
    line = f"{SEVERITY_LABELS[check.severity]} {check.id}: {render_reason(check)}"
    if check.fix is not None:
        line += f" — fix: {fix_text(check.fix)}"
    return line


CHECK_TITLES: dict[str, str] = {
    "analysis.numbers": "Inputs",
    "compat.dimm_count": "Memory slots",
    "compat.dimm_type": "Memory module type",
    "compat.ecc": "ECC memory",
    "compat.memory_capacity": "Memory capacity",
    "compat.memory_type": "Memory generation",
    "compat.power_connectors": "GPU power connectors",
    "compat.socket": "CPU socket",
    "host.cpu_cores": "CPU cores",
    "host.ram": "System RAM",
    "host.storage_capacity": "Storage space",
    "host.storage_read": "Storage speed",
    "pcie.chipset": "Chipset link",
    "pcie.gpu_link": "GPU link",
    "pcie.lanes": "PCIe lanes",
    "pcie.m2": "M.2 slots",
    "pcie.p2p": "GPU peer-to-peer",
    "physical.board_slots": "Board slots",
    "physical.psu_bays": "PSU bays",
    "compat.memory_channels": "Memory channels",
    "workload.precision": "Number format",
    "physical.case": "Case",
    "physical.case_board": "Board in case",
    "physical.case_slots": "Case slots",
    "physical.cooling": "Cooling",
    "physical.form_factor": "GPU form factor",
    "physical.frame_mounts": "Frame mounts",
    "physical.gpu_length": "GPU length",
    "physical.riser": "Risers",
    "physical.slot_spacing": "Slot spacing",
    "physical.slot_width": "GPU width",
    "power.circuit": "Wall circuit",
    "system.link": "Link between the pair",
    "system.memory": "GPU memory share",
    "system.price": "Price",
    "system.storage": "Storage space",
    "power.psu": "PSU load",
    "power.psu_count": "PSU count",
    "power.summary": "Power draw",
    "power.transient": "Power spikes",
    "power.unknown": "Power data",
    "vram.fit": "VRAM fit",
    "workload.gpus": "GPU count for the workload",
}
"""Each check's name in a user's words (the CLI keeps the ids, which scripts use)."""


def check_title(check_id: str) -> str:
    """ "pcie.gpu_link.2" -> "GPU link 2"; an id without a title reads as words."""
    parts = check_id.split(".")
    for n in range(len(parts), 0, -1):
        title = CHECK_TITLES.get(".".join(parts[:n]))
        if title is not None:
            return " ".join([title, *parts[n:]])
    return check_id.replace(".", " ").replace("_", " ").capitalize()


_UNITS: tuple[tuple[str, str], ...] = (
    ("_usd_per_kwh", "$/kWh"),
    ("_usd_per_year", "$/year"),
    ("_kwh_per_year", "kWh/year"),
    ("_btu_h", "BTU/h"),
    ("_gb_s", "GB/s"),
    ("_gib", "GiB"),
    ("_pct", "%"),
    ("_mm", "mm"),
    ("_us", "µs"),
    ("_w", "W"),
)
_WORDS = {
    "dc": "DC", "cpu": "CPU", "gpu": "GPU", "gpus": "GPUs", "psu": "PSU", "nvme": "NVMe",
    "m2": "M.2", "p2p": "P2P", "pcie": "PCIe", "dimm": "DIMM", "dimms": "DIMMs", "ram": "RAM",
    "vram": "VRAM", "btu": "BTU", "usd": "$", "kwh": "kWh", "16pin": "16-pin",
    "8pin": "8-pin", "6pin": "6-pin", "gen3": "Gen3",
}  # fmt: skip
_HIDDEN = {"slot_word"}
"""Numbers that only choose a word of the text (not figures)."""


def number_lines(check: Check) -> list[str]:
    """The figures behind a check in a user's words: "steady DC: 1,228 W", not
    "steady_dc_w = 1228.0" (keys without a known unit read as words, values as given)."""
    lines = []
    for key, value in check.numbers.items():
        if key in _HIDDEN:
            continue
        name, unit = key, ""
        for suffix, shown in _UNITS:
            if key.endswith(suffix) or key == suffix[1:]:
                name, unit = key[: -len(suffix)] if key.endswith(suffix) else "", shown
                break
        words = " ".join(_WORDS.get(w, w) for w in name.split("_") if w) or unit
        if isinstance(value, float):
            text = (
                f"{value:,.0f}" if value == int(value) else f"{value:,.2f}".rstrip("0").rstrip(".")
            )
        else:
            text = str(value)
        shown = f"{text} {unit}".strip() if unit and words != unit else text
        lines.append(f"{words[:1].upper()}{words[1:]}: {shown}")
    return lines
