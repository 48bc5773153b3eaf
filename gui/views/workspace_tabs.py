"""The window's three tabs: Build (the editors), Compare (builds side by side) and Suggest.

The Compare and Suggest pages (and their charts) are made the first time they are shown,
so start-up pays only for the Build tab.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from gui.viewmodels.comparison import ComparisonViewModel
from gui.viewmodels.settings import AppSettings, SettingsViewModel
from gui.viewmodels.suggest import SuggestViewModel

if TYPE_CHECKING:
    from gui.views.compare_panel import ComparePanel
    from gui.views.suggest_panel import SuggestPanel

BUILD_TAB, COMPARE_TAB, SUGGEST_TAB = range(3)


class WorkspaceTabs(QTabWidget):
    system_shown = Signal(int)
    """Compare asked to plan the document's system of this index in the Build tab."""

    def __init__(
        self,
        comparison: ComparisonViewModel,
        suggest: SuggestViewModel,
        build_page: QWidget,
        settings: SettingsViewModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.comparison = comparison
        self.suggest = suggest
        self._settings = settings
        self._compare: ComparePanel | None = None
        self._suggest: SuggestPanel | None = None
        self._compare_page, self._suggest_page = QWidget(), QWidget()
        self._compare_layout = QVBoxLayout(self._compare_page)
        self._suggest_layout = QVBoxLayout(self._suggest_page)
        for layout in (self._compare_layout, self._suggest_layout):
            layout.setContentsMargins(0, 0, 0, 0)
        self.addTab(build_page, "Build")
        self.addTab(self._compare_page, "Compare")
        self.addTab(self._suggest_page, "Suggest")
        for index in range(self.count()):
            shortcut = QShortcut(QKeySequence(f"Ctrl+{index + 1}"), self)
            shortcut.activated.connect(lambda i=index: self.setCurrentIndex(i))
            self.setTabToolTip(index, f"Ctrl+{index + 1}")
        self.suggest.build_opened.connect(self._on_suggest_build_opened)
        self.currentChanged.connect(self._on_current_changed)
        self._on_current_changed(self.currentIndex())
        self._watching_window = False
        settings.settings_changed.connect(self._on_settings_changed)
        self._on_settings_changed(settings.settings)

    @property
    def compare_panel(self) -> ComparePanel:
        if self._compare is None:
            from gui.views.compare_panel import ComparePanel

            self._compare = ComparePanel(self.comparison, lambda: self._settings.money)
            self._compare.system_shown.connect(self._on_compare_system_shown)
            self._compare.set_theme(self._settings.settings.theme)
            self._compare_layout.addWidget(self._compare)
        return self._compare

    @property
    def suggest_panel(self) -> SuggestPanel:
        if self._suggest is None:
            from gui.views.suggest_panel import SuggestPanel

            self._suggest = SuggestPanel(self.suggest)
            self._suggest.chart.set_theme(self._settings.settings.theme)
            self._suggest_layout.addWidget(self._suggest)
        return self._suggest

    def _on_settings_changed(self, settings: AppSettings) -> None:
        if self._compare is not None:
            self._compare.set_theme(settings.theme)
        self.comparison.refresh()
        if self._suggest is not None:
            self._suggest.chart.set_theme(settings.theme)

    def _on_current_changed(self, index: int) -> None:
        if index == COMPARE_TAB:
            _ = self.compare_panel
        elif index == SUGGEST_TAB:
            _ = self.suggest_panel
        self.comparison.set_active(index != BUILD_TAB)

    def _on_suggest_build_opened(self, _index: int) -> None:
        self.setCurrentIndex(BUILD_TAB)

    def _on_compare_system_shown(self, index: int) -> None:
        self.system_shown.emit(index)
        self.setCurrentIndex(BUILD_TAB)

    def showEvent(self, event: object) -> None:
        if not self._watching_window:  # stop a running search when the window closes
            self.window().installEventFilter(self)
            self._watching_window = True
        super().showEvent(event)  # type: ignore[arg-type]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Hide and not event.spontaneous():
            self.suggest.shutdown()
        return False
