"""The analysis of the shown build, derived from the session.

On every ``session_changed`` it takes the shown build, the workload and the settings,
asks the shared ``AnalysisCache`` (a millisecond when not cached) and emits
``analysis_changed`` only when the result differs.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from core.models.analysis import Analysis
from core.models.checks import Check
from core.models.session import Session
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.session import SessionViewModel


class AnalysisViewModel(QObject):
    analysis_changed = Signal(object)
    """Emitted with the new ``Analysis`` of the shown build."""

    def __init__(self, session: SessionViewModel, cache: AnalysisCache) -> None:
        super().__init__()
        self.session_view_model = session
        self.cache = cache
        self._published_read = False
        self._analysis = self._compute(session.session)
        session.session_changed.connect(self._on_session_changed)

    @property
    def analysis(self) -> Analysis:
        return self._analysis

    def _compute(self, session: Session) -> Analysis:
        return self.cache.analysis(session.build, session.workload, session.settings)

    def refresh(self) -> None:
        """Recompute (after new prices) and emit when the result changed."""
        self._on_session_changed(self.session_view_model.session)

    def _on_session_changed(self, session: Session) -> None:
        analysis = self._compute(session)
        if analysis is not self._analysis:  # the cache gives the same object for the same inputs
            self._analysis = analysis
            self.analysis_changed.emit(analysis)

    def published_ready(self) -> bool:
        """Whether the published runs have been read (``published_note`` is then quick)."""
        return self._published_read

    def published_note(self, analysis: Analysis) -> tuple[str, str] | None:
        """(short, long) words on the published measurements of this GPU and workload and
        the model's validated error for it (``None`` when there are none)."""
        from core.calc.performance.stacks import stack_basis
        from core.validation.published import expected_error_pct, overall_error, published_for

        self._published_read = True
        w = analysis.workload
        if w is None or analysis.throughput is None or w.is_serving:
            return None
        rows = published_for(self.cache.catalog, analysis.build.gpu.id, w.preset_id, w.precision)
        error = expected_error_pct(w.preset_id)
        overall, count = overall_error()
        lines = [r.text() for r in rows[:4]]
        if error is not None and w.stack == "pytorch-eager":
            lines.append(f"model error on this workload's published runs: ±{error:.0f} % median")
        else:
            lines.append(
                f"model error: ±{overall:.0f} % median on {count:,} published eager-PyTorch "
                f"runs; {w.stack}: {stack_basis(w)}"
            )
        same = [r for r in rows if r.gpu_count == analysis.build.gpu_count]
        short = same[0].text() if same else (rows[0].text() if rows else "no published run")
        return short, "\n".join(lines)

    def can_apply(self, check: Check) -> bool:
        """Whether *Apply fix* can make the check's fix (a change, not only advice)."""
        return check.severity != "pass" and check.fix is not None and check.fix.applicable

    def apply_fix(self, check: Check) -> str | None:
        if check.fix is None:
            return self.session_view_model._reject("this check has no fix")
        return self.session_view_model.apply_fix(check.fix)
