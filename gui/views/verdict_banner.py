"""The build's verdict at a glance: "Won't work — 3 problems: …" with a one-click fix."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton

from core.models.analysis import Analysis
from core.models.checks import Check
from core.text.verdict import build_verdict
from gui.views import plain
from gui.views.summary_cards import ElidedLabel

BANNER_STYLE = {
    "fail": "background:#fdecea;color:#8e1b1b;border:1px solid #c62828;",
    "changes": "background:#fff4e0;color:#6b4000;border:1px solid #b26a00;",
    "warn": "background:#fff4e0;color:#6b4000;border:1px solid #b26a00;",
    "pass": "background:#e8f5e9;color:#1b5e20;border:1px solid #2e7d32;",
}


class VerdictBanner(QFrame):
    """One line (wrapped when long) with the verdict and its first problem."""

    fix_requested = Signal(object)
    plan_requested = Signal()
    """*Make it work*: one plan of combined changes for the whole build."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("verdictBanner")
        # two lines at most, elided (the tooltip holds it whole): a new verdict repaints
        # the banner only, never re-lays out the results column below it
        self.label = ElidedLabel(2)
        self.fix_button = QPushButton("Apply fix")
        self.fix_button.setToolTip(
            plain.tip("Apply the fix of the first problem (Ctrl+Z undoes it)")
        )
        self.plan_button = QPushButton("Make it work")
        self.plan_button.setToolTip(
            plain.tip(
                "Find the cheapest combined change (platform, case, PSU, power limit; the "
                "GPUs stay) that passes every check (Ctrl+Shift+M; Ctrl+Z undoes it)"
            )
        )
        self.plan_button.clicked.connect(self.plan_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.fix_button)
        layout.addWidget(self.plan_button)
        self._check: Check | None = None
        self.severity = "pass"
        self._styled = ""
        for button in (self.fix_button, self.plan_button):  # hidden, they keep their room
            policy = button.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            button.setSizePolicy(policy)
        self.fix_button.clicked.connect(self._on_fix_button_clicked)

    def show_analysis(self, analysis: Analysis, can_apply: bool) -> None:
        verdict = build_verdict(analysis)
        self.severity = verdict.severity
        self.label.setText(verdict.text)
        self.label.setToolTip(plain.tip(verdict.text))
        if verdict.severity != self._styled:
            # the label's text colour is set too (in its palette: cheaper than another
            # style sheet): under a dark palette it would inherit light text onto the
            # banner's light background
            style = BANNER_STYLE[verdict.severity]
            colour = style.split("color:")[1].split(";")[0]
            self.setStyleSheet(f"#verdictBanner{{{style}}}")
            palette = self.label.palette()
            palette.setColor(QPalette.ColorRole.WindowText, QColor(colour))
            self.label.setPalette(palette)
            self._styled = verdict.severity
        self._check = verdict.fix_check if can_apply else None
        self.fix_button.setVisible(self._check is not None)
        self.plan_button.setVisible(verdict.severity in ("fail", "changes", "warn"))

    def _on_fix_button_clicked(self) -> None:
        if self._check is not None:
            self.fix_requested.emit(self._check)
