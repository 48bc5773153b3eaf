"""What a suggested build must be: one an expert would sign as it stands.

A suggestion passes every check (verdict "Works"), and nothing about its power, cooling,
slots, PSU bays, card length or number format is even an advisory or an unknown: the
search never proposes a build that needs "check the manual", a power limit or another
circuit to run. Advisories on other topics (PCIe lane sharing, memory channels, storage)
may remain; they are shown with the suggestion.
"""

from __future__ import annotations

from core.calc.performance.roofline import compute_mode
from core.models.analysis import Analysis
from core.models.parts import GPU

SIGNED_TOPICS = ("power.", "physical.", "workload.precision", "compat.power_connectors")
"""Checks a suggestion must pass outright (no advisory, no unknown)."""
UNKNOWN_FIT = frozenset(
    {
        "cooler_unknown",
        "slot_width_unknown",
        "gpu_length_unknown",
        "case_room_unknown",
        "slot_positions_unknown",
        "psu_bays_unknown",
        "transient_unknown",
        "power_unknown",
        "gpu_connectors_unknown",
        "psu_connectors_unknown",
        "open_air_spacing_unknown",
        "passive_airflow_unknown",
        "cooling_not_evaluated",
    }
)
"""Reasons that say a physical fact is not known: a suggestion never rests on one."""
RATE_UNKNOWN_NOTES = frozenset({"fp8_rate_unknown_fp16_used", "tensor_rate_unknown_fp32"})
UNSUPPORTED_NOTES = frozenset(
    {"bf16_unsupported_fp16_used", "fp8_unsupported_fp16_used", "int8_unsupported_fp16_used"}
)


def precision_supported(gpu: GPU, precision: str) -> bool:
    """Whether ``gpu``'s architecture has the number format (``compute_mode``)."""
    return compute_mode(gpu, precision).note not in UNSUPPORTED_NOTES


def precision_rate_known(gpu: GPU, precision: str) -> bool:
    """Whether a source gives ``gpu``'s tensor rate for the number format its architecture
    has (an Ada card's fp8, say): a ranking on it leaves the card out otherwise."""
    return compute_mode(gpu, precision).note not in RATE_UNKNOWN_NOTES


def blocking(analysis: Analysis) -> tuple[str, ...]:
    """Ids of the checks that keep ``analysis`` from being suggested (empty: signable)."""
    if analysis.verdict != "pass":
        return tuple(c.id for c in analysis.checks if c.severity == "fail")
    return tuple(
        c.id
        for c in analysis.checks
        if c.id.startswith(SIGNED_TOPICS)
        and (c.severity in ("warn", "fail") or c.reason in UNKNOWN_FIT)
    )


def signable(analysis: Analysis) -> bool:
    return not blocking(analysis)
