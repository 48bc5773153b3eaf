"""The window's three tabs: Build (the editors), Compare (builds side by side) and Suggest."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QTabWidget, QWidget

from gui.viewmodels.comparison import ComparisonViewModel
from gui.viewmodels.settings import AppSettings, SettingsViewModel
from gui.viewmodels.suggest import SuggestViewModel
from gui.views.compare_panel import ComparePanel
from gui.views.suggest_panel import SuggestPanel

BUILD_TAB, COMPARE_TAB, SUGGEST_TAB = range(3)


class WorkspaceTabs(QTabWidget):
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
        self.compare_panel = ComparePanel(self.comparison, lambda: settings.money)
        self.suggest_panel = SuggestPanel(self.suggest)
        self.addTab(build_page, "Build")
        self.addTab(self.compare_panel, "Compare")
        self.addTab(self.suggest_panel, "Suggest")
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

    def _on_settings_changed(self, settings: AppSettings) -> None:
        self.compare_panel.set_theme(settings.theme)
        self.comparison.refresh()
        self.suggest_panel.chart.set_theme(settings.theme)

    def _on_current_changed(self, index: int) -> None:
        self.comparison.set_active(index != BUILD_TAB)

    def _on_suggest_build_opened(self, _index: int) -> None:
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
