"""``rigforge --selftest``: check that an installed RigForge can do its main jobs.

Runs each step of ``SELFTEST_STEPS`` in order, prints one line per step and
stops at the first failure; the exit status is 0 only when every step passed,
and a failure names its step. Used by CI on the PyInstaller bundle, and by
users whose copy misbehaves. Nothing is written outside a temporary folder:
settings and autosave go there too, so the user's own state is never touched.

Adding a step is one entry in ``SELFTEST_STEPS``: a ``SelftestStep`` whose
function takes the shared ``SelftestContext`` (catalog, default build, its
analysis, the rendered window and ``workdir``, the temporary folder for files
such as an exported PDF) and returns a short detail for the report.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from core.calc import analyze
from core.catalog import Catalog, load_catalog
from core.catalog.builds import default_build
from core.models.analysis import Analysis
from core.models.build import Build
from core.workloads import find_preset, load_presets, make_workload

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

SELFTEST_WORKLOAD = "resnet50-v1.5"
"""Preset analysed with the default build, so memory and throughput run too."""


@dataclass
class SelftestContext:
    """What earlier steps produced, for later steps to use."""

    workdir: Path
    catalog: Catalog | None = None
    build: Build | None = None
    analysis: Analysis | None = None
    window: QMainWindow | None = None
    keep_alive: list[object] = field(default_factory=list)


@dataclass(frozen=True)
class SelftestStep:
    name: str
    run: Callable[[SelftestContext], str]


class SelftestError(Exception):
    """A step found something wrong (rather than crashing)."""


def _require(value: object, what: str) -> None:
    if value is None:
        raise SelftestError(f"no {what} (an earlier step did not run)")


def check_catalog(context: SelftestContext) -> str:
    catalog = load_catalog()
    if len(catalog) == 0:
        raise SelftestError("the bundled catalog is empty")
    context.catalog = catalog
    return f"{len(catalog)} parts"


def check_presets(context: SelftestContext) -> str:
    presets = load_presets()
    if not presets:
        raise SelftestError("no workload presets")
    find_preset(SELFTEST_WORKLOAD)
    return f"{len(presets)} workload presets"


def check_default_build(context: SelftestContext) -> str:
    _require(context.catalog, "catalog")
    assert context.catalog is not None
    build = default_build(context.catalog)
    workload = make_workload(find_preset(SELFTEST_WORKLOAD))
    analysis = analyze(build, workload, catalog=context.catalog)
    if analysis.throughput is None or analysis.vram is None:
        raise SelftestError(f"'{build.name}' with {workload.name}: no memory or throughput result")
    context.build, context.analysis = build, analysis
    return f"'{build.name}' with {workload.name}: verdict {analysis.verdict}"


def check_main_window(context: SelftestContext) -> str:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QApplication

    from gui.app import create_main_window

    app = QApplication.instance()
    _require(app, "QApplication")
    if not QFontDatabase.families():
        raise SelftestError("no fonts found: text would render as empty boxes (fontconfig?)")
    store = QSettings(str(context.workdir / "settings.ini"), QSettings.Format.IniFormat)
    window = create_main_window(store=store, autosave_dir=context.workdir / "autosave")
    context.window = window
    context.keep_alive.append(store)
    window.show()
    QApplication.processEvents()
    image = window.grab().toImage()
    if image.isNull() or image.width() == 0 or image.height() == 0:
        raise SelftestError("the main window rendered an empty image")
    # One colour everywhere means nothing but the background was painted.
    first = image.pixel(0, 0)
    step = max(1, min(image.width(), image.height()) // 64)
    painted = any(
        image.pixel(x, y) != first
        for y in range(0, image.height(), step)
        for x in range(0, image.width(), step)
    )
    if not painted:
        raise SelftestError("the main window rendered a blank image")
    return f"{image.width()}x{image.height()} px, title '{window.windowTitle()}'"


def check_export_pdf(context: SelftestContext) -> str:
    """Export the default build's sheet to ``workdir`` and read it back as a PDF."""
    _require(context.analysis, "analysis")
    _require(context.catalog, "catalog")
    assert context.analysis is not None and context.catalog is not None
    from gui.pdf import export_sheet, sheet_from_analyses

    sheet = sheet_from_analyses((context.analysis,), context.catalog)
    path = context.workdir / "selftest-sheet.pdf"
    export_sheet(path, sheet)
    data = path.read_bytes()
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-1024:]:
        raise SelftestError(f"{path.name} is not a complete PDF")
    return f"{len(data) / 1024:.0f} KiB"


SELFTEST_STEPS: tuple[SelftestStep, ...] = (
    SelftestStep("load_catalog", check_catalog),
    SelftestStep("load_presets", check_presets),
    SelftestStep("analyse_default_build", check_default_build),
    SelftestStep("render_main_window", check_main_window),
    SelftestStep("export_pdf", check_export_pdf),
)
"""Run in this order; a step may use what earlier ones put in the context."""


def run_steps(steps: Sequence[SelftestStep], workdir: Path, out: TextIO = sys.stdout) -> str | None:
    """Run ``steps``; return the name of the first that failed, or None."""
    context = SelftestContext(workdir=workdir)
    try:
        for index, step in enumerate(steps):
            started = time.perf_counter()
            try:
                detail = step.run(context)
            except Exception as error:
                print(f"FAIL {step.name}: {type(error).__name__}: {error}", file=out)
                if not isinstance(error, SelftestError):
                    traceback.print_exc(file=out)
                for skipped in steps[index + 1 :]:
                    print(f"SKIP {skipped.name}", file=out)
                return step.name
            elapsed_ms = (time.perf_counter() - started) * 1e3
            print(f"ok   {step.name}: {detail} ({elapsed_ms:.0f} ms)", file=out)
        return None
    finally:
        if context.window is not None:
            context.window.hide()
            context.window.deleteLater()


def run_selftest(qt_args: Sequence[str] = ()) -> int:
    """Entry point of ``rigforge --selftest``; the process exit status."""
    # The self-test needs no screen; an explicit QT_QPA_PLATFORM still wins.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from core import __version__

    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])
    print(f"RigForge {__version__} self-test (Qt platform: {QApplication.platformName()})")
    with tempfile.TemporaryDirectory(prefix="rigforge-selftest-") as workdir:
        failed = run_steps(SELFTEST_STEPS, Path(workdir))
        app.processEvents()  # let deleteLater() run before the folder goes
    if failed is not None:
        print(f"self-test FAILED at step '{failed}'", file=sys.stderr)
        return 1
    print(f"self-test passed ({len(SELFTEST_STEPS)} steps)")
    return 0
