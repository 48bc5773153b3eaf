"""The main window: editors on the left, results in the centre, charts on the right."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QObject, QPoint, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeyEvent,
    QKeySequence,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.models.analysis import Analysis
from core.text.verdict import build_verdict
from gui.charts.panel import ChartsPanel
from gui.theme import apply_theme
from gui.viewmodels.root import ViewModels, new_session
from gui.viewmodels.settings import AppSettings
from gui.viewmodels.system_build import SystemBuildViewModel
from gui.views import plain
from gui.views.about_dialog import AboutDialog
from gui.views.build_editor import BuildEditorPanel
from gui.views.export_actions import ExportActions
from gui.views.file_actions import FileActions
from gui.views.plan_actions import PlanActions
from gui.views.results_panel import ResultsPanel
from gui.views.settings_dialog import SettingsDialog
from gui.views.system_panel import SystemEditor, SystemResults
from gui.views.workload_editor import WorkloadEditorPanel
from gui.views.workspace_tabs import WorkspaceTabs

GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
SPLITTER_KEY = "window/splitter"
EDITORS_WIDTH = 400
DEFAULT_SIZE = QSize(1600, 1000)
BUILD_KINDS = ("Assembled from parts", "Prebuilt system")
PARTS_KIND, SYSTEM_KIND = range(2)


if TYPE_CHECKING:
    from gui.views.prices_dialog import PricesDialog


def _tip(action: QAction, verb: str, text: str) -> None:
    if not shiboken6.isValid(action):
        return  # the window is gone; the undo stack outlives it
    action.setStatusTip(f"{verb}: {text}" if text else f"Nothing to {verb.lower()}")


class DocumentUndoKeys(QObject):
    """Lets Undo and Redo reach the Edit menu while a spin box or a part/model picker of
    the main window has the focus: those fields commit each change to the document at
    once, so their own text undo would undo nothing the user sees (and swallow Ctrl+Z).
    Free-text fields (names, notes) keep their text undo."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(watched, QWidget):
            return False
        key = cast(QKeyEvent, event)
        if not (
            key.matches(QKeySequence.StandardKey.Undo)
            or key.matches(QKeySequence.StandardKey.Redo)
            or QKeySequence(key.keyCombination()) == QKeySequence("Ctrl+Y")
        ):
            return False
        field = watched.parentWidget() if isinstance(watched, QLineEdit) else watched
        # consumed, so not overridden: the window's Undo/Redo shortcut fires
        return isinstance(field, QAbstractSpinBox | QComboBox) and field.window() is self._window


class MainWindow(QMainWindow):
    def __init__(self, view_models: ViewModels, store: QSettings | None = None) -> None:
        super().__init__()
        self.view_models = view_models
        for view_model in view_models.all():  # they must not outlive the window's slots
            view_model.setParent(self)
        session, analysis = view_models.session, view_models.analysis
        settings = view_models.settings
        self.session_view_model = session
        self.analysis_view_model = analysis
        self.settings_view_model = settings
        self.document = view_models.document
        self.autosave = view_models.autosave
        self._store = store if store is not None else QSettings()
        self.setAcceptDrops(True)
        self.build_editor = BuildEditorPanel(session)
        self.workload_editor = WorkloadEditorPanel(session)
        self.results = ResultsPanel(analysis, settings)
        self.parts_panel = self.results.parts_panel
        self.charts = ChartsPanel()
        self.system_build = SystemBuildViewModel(session, self)
        self.kind = QComboBox()
        self.kind.addItems(list(BUILD_KINDS))
        self.kind.setToolTip(
            plain.tip(
                "Assemble a workstation from parts, or plan a prebuilt unified-memory system "
                "(DGX Spark, Ryzen AI Max+ 395 boxes, Mac Studio) for the same workload"
            )
        )
        self.system_editor = SystemEditor(self.system_build)
        self.system_results = SystemResults(self.system_build)
        self.system_editor.hide()
        self.system_results.hide()
        kind_row = QHBoxLayout()
        kind_row.addWidget(plain.label("Build:"))
        kind_row.addWidget(self.kind, 1)
        editors = QWidget()
        column = QVBoxLayout(editors)
        column.setContentsMargins(4, 4, 4, 4)
        column.setSpacing(4)
        column.addLayout(kind_row)
        column.addWidget(self.build_editor)
        column.addWidget(self.system_editor)
        column.addWidget(self.workload_editor)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(editors)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        # starts wide enough for the editors' own minimum (nothing clipped); on a small
        # screen the column may be narrowed and then scrolls sideways
        self.editors_width = max(
            EDITORS_WIDTH,
            editors.minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width() + 4,
        )
        scroll.setMinimumWidth(EDITORS_WIDTH)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(self.results)
        self.splitter.addWidget(self.charts)
        self.splitter.addWidget(self.system_results)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setSizes([self.editors_width, 680, 540])
        self.workspace = WorkspaceTabs(
            view_models.comparison, view_models.suggest, self.splitter, settings
        )
        self.setCentralWidget(self.workspace)
        self.file_actions = FileActions(
            self,
            self.document,
            lambda: new_session(session.catalog, settings),
            session.import_part_list,
        )
        self.export_actions = ExportActions(
            self, view_models, lambda title, text: self.file_actions.show_error(title, text)
        )
        self.plan_actions = PlanActions(self, view_models.plan, lambda: settings.money)
        self.results.banner.plan_requested.connect(self.plan_actions.start)
        self.prices_dialog: PricesDialog | None = None
        self._make_menus()
        self.document.dirty_changed.connect(self._on_document_dirty_changed)
        self.document.path_changed.connect(self._on_document_path_changed)
        if self.autosave is not None:
            self.autosave.failed.connect(self._on_autosave_failed)
        analysis.analysis_changed.connect(self._on_analysis_changed)
        self.kind.activated.connect(self._on_kind_activated)
        self.workspace.system_shown.connect(self.system_build.show_system)
        self.system_build.changed.connect(self._on_system_build_changed)
        session.edit_rejected.connect(self._on_session_edit_rejected)
        self.parts_panel.price_entered.connect(self._on_parts_panel_price_entered)
        self.parts_panel.used_toggled.connect(self._on_parts_panel_used_toggled)
        self.parts_panel.quote_edited.connect(self.session_view_model.set_quote)
        self.parts_panel.order_edited.connect(self.session_view_model.set_order)
        self.parts_panel.paste_button.clicked.connect(self._on_parts_panel_paste_clicked)
        self.parts_panel.entry_refused.connect(self._on_parts_panel_entry_refused)
        session.undo_stack.indexChanged.connect(self._on_undo_stack_index_changed)
        settings.settings_changed.connect(self._on_settings_changed)
        view_models.prices.catalog_changed.connect(self._on_prices_catalog_changed)
        self._update_title()
        self._restore_geometry()
        self._on_settings_changed(settings.settings)
        self._on_analysis_changed(analysis.analysis)
        catalog = session.catalog
        self.statusBar().showMessage(
            f"Catalog: {len(catalog)} parts, prices up to {catalog.snapshot_date or 'unknown'}"
            + (f" — {settings.load_error}" if settings.load_error else "")
        )

    # -- menus -----------------------------------------------------------------------

    def _action(self, text: str, shortcut: QKeySequence | str | None, slot: object) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def _make_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.file_actions.install(file_menu)
        self.export_actions.install(file_menu)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        edit_menu = self.menuBar().addMenu("&Edit")
        stack = self.session_view_model.undo_stack
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = stack.createRedoAction(self, "&Redo")
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        if QKeySequence("Ctrl+Y") not in redo_keys:
            redo_keys.append(QKeySequence("Ctrl+Y"))  # what Windows users press
        self.redo_action.setShortcuts(redo_keys)
        # the document's undo wins over a spin box's or picker's own text undo; the filter
        # sits on those fields only (on the application it would see every paint event)
        self._undo_keys = DocumentUndoKeys(self)
        for field in self.findChildren(QAbstractSpinBox) + self.findChildren(QComboBox):
            field.installEventFilter(self._undo_keys)
            editor = field.findChild(QLineEdit)
            if editor is not None:
                editor.installEventFilter(self._undo_keys)
        # status tips in words (the actions' own texts carry the menu's "&" accelerators)
        self.undo_action.setStatusTip("Nothing to undo")
        self.redo_action.setStatusTip("Nothing to redo")
        stack.undoTextChanged.connect(self._on_undo_stack_undo_text_changed)
        stack.redoTextChanged.connect(self._on_undo_stack_redo_text_changed)
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        self.size_psu_action = self._action("Size the &PSU for me", "Ctrl+Shift+P", self.size_psu)
        self.add_gpu_action = self._action("Add a GPU", "Ctrl+=", self._on_add_gpu_triggered)
        self.remove_gpu_action = self._action(
            "Remove a GPU", "Ctrl+-", self._on_remove_gpu_triggered
        )
        for action in (self.size_psu_action, self.add_gpu_action, self.remove_gpu_action):
            edit_menu.addAction(action)
        edit_menu.addAction(self.plan_actions.action)
        edit_menu.addSeparator()
        self.prices_action = self._action("P&rices…", "Ctrl+Shift+R", self.open_prices)
        edit_menu.addAction(self.prices_action)
        self.settings_action = self._action("&Settings…", "Ctrl+,", self.open_settings)
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        edit_menu.addAction(self.settings_action)
        help_menu = self.menuBar().addMenu("&Help")
        self.accuracy_action = self._action(
            "How &accurate is RigForge?", None, self._on_accuracy_triggered
        )
        help_menu.addAction(self.accuracy_action)
        about = self._action("&About RigForge", None, self._on_about_triggered)
        help_menu.addAction(about)

    # -- view-model -> window --------------------------------------------------------------

    def _on_kind_activated(self, index: int) -> None:
        if index == SYSTEM_KIND:
            problem = self.system_build.show_system()
            if isinstance(problem, str):
                self.statusBar().showMessage(problem, 8000)
                self.kind.setCurrentIndex(PARTS_KIND)
        else:
            self.system_build.show_parts()

    def _on_system_build_changed(self) -> None:
        """Swap the Build tab between the parts build and the prebuilt system."""
        system = self.system_build.index is not None
        self.kind.setCurrentIndex(SYSTEM_KIND if system else PARTS_KIND)
        parts: tuple[QWidget, ...] = (self.build_editor, self.results, self.charts)
        for widget in parts:
            widget.setVisible(not system)
        for widget in (self.system_editor, self.system_results):
            widget.setVisible(system)
        # the parts build's own edits have nothing to act on while a system is shown
        for action in (
            self.size_psu_action,
            self.add_gpu_action,
            self.remove_gpu_action,
            self.plan_actions.action,
        ):
            action.setEnabled(not system)
        self.system_results.refresh()

    def _on_analysis_changed(self, analysis: Analysis) -> None:
        self.charts.show_analysis(analysis)

    def _on_parts_panel_price_entered(self, part_id: str, usd: float) -> None:
        problem = self.view_models.prices.set_price(part_id, usd)
        if problem is not None:
            self._on_parts_panel_entry_refused(problem)
        else:
            self.statusBar().showMessage(
                f"Your price for {self.view_models.prices.part_name(part_id)}: ${usd:,.2f} "
                "(kept as your override)",
                8000,
            )

    def _on_prices_catalog_changed(self, _catalog: object) -> None:
        self.build_editor.refresh_parts()  # the pickers show each part's price

    def _on_parts_panel_paste_clicked(self) -> None:
        text = QApplication.clipboard().text()
        if not text.strip():
            self.statusBar().showMessage(
                "The clipboard holds no text: copy a PCPartPicker list's Markdown or Text "
                "export first",
                8000,
            )
            return
        self.file_actions.import_text(text, "the clipboard")

    def _on_parts_panel_used_toggled(self, part_id: str, used: bool) -> None:
        self.session_view_model.set_used(part_id, used)

    def _on_parts_panel_entry_refused(self, message: str) -> None:
        self.statusBar().showMessage(f"Not changed: {message}", 8000)
        self.parts_panel.show_again(self.analysis_view_model.analysis)

    def _on_session_edit_rejected(self, message: str) -> None:
        self.statusBar().showMessage(f"Not changed: {message}", 8000)

    def _on_undo_stack_undo_text_changed(self, text: str) -> None:
        _tip(self.undo_action, "Undo", text)

    def _on_undo_stack_redo_text_changed(self, text: str) -> None:
        _tip(self.redo_action, "Redo", text)

    def _on_undo_stack_index_changed(self, _index: int) -> None:
        # after the event that moved the stack: opening a file clears the stack before
        # the new document is analysed, and the verdict must be the new one's
        QTimer.singleShot(0, self._show_edit_status)

    def _show_edit_status(self) -> None:
        stack = self.session_view_model.undo_stack
        text = stack.undoText().replace("&", "")
        verdict = build_verdict(self.analysis_view_model.analysis).headline
        self.statusBar().showMessage(f"{text} — {verdict}" if text else verdict, 5000)

    def _on_settings_changed(self, settings: AppSettings) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, settings.theme)
        self.charts.set_theme(settings.theme)
        if self.settings_view_model.save_error:
            self.statusBar().showMessage(self.settings_view_model.save_error, 8000)

    # -- intents ---------------------------------------------------------------------------

    def open_settings(self) -> SettingsDialog:
        self.settings_dialog = SettingsDialog(
            self.settings_view_model.settings,
            self.session_view_model.settings,
            self.settings_view_model.currencies(),
            self,
        )
        self.settings_dialog.accepted.connect(self._on_settings_dialog_accepted)
        self.settings_dialog.open()
        return self.settings_dialog

    def open_prices(self, part_id: str | None = None) -> PricesDialog:
        """Edit → Prices…; with ``part_id``, open that part's price for editing."""
        if self.prices_dialog is None:
            from gui.views.prices_dialog import PricesDialog  # made when first used

            self.prices_dialog = PricesDialog(self.view_models.prices, self)
        self.prices_dialog.show()
        self.prices_dialog.raise_()
        if part_id is not None:
            self.prices_dialog.edit_price_of(part_id)
        return self.prices_dialog

    def _on_settings_dialog_accepted(self) -> None:
        dialog = self.settings_dialog
        self.session_view_model.set_settings(dialog.document_settings())
        self.settings_view_model.set_settings(dialog.preferences())

    def size_psu(self) -> None:
        self.session_view_model.size_psu()

    def _on_add_gpu_triggered(self) -> None:
        vm = self.session_view_model
        vm.set_value("gpu_count", vm.build.gpu_count + 1)

    def _on_remove_gpu_triggered(self) -> None:
        vm = self.session_view_model
        if vm.build.gpu_count > 1:
            vm.set_value("gpu_count", vm.build.gpu_count - 1)

    def _on_accuracy_triggered(self) -> None:
        from gui.views.accuracy_dialog import AccuracyDialog

        self.accuracy_dialog = AccuracyDialog(self)
        self.accuracy_dialog.open()

    def _on_about_triggered(self) -> None:
        self.about_dialog = AboutDialog(self.session_view_model.catalog, self)
        self.about_dialog.open()

    # -- title, geometry, files --------------------------------------------------------------

    def _update_title(self) -> None:
        name = (
            self.document.display_name if self.document.path else self.session_view_model.build.name
        )
        self.setWindowTitle(f"RigForge — {name}[*]")
        self.setWindowModified(self.document.dirty)

    def _on_document_dirty_changed(self, _dirty: bool) -> None:
        self._update_title()

    def _on_document_path_changed(self, _path: object) -> None:
        self._update_title()

    def _available_geometry(self) -> QRect:
        screen = self.screen() or QApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else QRect(QPoint(), DEFAULT_SIZE)

    def _restore_geometry(self) -> None:
        """The saved geometry if it fits the screen, else the screen's available area."""
        available = self._available_geometry()
        self.resize(DEFAULT_SIZE.boundedTo(available.size()))
        saved = self._store.value(GEOMETRY_KEY)
        if isinstance(saved, QByteArray | bytes) and self.restoreGeometry(QByteArray(saved)):
            if not available.contains(self.frameGeometry()):
                self.setGeometry(available)
        else:
            self.move(available.topLeft())
        for key, restore in (
            (STATE_KEY, self.restoreState),
            (SPLITTER_KEY, self.splitter.restoreState),
        ):
            value = self._store.value(key)
            if isinstance(value, QByteArray | bytes):
                restore(QByteArray(value))
        sizes = self.splitter.sizes()
        if sum(sizes) > available.width() or min(sizes, default=0) <= 0:
            self.splitter.setSizes([self.editors_width, 680, 540])

    def save_geometry(self) -> None:
        self._store.setValue(GEOMETRY_KEY, self.saveGeometry())
        self._store.setValue(STATE_KEY, self.saveState())
        self._store.setValue(SPLITTER_KEY, self.splitter.saveState())
        self._store.sync()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.file_actions.can_drop(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if self.file_actions.drop(event.mimeData()):
            event.acceptProposedAction()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_editors(event.size().width())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_editors(self.width())

    def _fit_editors(self, width: int) -> None:
        """On a small screen the editors keep their narrow column (they scroll sideways)
        so the results and charts keep room for their labels and legends."""
        sizes = self.splitter.sizes()
        if width < 1600 and len(sizes) == 3 and sizes[0] > EDITORS_WIDTH:
            spare = sizes[0] - EDITORS_WIDTH
            self.splitter.setSizes(
                [EDITORS_WIDTH, sizes[1] + spare // 2, sizes[2] + spare - spare // 2]
            )

    def _on_autosave_failed(self, message: str) -> None:
        self.statusBar().showMessage(message[:1].upper() + message[1:], 10000)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.file_actions.maybe_save():
            self.save_geometry()
            self.file_actions.shutdown()
            self.view_models.prices.shutdown()
            self.view_models.plan.shutdown()
            if self.autosave is not None:  # a clean exit leaves nothing to recover
                self.autosave.stop()
                self.autosave.discard()
                self.autosave.release()
            event.accept()
        else:
            event.ignore()
