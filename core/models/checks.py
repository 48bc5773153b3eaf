"""The result of every build check: a severity, a reason code, its numbers and a fix.

Text for people is rendered from ``reason`` and ``fix.code`` by ``core.text.checks``.
"""

from __future__ import annotations

from typing import Literal

from core.models.common import Frozen, NonEmptyStr

Severity = Literal["pass", "info", "warn", "fail"]
Number = float | str

SEVERITY_ORDER: dict[Severity, int] = {"pass": 0, "info": 1, "warn": 2, "fail": 3}


class Fix(Frozen):
    """A concrete change to the build that resolves a check.

    ``change`` maps build fields to new values: a part id for part fields
    (``{"psu": "corsair-ax1600i"}``) or a number (``{"gpu_power_limit_w": 320}``).
    It is empty when the fix is not a single build edit (for example "use a
    20 A circuit"); ``numbers`` carries what the text needs.
    """

    code: NonEmptyStr
    change: dict[str, Number] = {}
    numbers: dict[str, Number] = {}


class Check(Frozen):
    id: NonEmptyStr
    """Stable id, ``<concern>.<check>`` with ``.<n>`` for per-GPU checks."""
    severity: Severity
    reason: NonEmptyStr
    """Reason code; ``core.text.checks`` renders it with ``numbers``."""
    numbers: dict[str, Number] = {}
    fix: Fix | None = None


def worst(checks: tuple[Check, ...]) -> Severity:
    """The most severe severity among ``checks`` ("pass" when empty)."""
    result: Severity = "pass"
    for check in checks:
        if SEVERITY_ORDER[check.severity] > SEVERITY_ORDER[result]:
            result = check.severity
    return result
