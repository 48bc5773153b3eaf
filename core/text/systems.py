"""Words for prebuilt unified-memory systems and serving on them."""

from __future__ import annotations

from datetime import date

from core.models.system import System, SystemServing
from core.text.checks import render_check
from core.text.cost import age_text
from core.text.inference import rate, seconds, speed_lines
from core.text.money import USD, Money
from core.text.verdict import checks_verdict


def _stale(system: System, today: date | None = None) -> str:
    """ ", stale: 13 months old" for a price observed more than a year ago, else ""."""
    days = system.price.age_days(today or date.today())
    return (
        f", stale: {age_text(days)}" if system.price.stale(today or date.today()) and days else ""
    )


def system_line(system: System) -> str:
    """One catalog line: name, memory, bandwidth, the accelerator's share, price and date
    (and its age when over a year)."""
    price = (
        f"${system.price.usd:,.0f} ({system.price.kind}, {system.price.as_of}{_stale(system)})"
        if system.price.usd is not None and system.price.as_of is not None
        else "price unknown"
    )
    return (
        f"{system.name} [{system.id}]: {system.memory_gb:g} GB at "
        f"{system.memory_bandwidth_gb_s:g} GB/s, GPU up to {system.gpu_max_gb:g} GB "
        f"({system.gpu_default_gb:g} as shipped), {', '.join(system.backends)}; {price}"
    )


def memory_share_note(system: System, need_gib: float, fits: bool) -> str | None:
    """What to set when the plan needs more memory than the GPU gets as shipped."""
    if need_gib <= system.gpu_default_gb or not fits:
        return None
    return (
        f"needs {need_gib:.1f} GiB of GPU memory, more than the {system.gpu_default_gb:.0f} "
        f"GiB it gets as shipped: {system.gpu_share_how}"
    )


def system_notes(served: SystemServing) -> list[str]:
    system = served.system
    lines = [
        f"GPU memory: up to {served.gpu_gib:g} GiB of {system.memory_gb:g} ({system.gpu_share_how})"
    ]
    note = memory_share_note(system, served.memory.total_gib, served.memory.fits)
    if note:
        lines.append(f"Memory share: {note}")
    if served.nodes == 2 and served.link_gb_s is not None:
        port = system.fastest_port()
        how = (
            "each layer split between them, two all-reduces of the step's activations per "
            "layer over the link"
            if served.split == "tensor"
            else "the layers split between them, each boundary sends the step's activations"
        )
        lines.append(
            f"Two nodes over {port.name if port else 'a network'} ({served.link_gb_s:g} GB/s): "
            + how
        )
    if served.parts_usd is not None and served.nodes == 2 and system.pair_cable is not None:
        cable = system.pair_cable.price
        lines.append(
            f"Price: ${served.parts_usd:,.0f} (2 × ${system.price.usd:,.0f} {system.price.kind}, "
            f"{system.price.as_of}{_stale(system)}; the link cable ${cable.usd:,.0f}, "
            f"{cable.kind}, {cable.as_of})"
        )
    elif served.parts_usd is not None:
        lines.append(
            f"Price: ${served.parts_usd:,.0f} ({system.price.kind}, {system.price.as_of}"
            f"{_stale(system)})"
        )
    elif served.nodes == 2 and system.price.usd is not None:
        lines.append("Price: unknown (the link cable's price is not sourced)")
    else:
        lines.append(f"Price: unknown ({system.price.source})")
    if served.wall_w is not None:
        lines.append(f"Wall power under load: {served.wall_w:,.0f} W ({system.power_basis})")
    lines.append("Weights offloaded to host RAM make no sense here: the GPU uses host memory")
    return lines


SYSTEM_COLUMNS = (
    "System",
    "Verdict",
    "Price",
    "Fits",
    "Generation",
    "First token",
    "Prompt",
    "Users",
    "Per 1M tokens",
    "Wall",
    "Note",
)


def system_row(name: str, served: SystemServing | str, money: Money = USD) -> tuple[str, ...]:
    """One system's row beside the builds (``SYSTEM_COLUMNS``); a plan that cannot be
    estimated says why in its note."""
    if isinstance(served, str):
        return (name, "", "", "", "", "", "", "", "", "", served)
    system, speed, memory = served.system, served.speed, served.memory
    if served.parts_usd is not None and system.price.as_of is not None:
        price = (
            f"{money(served.parts_usd)} ({system.price.kind} {system.price.as_of}{_stale(system)})"
        )
    else:
        price = "unknown"
    cost = served.cost.usd_per_million_tokens if served.cost else None
    note = memory_share_note(system, memory.total_gib, memory.fits) or (
        "price unknown: the link cable's is not sourced"
        if served.nodes == 2 and served.parts_usd is None and system.price.usd is not None
        else ""
    )
    return (
        name,
        checks_verdict(served.checks, served.verdict).text,
        price,
        f"{'yes' if memory.fits else 'no'} ({memory.total_gib:.0f} of {served.gpu_gib:g} GiB)",
        f"{rate(speed.decode_tokens_s_per_stream)} tokens/s",
        seconds(speed.ttft_s),
        f"{rate(speed.prefill_tokens_s)} tokens/s",
        str(memory.max_streams),
        "unknown" if cost is None else money(cost, 2),
        "unknown" if served.wall_w is None else f"{served.wall_w:,.0f} W",
        note,
    )


def system_report(served: SystemServing) -> list[str]:
    """Everything known of one system's serving plan, line by line (``predict --system``
    and Compare's system details): speed, memory, the system's notes, the verdict with
    every check, and what the engine's constants were fitted on."""
    lines = list(speed_lines(served.speed, served.memory))
    lines += system_notes(served)
    lines.append(f"Verdict: {checks_verdict(served.checks, served.verdict).text}")
    lines += [f"  {render_check(c)}" for c in served.checks]
    lines.append(f"Engine constants: {served.engine_basis}")
    return lines
