"""The GPUs of a machine and what joins them: all the throughput and serving models read.

A ``Rig`` is the part of a build the estimates see: the GPU model and count, each GPU's
PCIe link, what joins the GPUs, the host's cores, storage and DRAM bandwidth, and a
power limit. ``rig_of`` reads it from a build and its PCIe placement (``analyze``: the
window, ``check``, ``export``, ``predict FILE``); ``rig_for`` makes it from
``rigforge predict --gpu``'s options, where an unknown host is assumed as
``ASSUMED_HOST_MEMORY_GB_S`` and each card's own PCIe link. ``training_throughput``
and ``serving_speed`` are the one composition of each model, so every caller that asks
the same question of the same machine gets the same number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.calc.performance.constants import FITTED
from core.calc.performance.hostio import ASSUMED_HOST_MEMORY_GB_S, link_gb_s
from core.calc.performance.profile import profile_from_workload
from core.calc.performance.scaling import estimate_throughput
from core.calc.platform.power import POWER_LIMIT_EXPONENT, power_limit_throughput_factor
from core.errors import InvalidWorkload
from core.models.build import Build
from core.models.inference import InferenceSpeed
from core.models.parts import GPU
from core.models.pcie import PcieAssignment, link_bandwidth_gb_s
from core.models.throughput import HostLink, HostSpec, InterconnectChoice, ThroughputResult
from core.models.workload import Serving, Workload

if TYPE_CHECKING:  # the serving model loads when a served LLM is asked about
    from core.calc.inference.constants import InferenceConstants
    from core.calc.inference.speed import Link


@dataclass(frozen=True)
class Rig:
    """What the estimates read of a machine."""

    gpu: GPU
    count: int
    host: HostSpec = field(default_factory=HostSpec)
    """Cores, storage read rate, one PCIe link per GPU (empty: each card's own gen and
    lanes) and host DRAM bandwidth (``None``: not known)."""
    interconnect: InterconnectChoice = "auto"
    """``auto``: NVLink for SXM/OAM modules, PCIe otherwise; ``nvlink``: bridges fitted;
    ``pcie``; ``host``: every transfer through host memory (peer-to-peer off)."""
    power_limit_w: float | None = None

    @property
    def links(self) -> tuple[HostLink, ...]:
        """Each GPU's PCIe link: the placement's, else the card's own gen and lanes."""
        if self.host.links:
            return self.host.links
        return (HostLink(pcie_gen=self.gpu.pcie_gen, lanes=self.gpu.pcie_lanes),) * self.count

    @property
    def slowest_link(self) -> HostLink:
        return min(self.links, key=link_gb_s)

    @property
    def host_memory_gb_s(self) -> float:
        """The host's DRAM bandwidth, or the stated assumption where it is not known."""
        return self.host.memory_gb_s or ASSUMED_HOST_MEMORY_GB_S

    @property
    def host_memory_assumed(self) -> bool:
        return self.host.memory_gb_s is None


def rig_of(build: Build, assignment: PcieAssignment) -> Rig:
    """The machine ``build`` is, with the PCIe links its placement gives each GPU. GPUs
    behind the chipset share its uplink with every other device there."""
    board = build.motherboard
    uplink = None
    if board.chipset_uplink_gen is not None and board.chipset_uplink_lanes is not None:
        uplink = link_bandwidth_gb_s(board.chipset_uplink_gen, board.chipset_uplink_lanes)
    behind_chipset = sum(
        1
        for link in (*assignment.gpu_links, *assignment.drive_links)
        if link.attached_to == "chipset"
    )
    links = tuple(
        HostLink(
            pcie_gen=link.gen,
            lanes=link.lanes,
            attached_to=link.attached_to,
            chipset_uplink_gb_s=uplink if link.attached_to == "chipset" else None,
            chipset_sharers=max(behind_chipset, 1) if link.attached_to == "chipset" else 1,
        )
        for link in assignment.gpu_links
    )
    reads = [
        rate
        for d in build.drives
        if (rate := d.drive.sustained_read_mb_s or d.drive.seq_read_mb_s) is not None
    ]
    host = HostSpec(
        cpu_cores=build.cpu.cores * build.cpu_count,
        storage_read_mb_s=max(reads) if reads else None,
        links=links if len(links) == build.gpu_count else (),
        memory_gb_s=host_bandwidth_gb_s(build) or None,
    )
    return Rig(
        gpu=build.gpu,
        count=build.gpu_count,
        host=host,
        interconnect="nvlink" if build.nvlink_bridges else "auto",
        power_limit_w=build.gpu_power_limit_w,
    )


def rig_for(
    gpu: GPU,
    count: int,
    *,
    interconnect: InterconnectChoice | None = None,
    pcie_gen: int | None = None,
    lanes: int | None = None,
    cpu_cores: int | None = None,
    storage_mb_s: float | None = None,
    host_memory_gb_s: float | None = None,
    power_limit_w: float | None = None,
) -> Rig:
    """A machine of ``count`` × ``gpu`` without a build: each card in a slot of its own
    gen and lanes unless ``pcie_gen``/``lanes`` say otherwise; cores, storage and host
    DRAM not known unless given."""
    links: tuple[HostLink, ...] = ()
    if pcie_gen is not None or lanes is not None:
        link = HostLink(pcie_gen=pcie_gen or gpu.pcie_gen, lanes=lanes or gpu.pcie_lanes)
        links = (link,) * count
    host = HostSpec(
        cpu_cores=cpu_cores,
        storage_read_mb_s=storage_mb_s,
        links=links,
        memory_gb_s=host_memory_gb_s,
    )
    return Rig(gpu, count, host, interconnect or "auto", power_limit_w)


def host_bandwidth_gb_s(build: Build) -> float:
    """Peak host DRAM bandwidth: populated channels × transfer rate × 8 bytes (JEDEC DDR4/DDR5)."""
    channels = build.cpu.memory_channels * build.cpu_count
    populated = min(channels, build.dimm_count)
    return populated * build.memory.speed_mt_s * 8.0 / 1000.0


def clock_factor(rig: Rig) -> float:
    """Share of full-power compute the rig's power limit leaves (1 without one)."""
    if rig.power_limit_w is None:
        return 1.0
    return power_limit_throughput_factor(rig.gpu, rig.power_limit_w)


def training_throughput(
    workload: Workload, rig: Rig, *, allow_tf32: bool = True, curve: bool = True
) -> ThroughputResult | None:
    """The throughput model on ``rig`` (``None`` when the workload has no profile)."""
    try:
        profile = profile_from_workload(workload)
    except InvalidWorkload:
        return None
    return estimate_throughput(
        profile,
        rig.gpu,
        rig.count,
        FITTED,
        interconnect=rig.interconnect,
        host=rig.host,
        allow_tf32=allow_tf32,
        clock_factor=clock_factor(rig),
        curve=curve,
    )


def serving_link(rig: Rig) -> Link:
    """What joins the rig's GPUs for a tensor split: NVLink (bridges fitted, or SXM/OAM
    modules), PCIe peer-to-peer at the slowest GPU's link where the card is known to
    support it, else through host memory at half of it. The serving constants were
    fitted with this rule (``docs/inference-model.md``); training's all-reduce
    (``scaling.comm_link``) also lets data-centre cards of unknown support go peer to
    peer, as its constants were fitted."""
    from core.calc.inference.speed import Link

    gpu = rig.gpu
    pcie = link_gb_s(rig.slowest_link)
    if rig.interconnect == "host":
        return Link(kind="host", gb_s=pcie / 2.0)
    if gpu.nvlink_gb_s and (rig.interconnect == "nvlink" or gpu.form_factor != "pcie"):
        return Link(kind="nvlink", gb_s=gpu.nvlink_gb_s / 2.0)
    if gpu.p2p_pcie == "yes":
        return Link(kind="pcie", gb_s=pcie)
    return Link(kind="host", gb_s=pcie / 2.0)


def serving_speed(
    workload: Workload,
    serving: Serving,
    rig: Rig,
    *,
    max_streams: int,
    curves: bool = True,
    constants: InferenceConstants | None = None,
) -> InferenceSpeed:
    """Prefill, time to first token and generation on ``rig``, under its power limit
    (``constants``: the fitted ones by default)."""
    from core.calc.inference.constants import FITTED as SERVING_FITTED
    from core.calc.inference.speed import inference_speed

    constants = constants or SERVING_FITTED
    speed = inference_speed(
        workload,
        serving,
        rig.gpu,
        rig.count,
        link=serving_link(rig),
        host_gb_s=rig.host_memory_gb_s,
        pcie_gb_s=link_gb_s(rig.slowest_link),
        cpu_cores=rig.host.cpu_cores,
        max_streams=max_streams,
        constants=constants,
        curves=curves,
        draft=draft_workload(serving),
    )
    if rig.power_limit_w is not None:
        speed = with_power_limit(speed, rig.gpu, rig.count, rig.power_limit_w, constants)
    return speed


def draft_workload(serving: Serving) -> Workload | None:
    """The draft model's workload where ``serving`` names one."""
    if serving.speculative != "draft" or not serving.draft_model:
        return None
    from core.workloads import find_preset, make_workload

    return make_workload(find_preset(serving.draft_model), task="inference")


def with_power_limit(
    speed: InferenceSpeed,
    gpu: GPU,
    count: int,
    limit_w: float,
    constants: InferenceConstants | None = None,
) -> InferenceSpeed:
    """The speeds under a per-GPU power cap. Prompt processing runs near board power
    (``prefill_power_fraction``), so any cap below it slows it by the power-limit model
    (``power_limit_throughput_factor``, Puget Systems' measurement); generation draws
    only ``decode_power_fraction`` of board power (it waits on memory), so a cap slows it
    only once it falls below that draw, by the same law relative to the draw."""
    from core.calc.inference.constants import FITTED as SERVING_FITTED

    constants = constants or SERVING_FITTED
    board = gpu.board_power_w
    if board is None:
        return speed
    prefill = power_limit_throughput_factor(gpu, limit_w / constants.prefill_power_fraction)
    decode_w = (
        speed.decode_power_w / count
        if speed.decode_power_w is not None
        else board * constants.decode_power_fraction
    )
    decode = 1.0 if limit_w >= decode_w else (limit_w / decode_w) ** POWER_LIMIT_EXPONENT
    capped = min(decode_w, limit_w) * count
    return speed.model_copy(
        update={
            "prefill_tokens_s": speed.prefill_tokens_s * prefill,
            "ttft_s": speed.ttft_s / min(prefill, decode),
            "decode_tokens_s_per_stream": speed.decode_tokens_s_per_stream * decode,
            "aggregate_decode_tokens_s": speed.aggregate_decode_tokens_s * decode,
            "decode_power_w": capped,
            "prefill_power_w": min(board * constants.prefill_power_fraction, limit_w) * count,
        }
    )
