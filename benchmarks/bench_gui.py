"""Edit-to-repaint latency of the main window (offscreen): prints figures, asserts nothing.

Each sample makes one edit through the view-model (as the editors do), then
forces a synchronous repaint of the whole window (``QWidget.repaint``) and
processes pending events. Run: ``QT_QPA_PLATFORM=offscreen python -m benchmarks.bench_gui``.
Each edit runs ``analyze()`` exactly once (tests/gui/test_main_window_editing.py).

Median ms per edit (offscreen, 60 samples), target ≤ 50 (a frame, 17 ms, not yet met
for build edits):

    edit          before   rebuilt   lazy pickers
    GPU count       70       37         30
    GPU model      123       34         29
    batch size     137       24         12
    undo           275       31         25

Before: the checks table was rebuilt with a new "Apply fix" button per row and row
heights fitted to wrapped text on every edit (the replaced buttons piled up, as
``processEvents`` never runs deferred deletes), and the charts re-laid out their
tick labels on every paint. "Lazy pickers": which parts fit the build is worked out for
the seven part pickers 40 ms after the edit (``part_picker.REFRESH_DELAY_MS``), or at once
when a list opens, instead of before the repaint; edits closer together than that share
one refill. The figures include the Compare tab's own refresh. What remains is Qt
painting the whole window (about a third), the results panel and the charts.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from gui.app import create_main_window

SAMPLES = 60


def measure() -> dict[str, dict[str, float]]:
    """Median, p95 and max milliseconds from one edit to the end of its repaint."""
    app = QApplication.instance() or QApplication([])
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = QSettings(str(Path(tmp) / "b.ini"), QSettings.Format.IniFormat)
        window = create_main_window(
            store=store, autosave_dir=Path(tmp) / "a", settings_path=Path(tmp) / "s.json"
        )
        window.resize(1600, 1000)
        window.show()
        app.processEvents()
        vm = window.session_view_model
        gpus = [p.id for p in vm.catalog.parts("gpu")][:6]
        edits = {
            "GPU count": lambda i: window.build_editor.gpu_count.setValue(1 + i % 4),
            "GPU model": lambda i: window.build_editor.pickers["gpu"].choose(gpus[i % len(gpus)]),
            "batch size": lambda i: window.workload_editor.input("batch_size").setValue(
                64 + 32 * (i % 4)
            ),
            "undo": lambda _i: vm.undo_stack.undo(),
        }
        for name, edit in edits.items():
            times = []
            for i in range(SAMPLES):
                start = time.perf_counter()
                edit(i)
                window.repaint()
                app.processEvents()
                times.append((time.perf_counter() - start) * 1e3)
            times.sort()
            figures[name] = {
                "median_ms": round(statistics.median(times), 1),
                "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
                "max_ms": round(times[-1], 1),
            }
        window.document.new_document(window.session_view_model.session)  # nothing to ask
        window.close()
    return figures


def main() -> None:
    print(f"{'edit':<12}{'median ms':>10}{'p95 ms':>9}{'max ms':>9}")
    for name, row in measure().items():
        print(f"{name:<12}{row['median_ms']:>10.1f}{row['p95_ms']:>9.1f}{row['max_ms']:>9.1f}")


if __name__ == "__main__":
    main()
