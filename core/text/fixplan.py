"""Words for a fix plan (``core.calc.fixplan``): the one renderer of ``rigforge fix`` and
the window's *Make it work*."""

from __future__ import annotations

from core.models.fixplan import FixPlan
from core.text.checks import check_title, render_reason
from core.text.money import USD, Money
from core.text.verdict import build_verdict


def plan_lines(plan: FixPlan, money: Money = USD) -> list[str]:
    """What the plan changes, one line per part, then the totals; or why none exists."""
    name = plan.before.build.name
    if plan.after is None:
        near = plan.closest
        lines = [
            f"{name}: no build of the catalog with these GPUs passes every check "
            f"({plan.analysed} candidates analysed); the closest still fails:"
        ]
        if near is not None:
            lines += [
                f"  {check_title(c.id)}: {render_reason(c)}"
                for c in near.checks
                if c.id in plan.blocked_by
            ]
        return lines
    lines = [
        f"{name}: {build_verdict(plan.before).headline} → {build_verdict(plan.after).headline}"
    ]
    if not plan.changes:
        lines.append("  it already passes every check; nothing to change")
    for change in plan.changes:
        cost = "price unknown" if change.usd_delta is None else money.signed(change.usd_delta)
        mends = ", ".join(dict.fromkeys(check_title(i) for i in change.mends))
        lines.append(
            f"  {change.field}: {change.before} → {change.after} ({cost})"
            + (f"; answers {mends}" if mends else "")
        )
    total, pct = plan.cost_delta_usd, plan.throughput_delta_pct
    lines.append(
        "  parts total "
        + ("unknown" if total is None else money.signed(total))
        + ("" if pct is None else f"; throughput {pct:+.1f} %")
    )
    return lines
