"""Results of the power model: per-component draw, PSU load, wall power, energy."""

from __future__ import annotations

from typing import Literal

from core.models.common import Frozen

Component = Literal["gpu", "cpu", "memory", "drives", "motherboard", "fans"]


class ComponentPower(Frozen):
    component: Component
    count: int
    each_w: float | None
    """``None`` when no source gives the part's power."""
    basis: str
    """Where the figure comes from: a code such as ``power_limit`` or ``assumed``."""

    @property
    def total_w(self) -> float | None:
        return None if self.each_w is None else self.each_w * self.count


class PowerBudget(Frozen):
    components: tuple[ComponentPower, ...]
    steady_dc_w: float
    """Sum over components with a known draw."""
    unknown: tuple[Component, ...] = ()
    """Components whose draw is unknown; then every total is a lower bound."""
    gpu_transient_ratio: float
    transient_basis: str
    transient_duration_us: float
    peak_dc_w: float
    """Steady draw with every GPU at its transient peak at once."""
    psu_rated_w: float | None
    """Rated power of all PSUs together; ``None`` when no PSU is chosen."""
    psu_count: int = 1
    psu_load_fraction: float | None = None
    excursion_tolerance: float | None = None
    """Multiple of rated power the PSU must carry for ``transient_duration_us``."""
    excursion_basis: str = ""
    efficiency: float | None = None
    wall_w: float | None = None
    heat_btu_h: float | None = None
    energy_kwh_per_year: float | None = None
    electricity_usd_per_year: float | None = None
    circuit_continuous_w: float

    @property
    def complete(self) -> bool:
        return not self.unknown

    @property
    def excursion_limit_w(self) -> float | None:
        if self.psu_rated_w is None or self.excursion_tolerance is None:
            return None
        return self.psu_rated_w * self.excursion_tolerance
