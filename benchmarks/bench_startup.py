"""Cold start to the first painted window, and to the full main window, against bare
PySide6 windows.

Each run is a fresh process, offscreen; the time is from just before the process is
spawned to the end of a window's first paint pass, read from the system-wide monotonic
clock that both processes share. RigForge is measured twice: to its first paint
(``python -m gui --selftest-first-paint``: the start-up window, on screen while the
catalog loads) and to the full main window's first paint (``--selftest-ready``: the
default build analysed, editors, results and charts drawn). The baselines are the same
measurement for a script that shows an empty ``QMainWindow`` (PySide6 alone), and one
whose window holds a pyqtgraph ``PlotWidget`` (PySide6, pyqtgraph and numpy). Runs
alternate so that a slow spell of the machine hits each. Settings and autosave go to a
temporary folder.

Run: .venv/bin/python benchmarks/bench_startup.py [runs]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5

BARE_WINDOW = """
import json, sys, time
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication(sys.argv[:1])

class FirstPaint(QObject):
    seen = False
    def eventFilter(self, watched, event):
        if not self.seen and event.type() == QEvent.Type.Paint:
            self.seen = True
            QTimer.singleShot(0, self.report)
        return False
    def report(self):
        print(json.dumps({"first_paint_monotonic_s": time.monotonic()}), flush=True)
        app.exit(0)

first_paint = FirstPaint()
app.installEventFilter(first_paint)
window = QMainWindow()
plot = pg.PlotWidget()
plot.plot([1, 2, 3], [1, 4, 9])
window.setCentralWidget(plot)
window.resize(1400, 900)
window.show()
sys.exit(app.exec())
"""


BARE_PYSIDE6 = BARE_WINDOW.replace("import pyqtgraph as pg\n", "").replace(
    "plot = pg.PlotWidget()\nplot.plot([1, 2, 3], [1, 4, 9])\nwindow.setCentralWidget(plot)\n",
    "",
)


def _first_paint_s(command: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    lines = [line for line in done.stdout.splitlines() if "first_paint_monotonic_s" in line]
    if done.returncode != 0 or not lines:
        raise RuntimeError(
            f"{' '.join(command)} exited {done.returncode} without a first paint:\n"
            f"{done.stderr[-2000:]}"
        )
    painted: float = json.loads(lines[-1])["first_paint_monotonic_s"]
    return painted - started


def measure(runs: int = RUNS) -> dict[str, Any]:
    """Medians (seconds) of ``runs`` cold starts of RigForge and of a bare PySide6 window."""
    with tempfile.TemporaryDirectory(prefix="rigforge-bench-") as home:
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "XDG_CONFIG_HOME": str(Path(home) / "config"),
            "XDG_DATA_HOME": str(Path(home) / "data"),
            "XDG_CACHE_HOME": str(Path(home) / "cache"),
            "PYTHONPATH": str(ROOT),
        }
        commands = {
            "rigforge": [sys.executable, "-m", "gui", "--selftest-first-paint"],
            "rigforge_ready": [sys.executable, "-m", "gui", "--selftest-ready"],
            "bare_pyside6": [sys.executable, "-c", BARE_PYSIDE6],
            "bare_pyside6_pyqtgraph": [sys.executable, "-c", BARE_WINDOW],
        }
        # One unmeasured run of each fills the OS file cache (the "cold" is a
        # fresh process, not a fresh disk cache, which a script cannot empty).
        for command in commands.values():
            _first_paint_s(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                times[name].append(_first_paint_s(command, env))
    medians = {name: statistics.median(runs_s) for name, runs_s in times.items()}
    return {
        **{f"{name}_median_s": round(value, 3) for name, value in medians.items()},
        "first_paint_vs_bare_pyside6": round(medians["rigforge"] / medians["bare_pyside6"], 2),
        "ready_vs_bare_pyside6": round(medians["rigforge_ready"] / medians["bare_pyside6"], 2),
        **{f"{name}_runs_s": [round(t, 3) for t in runs_s] for name, runs_s in times.items()},
        "runs": runs,
        "platform": "offscreen",
    }


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    print(json.dumps(measure(runs), indent=2))


if __name__ == "__main__":
    main()
