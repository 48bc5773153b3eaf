"""One verdict for a build, in a user's words: "Won't work — 3 problems", "Works — 2
advisories", "Works"; the first problem and the check whose fix mends it."""

from __future__ import annotations

from dataclasses import dataclass

from core.models.analysis import Analysis
from core.models.checks import Check
from core.text.checks import render_reason
from core.text.fixes import fix_text


@dataclass(frozen=True)
class Verdict:
    severity: str
    """``fail``, ``warn`` or ``pass``."""
    headline: str
    first: str
    """The first problem (or advisory) in words; empty when there is none."""
    fix_check: Check | None
    """The first failing check with an applicable fix (one click mends it)."""

    @property
    def text(self) -> str:
        return f"{self.headline}: {self.first}" if self.first else self.headline


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def build_verdict(a: Analysis) -> Verdict:
    fails = [c for c in a.checks if c.severity == "fail"]
    warns = [c for c in a.checks if c.severity == "warn"]
    if fails:
        fixable = next((c for c in fails if c.fix is not None and c.fix.applicable), None)
        first = render_reason(fails[0])
        if fails[0].fix is not None:
            first += f" — fix: {fix_text(fails[0].fix)}"
        return Verdict("fail", f"Won't work — {_count(len(fails), 'problem')}", first, fixable)
    if warns:
        return Verdict(
            "warn",
            f"Works — {_count(len(warns), 'advisory')}".replace("advisorys", "advisories"),
            render_reason(warns[0]),
            None,
        )
    return Verdict("pass", "Works", "", None)


def not_buildable(a: Analysis) -> str | None:
    """``"not buildable: …"`` (the first failing check) when the build cannot run as it is."""
    fail = next((c for c in a.checks if c.severity == "fail"), None)
    return None if fail is None else f"not buildable: {render_reason(fail)}"
