"""Frozen models of the hardware parts a build is made of.

Every catalog entry carries ``id``, ``name``, ``aliases``, a ``price`` and
``sources``. A spec that no read source gives is ``None`` (unknown), never a
guess; the app shows such values as "unknown".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from core.models.common import Frozen, NonEmptyStr, PartId, Price, newest

PositiveFloat = Annotated[float, Field(gt=0)]


# Specs are bounded to physical ranges: a file or feed outside them is refused, so no
# later arithmetic meets 1e300 or 5e-324.
TFLOPS = Annotated[float, Field(ge=0.01, le=100_000)]
WATTS = Annotated[float, Field(ge=1, le=10_000)]
MILLIMETRES = Annotated[float, Field(ge=10, le=3_000)]
MAX_M2_SLOTS = 16
LaneCount = Literal[1, 2, 4, 8, 16]
PcieGen = Literal[1, 2, 3, 4, 5, 6]
PowerConnector = Literal["pcie_6pin", "pcie_8pin", "12vhpwr", "12v_2x6", "eps_8pin"]
MemoryType = Literal["DDR4", "DDR5"]
DimmType = Literal["UDIMM", "RDIMM"]
Architecture = Literal[
    "pascal",
    "volta",
    "turing",
    "ampere",
    "ada",
    "hopper",
    "blackwell",
    "rdna2",
    "rdna3",
    "rdna4",
    "cdna2",
    "cdna3",
    "cdna4",
    "xe-hpg",
    "xe2",
    "apple",
]
Category = Literal["gpu", "cpu", "motherboard", "memory", "drive", "psu", "case", "riser"]
Bifurcation = Literal["x8x8", "x8x4x4", "x4x4x4x4"]


class Part(Frozen):
    """Fields every catalog entry shares."""

    category: Category
    id: PartId
    name: NonEmptyStr
    aliases: tuple[NonEmptyStr, ...] = ()
    price: Price
    """The new part's price (``msrp`` or ``street``), or an explicit unknown."""
    used_price: Price | None = None
    """A dated survey of second-hand listings (``kind`` "used") for parts people buy used."""
    observations: tuple[Price, ...] = ()
    """Every dated price the sources give (``msrp``, ``street``, ``used``). The catalog
    loader makes the newest new-part one (or the entry's own ``price``, if newer) the
    part's ``price`` and the newest used one its ``used_price`` (``with_newest_prices``);
    a saved part keeps the price it was saved with."""

    def with_newest_prices(self) -> Part:
        """This part priced at its newest observations (what a buyer pays today)."""
        if not self.observations:
            return self
        new = newest([self.price, *(o for o in self.observations if o.kind in ("msrp", "street"))])
        used_seen = [o for o in self.observations if o.kind == "used"]
        used = newest([*([self.used_price] if self.used_price else []), *used_seen])
        update: dict[str, Price] = {}
        if new is not None and new is not self.price:
            update["price"] = new
        if used is not None and used is not self.used_price:
            update["used_price"] = used
        return self.model_copy(update=update) if update else self

    maker: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    """Who makes the part as sold (NVIDIA for a Founders Edition, ASUS for a board)."""
    part_number: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    """The maker's part number / SKU where a source gives it (for purchase orders)."""
    sources: Annotated[tuple[NonEmptyStr, ...], Field(min_length=1)]
    notes: Annotated[str, Field(max_length=4000)] = ""
    custom: bool = False
    """True for parts the user defined, not taken from the catalog."""

    @model_validator(mode="after")
    def _used_price_kind(self) -> Part:
        if self.used_price is not None and self.used_price.kind not in ("used", "unknown"):
            raise ValueError("used_price must have kind 'used'")
        if self.price.kind == "used":
            raise ValueError("price is the new part's price; put second-hand prices in used_price")
        return self


class TensorTflops(Frozen):
    """Dense (no 2:4 sparsity) tensor-core peaks, FP32 accumulate where it applies.

    ``None`` means no read source gives the figure or the GPU lacks the mode.
    """

    fp16: TFLOPS | None = None
    bf16: TFLOPS | None = None
    tf32: TFLOPS | None = None
    fp8: TFLOPS | None = None
    int8_tops: TFLOPS | None = None
    fp16_acc16: TFLOPS | None = None
    """FP16 with FP16 accumulate (GeForce cards run it at twice the FP32-acc rate)."""
    fp4: TFLOPS | None = None
    """FP4 (Blackwell's NVFP4/MXFP4), dense; ``None`` where the GPU lacks it or no source
    gives it."""


class GPU(Part):
    category: Literal["gpu"] = "gpu"
    vendor: Literal["NVIDIA", "AMD", "Intel", "Apple"]
    architecture: Architecture
    chip: str | None = None
    vram_gib: Annotated[float, Field(ge=0.5, le=4096)]
    """Marketed memory size; NVIDIA and AMD market binary gigabytes (24 GB = 24 GiB)."""
    memory_type: str | None = None
    memory_bandwidth_gb_s: Annotated[float, Field(ge=10, le=100_000)]
    fp32_tflops: TFLOPS | None
    """Non-tensor FP32 peak at boost clock."""
    tensor_tflops: TensorTflops = TensorTflops()
    board_power_w: Annotated[float, Field(ge=5, le=5_000)] | None
    l2_cache_mb: Annotated[float, Field(ge=0.1, le=4096)] | None = None
    """Last-level on-chip cache (L2; AMD RDNA: Infinity Cache is stated in notes)."""
    base_clock_mhz: Annotated[float, Field(ge=50, le=10_000)] | None = None
    """Clock the maker guarantees under sustained load at board power."""
    boost_clock_mhz: Annotated[float, Field(ge=50, le=10_000)] | None = None
    """Rated boost clock; the peak TFLOPS figures are at this clock."""
    sm_count: Annotated[int, Field(ge=1, le=1_000)] | None = None
    """Streaming multiprocessors where a source gives the count; otherwise it follows
    from the FP32 peak and the boost clock (``core.calc.sms``)."""
    pcie_gen: PcieGen
    pcie_lanes: LaneCount = 16
    nvlink_gb_s: Annotated[float, Field(ge=1, le=100_000)] | None = None
    """NVLink bandwidth per GPU, both directions together; ``None`` without NVLink."""
    nvlink_topology: Literal["none", "bridge_pair", "nvswitch", "unknown"] = "none"
    p2p_pcie: Literal["yes", "no", "unknown"] = "unknown"
    """Peer-to-peer over PCIe on the stock driver (without an NVLink bridge)."""
    form_factor: Literal["pcie", "sxm", "oam", "superchip"]
    slot_width: Annotated[float, Field(ge=1, le=8)] | None = None
    length_mm: MILLIMETRES | None = None
    cooler: Literal["blower", "open-air", "passive", "liquid"] | None = None
    power_connectors: dict[PowerConnector, Annotated[int, Field(ge=1, le=8)]] | None = None
    """Power inputs on the card; ``{}`` for modules powered through the board
    (SXM/OAM), ``None`` when no source lists them."""

    @property
    def is_geforce(self) -> bool:
        """A GeForce (consumer) board, recognised by its name or an alias: half-rate FP32
        accumulate on tensor cores and no PCIe peer-to-peer on the stock driver."""
        return any("geforce" in n.lower() or "gtx" in n.lower() for n in (self.name, *self.aliases))

    @model_validator(mode="after")
    def _consistent(self) -> GPU:
        if self.nvlink_gb_s is not None and self.nvlink_topology == "none":
            raise ValueError("nvlink_gb_s is set but nvlink_topology is 'none'")
        if self.form_factor == "pcie" and self.nvlink_topology == "nvswitch":
            raise ValueError("a PCIe card cannot sit on an NVSwitch fabric")
        return self


class CPU(Part):
    category: Literal["cpu"] = "cpu"
    vendor: Literal["AMD", "Intel"]
    segment: Literal["consumer", "workstation", "server"]
    socket: NonEmptyStr
    cores: Annotated[int, Field(ge=1, le=512)]
    threads: Annotated[int, Field(ge=1, le=1024)]
    pcie_gen: PcieGen
    pcie_lanes: Annotated[int, Field(ge=1, le=256)] | None
    """Usable CPU PCIe lanes (excluding the chipset link)."""
    memory_channels: Annotated[int, Field(ge=1, le=24)]
    memory_types: Annotated[tuple[MemoryType, ...], Field(min_length=1)]
    dimm_types: Annotated[tuple[DimmType, ...], Field(min_length=1)]
    max_memory_gib: Annotated[float, Field(ge=1, le=1_048_576)] | None
    ecc: bool | None = None
    base_power_w: Annotated[float, Field(ge=1, le=2_000)] | None
    """TDP / processor base power."""
    max_power_w: Annotated[float, Field(ge=1, le=2_000)] | None = None
    """Package power under sustained all-core load (PPT or max turbo power)."""

    @model_validator(mode="after")
    def _threads(self) -> CPU:
        if self.threads < self.cores:
            raise ValueError("threads must be at least cores")
        return self


class LaneRule(Frozen):
    """A slot drops to ``lanes`` electrical lanes when ``when_populated`` is in use."""

    when_populated: NonEmptyStr
    lanes: Literal[0, 1, 2, 4, 8, 16]


class PcieSlot(Frozen):
    id: NonEmptyStr
    position: Annotated[int, Field(ge=1, le=14)]
    """Expansion-slot position counted from the CPU side (1 = top)."""
    gen: PcieGen
    physical_lanes: LaneCount = 16
    lanes: LaneCount
    """Electrical lanes when nothing it shares with is populated."""
    attached_to: Literal["cpu", "chipset"]
    lane_rules: tuple[LaneRule, ...] = ()
    bifurcation: tuple[Bifurcation, ...] | None = None
    """Splits the firmware offers for this slot (``()``: none); ``None`` when unsourced."""


class M2Slot(Frozen):
    id: NonEmptyStr
    gen: PcieGen
    lanes: LaneCount = 4
    attached_to: Literal["cpu", "chipset"]
    lane_rules: tuple[LaneRule, ...] = ()


class Motherboard(Part):
    category: Literal["motherboard"] = "motherboard"
    socket: NonEmptyStr
    chipset: NonEmptyStr
    form_factor: NonEmptyStr
    memory_type: MemoryType
    dimm_types: Annotated[tuple[DimmType, ...], Field(min_length=1)]
    memory_slots: Annotated[int, Field(ge=1, le=32)]
    max_memory_gib: Annotated[float, Field(ge=1, le=1_048_576)] | None
    pcie_slots: Annotated[tuple[PcieSlot, ...], Field(min_length=1, max_length=14)]
    m2_slots: Annotated[tuple[M2Slot, ...], Field(max_length=MAX_M2_SLOTS)] = ()
    slot_positions_sourced: bool = True
    """False when no read source gives the slots' physical positions (``position``
    is then only the slots' order, and slot-spacing checks cannot be trusted)."""
    chipset_uplink_gen: PcieGen | None = None
    chipset_uplink_lanes: LaneCount | None = None

    @model_validator(mode="after")
    def _unique_slots(self) -> Motherboard:
        ids = [s.id for s in self.pcie_slots] + [m.id for m in self.m2_slots]
        if len(ids) != len(set(ids)):
            raise ValueError("slot ids must be unique")
        positions = [s.position for s in self.pcie_slots]
        if len(positions) != len(set(positions)):
            raise ValueError("PCIe slot positions must be unique")
        known = set(ids)
        rules = [(s.id, r) for s in self.pcie_slots for r in s.lane_rules]
        rules += [(m.id, r) for m in self.m2_slots for r in m.lane_rules]
        for slot_id, rule in rules:
            if rule.when_populated == slot_id:
                raise ValueError(f"slot {slot_id}: a lane rule cannot name its own slot")
            if rule.when_populated not in known:
                raise ValueError(f"slot {slot_id}: lane rule names unknown {rule.when_populated}")
        return self


class MemoryKit(Part):
    category: Literal["memory"] = "memory"
    memory_type: MemoryType
    dimm_type: DimmType
    modules: Annotated[int, Field(ge=1, le=16)]
    module_gib: Annotated[float, Field(ge=0.25, le=4096)]
    speed_mt_s: Annotated[int, Field(ge=800, le=20000)]
    ecc: bool

    @property
    def capacity_gib(self) -> float:
        return self.modules * self.module_gib


class Drive(Part):
    category: Literal["drive"] = "drive"
    interface: Literal["nvme", "sata", "sas"]
    pcie_gen: PcieGen | None = None
    form_factor: Literal["m.2", "2.5", "3.5", "u.2", "e1.s"]
    capacity_gb: Annotated[float, Field(ge=1, le=10_000_000)]
    """Decimal gigabytes as marketed."""
    seq_read_mb_s: Annotated[float, Field(ge=1, le=1_000_000)] | None
    sustained_read_mb_s: Annotated[float, Field(ge=1, le=1_000_000)] | None = None
    """Read rate sustained past the cache; ``None`` when no source gives it."""
    power_w: Annotated[float, Field(ge=0.1, le=1_000)] | None = None

    @model_validator(mode="after")
    def _nvme_gen(self) -> Drive:
        if self.interface == "nvme" and self.pcie_gen is None:
            raise ValueError("an NVMe drive needs pcie_gen")
        return self


class EfficiencyPoint(Frozen):
    load_fraction: Annotated[float, Field(gt=0, le=1.2)]
    efficiency: Annotated[float, Field(gt=0.5, lt=1)]


class PSU(Part):
    category: Literal["psu"] = "psu"
    wattage_w: WATTS
    efficiency_rating: NonEmptyStr
    efficiency_curve: Annotated[tuple[EfficiencyPoint, ...], Field(min_length=1)]
    """Efficiency at fractions of rated load (115 V unless notes say otherwise)."""
    atx_version: Literal["2.x", "3.0", "3.1"]
    form_factor: NonEmptyStr = "ATX"
    connectors: dict[PowerConnector, Annotated[int, Field(ge=0, le=32)]] | None = None
    """GPU/CPU power leads by type; ``None`` when no source lists the unit's cables. A type
    missing from the mapping is not listed by the source (unknown, never zero); 0 states
    that the unit has none. ATX 2.x units have no 16-pin lead by definition."""
    low_line_wattage_w: WATTS | None = None
    """Rated output on 100-127 V mains where the maker rates it below ``wattage_w`` (units
    rated at full power on 200-240 V only); ``None``: the one rating holds on both."""

    @model_validator(mode="after")
    def _low_line(self) -> PSU:
        if self.low_line_wattage_w is not None and self.low_line_wattage_w > self.wattage_w:
            raise ValueError("low_line_wattage_w cannot exceed wattage_w")
        return self


class Case(Part):
    category: Literal["case"] = "case"
    kind: Literal["tower", "rack", "open_frame"] = "tower"
    """A tower, a rack chassis, or an open frame whose GPUs sit on risers above the board."""
    rack_units: Annotated[int, Field(ge=1, le=10)] | None = None
    motherboard_form_factors: Annotated[tuple[NonEmptyStr, ...], Field(min_length=1)]
    max_gpu_length_mm: MILLIMETRES | None
    expansion_slots: Annotated[int, Field(ge=1, le=20)] | None
    """Rear slot positions of a tower or chassis; ``None`` for an open frame (no slot
    panel: its GPUs sit on risers on ``gpu_mounts``)."""
    gpu_mounts: Annotated[int, Field(ge=0, le=20)] | None = None
    """Open frames: GPUs the frame holds on risers (``None``: not stated)."""
    server_airflow: bool | None = None
    """Whether the maker rates the chassis' fans for passive (fanless) accelerators."""
    psu_bays: Annotated[int, Field(ge=1, le=8)] | None = None
    """Power supplies the case holds (its maker's spec); ``None`` when no source says. A
    case holds at least one: only a second PSU needs a stated bay."""

    @model_validator(mode="after")
    def _slots_for_enclosures(self) -> Case:
        if self.kind != "open_frame" and self.expansion_slots is None:
            raise ValueError(f"a {self.kind} case needs expansion_slots")
        return self


class Riser(Part):
    """A PCIe riser / extension cable that puts a GPU away from its slot."""

    category: Literal["riser"] = "riser"
    pcie_gen: PcieGen
    """Highest PCIe generation the cable is rated for."""
    lanes: LaneCount = 16
    length_mm: MILLIMETRES | None


AnyPart = GPU | CPU | Motherboard | MemoryKit | Drive | PSU | Case | Riser
PART_TYPES: dict[str, type[Part]] = {
    "gpu": GPU,
    "cpu": CPU,
    "motherboard": Motherboard,
    "memory": MemoryKit,
    "drive": Drive,
    "psu": PSU,
    "case": Case,
    "riser": Riser,
}
