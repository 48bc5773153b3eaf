"""A fix plan (``core.calc.fixplan``): the changes that make a build work, or why none does."""

from __future__ import annotations

from dataclasses import dataclass

from core.models.analysis import Analysis


@dataclass(frozen=True)
class Change:
    """One part (or setting) of the build that the plan changes."""

    field: str
    before: str
    after: str
    usd_delta: float | None
    """What it adds to the parts total (``None`` when a price is unknown)."""
    mends: tuple[str, ...]
    """Ids of the original build's failing or advising checks that pass after the plan and
    that this kind of change answers."""


@dataclass(frozen=True)
class FixPlan:
    before: Analysis
    after: Analysis | None
    """The planned build's analysis; ``None`` when no build of the catalog passes."""
    changes: tuple[Change, ...]
    blocked_by: tuple[str, ...] = ()
    """When nothing passes: the checks that still fail on the closest candidate."""
    closest: Analysis | None = None
    analysed: int = 0

    @property
    def found(self) -> bool:
        return self.after is not None

    @property
    def cost_delta_usd(self) -> float | None:
        if self.after is None:
            return None
        new, old = self.after.cost.parts.total_usd, self.before.cost.parts.total_usd
        return None if new is None or old is None else new - old

    @property
    def throughput_delta_pct(self) -> float | None:
        if self.after is None:
            return None
        new, old = _throughput(self.after), _throughput(self.before)
        return None if new is None or not old else 100.0 * (new / old - 1.0)


def _throughput(a: Analysis) -> float | None:
    if a.throughput is not None:
        return a.throughput.total_throughput
    if a.inference is not None:
        return a.inference.speed.aggregate_decode_tokens_s
    return None
