"""Analysis settings that change results: the mains circuit, electricity price, utilization.

Kept small and general: the power checks and the cost model both read it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from core.models.common import Frozen, NonEmptyStr

CircuitId = Literal[
    "us-120v-15a", "us-120v-20a", "eu-230v-16a", "eu-230v-10a", "uk-230v-13a", "jp-100v-15a"
]


class Circuit(Frozen):
    """One wall circuit: nominal voltage, breaker (or plug fuse) rating, continuous share."""

    id: CircuitId
    volts: Annotated[float, Field(gt=0)]
    amps: Annotated[float, Field(gt=0)]
    continuous_fraction: Annotated[float, Field(gt=0, le=1)] = 0.8
    source: NonEmptyStr

    @property
    def rated_w(self) -> float:
        return self.volts * self.amps

    @property
    def label(self) -> str:
        """In a user's words: "120 V / 15 A (US)"."""
        return f"{self.volts:g} V / {self.amps:g} A ({self.id.split('-')[0].upper()})"

    @property
    def continuous_w(self) -> float:
        """Practical continuous load: ``volts × amps × continuous_fraction``."""
        return self.rated_w * self.continuous_fraction


_US_80 = (
    "80 % continuous-load rule for North American branch circuits; a 15 A / 120 V circuit "
    "gives about 1,440 W continuous (Lambda blog, deep learning hardware deep dive: RTX 30xx)"
)
_SAME_RULE = "Assumption: the North American 80 % continuous-load rule applied as a margin"

CIRCUITS: dict[CircuitId, Circuit] = {
    "us-120v-15a": Circuit(id="us-120v-15a", volts=120, amps=15, source=_US_80),
    "us-120v-20a": Circuit(id="us-120v-20a", volts=120, amps=20, source=_US_80),
    "eu-230v-16a": Circuit(id="eu-230v-16a", volts=230, amps=16, source=_SAME_RULE),
    "eu-230v-10a": Circuit(id="eu-230v-10a", volts=230, amps=10, source=_SAME_RULE),
    "uk-230v-13a": Circuit(
        id="uk-230v-13a", volts=230, amps=13, source=_SAME_RULE + " to the 13 A plug fuse"
    ),
    "jp-100v-15a": Circuit(id="jp-100v-15a", volts=100, amps=15, source=_SAME_RULE),
}
"""Circuits the app knows, by id. Immutable reference data, not state."""


class AnalysisSettings(Frozen):
    """Settings that change analysis results (not display preferences)."""

    circuit: CircuitId = "us-120v-15a"
    electricity_usd_per_kwh: Annotated[float, Field(ge=0, le=10)] = 0.1688
    """Price of a kWh. Default: the US residential average for April 2024, 16.88 ¢/kWh
    (Source: U.S. EIA, Electricity Monthly Update, end use, released 2024-06-26,
    eia.gov/electricity/monthly/update/end-use.php); set your own tariff in Settings."""
    utilization: Annotated[float, Field(ge=0, le=1)] = 0.5
    """Share of the year the machine runs its workload at full draw."""
    api_usd_per_million_tokens: Annotated[float, Field(gt=0, le=10_000)] | None = None
    """An API's price per million generated tokens, for the break-even of serving an LLM
    on the build (``None``: not compared)."""

    @property
    def circuit_spec(self) -> Circuit:
        return CIRCUITS[self.circuit]
