"""One verdict for a build, in a user's words: "Won't work — 3 problems", "Works with
changes — 1 change", "Works — 2 advisories", "Works"; the first problem and the check
whose fix mends it. What each verdict means: ``core.calc.verdict``."""

from __future__ import annotations

from dataclasses import dataclass

from core.models.analysis import Analysis
from core.models.checks import Check
from core.text.checks import render_reason
from core.text.fixes import fix_text

VERDICT_WORDS = {"pass": "Works", "changes": "Works with changes", "fail": "Won't work"}


@dataclass(frozen=True)
class Verdict:
    severity: str
    """``fail`` (won't work), ``changes`` (works with changes), ``warn`` (works, with
    advisories) or ``pass``."""
    headline: str
    first: str
    """The first problem (or advisory) in words; empty when there is none."""
    fix_check: Check | None
    """The first failing check with an applicable fix (one click mends it)."""

    @property
    def text(self) -> str:
        return f"{self.headline}: {self.first}" if self.first else self.headline


def _count(n: int, word: str) -> str:
    plural = "advisories" if word == "advisory" else f"{word}s"
    return f"{n} {word if n == 1 else plural}"


def build_verdict(a: Analysis) -> Verdict:
    return checks_verdict(a.checks, a.verdict)


def checks_verdict(checks: tuple[Check, ...], verdict: str) -> Verdict:
    """The verdict in words from the checks it was judged on (a build's or a prebuilt
    system's)."""
    fails = [c for c in checks if c.severity == "fail"]
    warns = [c for c in checks if c.severity == "warn"]
    if fails:
        # the problems first: for "won't work", the one a change of parts must mend
        ordered = sorted(fails, key=lambda c: c.fix is not None and c.fix.operating)
        fixable = next((c for c in ordered if c.fix is not None and c.fix.applicable), None)
        first = render_reason(ordered[0])
        if ordered[0].fix is not None:
            first += f" — fix: {fix_text(ordered[0].fix)}"
        if verdict == "changes":
            headline = f"Works with changes — {_count(len(fails), 'change')} needed"
            return Verdict("changes", headline, first, fixable)
        return Verdict("fail", f"Won't work — {_count(len(fails), 'problem')}", first, fixable)
    if warns:
        return Verdict(
            "warn", f"Works — {_count(len(warns), 'advisory')}", render_reason(warns[0]), None
        )
    return Verdict("pass", "Works", "", None)


def not_buildable(a: Analysis) -> str | None:
    """Why the build does not run as it is (``None`` when it does): "won't work: …" for
    a build that needs other parts, "needs a change: …" for one that needs another way
    of running it."""
    fail = next((c for c in a.checks if c.severity == "fail"), None)
    if fail is None:
        return None
    prefix = "needs a change" if a.verdict == "changes" else "won't work"
    return f"{prefix}: {render_reason(fail)}"
