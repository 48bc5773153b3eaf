"""Edit-to-repaint latency of the main window (offscreen): prints figures, asserts nothing.

Each sample makes one edit through the editors (as a user does), then lets Qt run until
nothing is pending: the analysis, every view that shows it, and the paint of what changed
(``shown``: the time a user waits to see the edit). A second figure forces a synchronous
repaint of the whole window as well (``full``: the worst case, every widget painted again
whether it changed or not). The two kinds of sample alternate, so a slow spell of the
machine hits both. Run: ``QT_QPA_PLATFORM=offscreen python -m benchmarks.bench_gui``.
Each edit runs ``analyze()`` exactly once (tests/gui/test_main_window_editing.py).

What made it fast enough for one frame (16 ms): a new verdict, a "why?" link or a card's
text repaints its own widget and never re-lays out the results column (the banner's text
is elided to two lines and its buttons keep their room when hidden); the charts not on
screen are neither made nor redrawn; the fields that pass Undo to the document filter
their own key events, not every event of the application; the seven part pickers work out
which parts fit 40 ms after the edit (``part_picker.REFRESH_DELAY_MS``).
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

SAMPLES = 120
"""Edits of each kind: half measured as shown, half with the whole window repainted."""


def measure() -> dict[str, dict[str, float]]:
    """Median and p95 milliseconds from one edit until it is on screen (``median_ms``),
    and with the whole window repainted too (``full_median_ms``)."""
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
            shown: list[float] = []
            full: list[float] = []
            for i in range(SAMPLES):
                start = time.perf_counter()
                edit(i)
                if i % 2:
                    window.repaint()
                app.processEvents()
                (full if i % 2 else shown).append((time.perf_counter() - start) * 1e3)
            for kind, times in (("", shown), ("full_", full)):
                times.sort()
                figures.setdefault(name, {}).update(
                    {
                        f"{kind}median_ms": round(statistics.median(times), 1),
                        f"{kind}p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
                    }
                )
        window.document.new_document(window.session_view_model.session)  # nothing to ask
        window.close()
    return figures


def main() -> None:
    print(f"{'edit':<12}{'shown ms':>9}{'p95':>7}{'full ms':>9}{'p95':>7}")
    for name, row in measure().items():
        print(
            f"{name:<12}{row['median_ms']:>9.1f}{row['p95_ms']:>7.1f}"
            f"{row['full_median_ms']:>9.1f}{row['full_p95_ms']:>7.1f}"
        )


if __name__ == "__main__":
    main()
