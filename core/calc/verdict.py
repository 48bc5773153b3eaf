"""One verdict per build from its checks: it works, it works with changes, it won't work.

- **Works** (``pass``): no check fails. Advisories (``warn``) may remain.
- **Works with changes** (``changes``): some checks fail, and every one of them is mended
  by a change of how the build is run, not of what it is made of: a GPU power limit, a
  smaller batch or other workload setting (checkpointing, precision, streams), or
  another wall circuit.
- **Won't work** (``fail``): a check fails that only a different part mends, or that no
  fix mends: the build cannot be assembled (slots, case, board, connectors, PSU bays) or
  is unsafe (a PSU overloaded or tripping on GPU transients).

So a check that fails always makes the verdict something other than "Works", and the
verdict names the same checks the list shows (``core.text.verdict``).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.models.checks import VERDICT_ORDER, Check, Fix, Verdict

__all__ = ["VERDICT_ORDER", "is_operating", "judge", "worst_verdict"]


def is_operating(fix: Fix | None) -> bool:
    """Whether ``fix`` changes how the build runs rather than what it is made of."""
    return fix is not None and fix.operating


def judge(checks: Iterable[Check]) -> Verdict:
    failing = [c for c in checks if c.severity == "fail"]
    if not failing:
        return "pass"
    return "changes" if all(is_operating(c.fix) for c in failing) else "fail"


def worst_verdict(verdicts: Iterable[Verdict]) -> Verdict:
    result: Verdict = "pass"
    for verdict in verdicts:
        if VERDICT_ORDER[verdict] > VERDICT_ORDER[result]:
            result = verdict
    return result
