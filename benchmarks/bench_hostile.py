"""Legal but adversarial inputs: the time one analysis and one file open take.

- ``lane_chain_build_s``: the slowest of ``runs`` analyses of a build on a board with 14
  x16 slots where each slot loses its lanes when the one above is populated, 14 M.2
  slots, 16 GPUs and 6 drives (29.75 million placements for an exhaustive search).
- ``random_boards``: the slowest analysis over 200 random legal boards (up to 14 x16
  slots and 16 M.2 slots with random lane-sharing rules, 1-16 GPUs, 1-24 drives).
- ``lane_chain_64_builds``: a 64-build comparison of the lane-chain build: parsing and
  analysing every build (``DocumentViewModel.load``), and the window's open to the last
  analysis (``FileActions.open_path`` until ``open_finished``) with the longest gap
  between two turns of its event loop.

Run: .venv/bin/python benchmarks/bench_hostile.py
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from core.calc import analyze  # noqa: E402
from core.catalog import load_catalog  # noqa: E402
from core.models.build import DriveSelection  # noqa: E402
from core.models.parts import Motherboard  # noqa: E402
from gui.viewmodels.session import default_workload  # noqa: E402
from tests.core import check_parts as parts  # noqa: E402
from tests.hostile.corpus import _doc, lane_chain  # noqa: E402


def _random_board(rng: random.Random) -> Motherboard:
    slots = rng.randint(1, 14)
    m2 = rng.randint(0, 16)
    ids = [f"S{i}" for i in range(1, slots + 1)] + [f"M{i}" for i in range(1, m2 + 1)]

    def rules(own: str) -> list[dict[str, Any]]:
        others = [i for i in ids if i != own]
        picked = rng.sample(others, k=min(len(others), rng.randint(0, 3)))
        return [{"when_populated": p, "lanes": rng.choice([0, 4, 8])} for p in picked]

    return parts.am5_board(
        pcie_slots=[
            {
                "id": f"S{i}",
                "position": i,
                "gen": rng.choice([3, 4, 5]),
                "lanes": rng.choice([4, 8, 16]),
                "attached_to": rng.choice(["cpu", "chipset"]),
                "lane_rules": rules(f"S{i}"),
            }
            for i in range(1, slots + 1)
        ],
        m2_slots=[
            {
                "id": f"M{i}",
                "gen": rng.choice([3, 4, 5]),
                "attached_to": rng.choice(["cpu", "chipset"]),
                "lane_rules": rules(f"M{i}"),
            }
            for i in range(1, m2 + 1)
        ],
    )


def _slowest_analysis(builds: list[Any]) -> float:
    catalog, workload = load_catalog(), default_workload()
    slowest = 0.0
    for build in builds:
        started = time.perf_counter()
        analyze(build, workload, None, catalog)
        slowest = max(slowest, time.perf_counter() - started)
    return slowest


def _open_in_window(path: Path) -> dict[str, float]:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from gui.app import create_main_window

    app = QApplication.instance() or QApplication([])
    folder = path.parent
    window = create_main_window(
        store=QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat),
        autosave_dir=folder / "autosave",
        settings_path=folder / "settings.json",
    )
    window.show()
    app.processEvents()
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    loop = QEventLoop()
    window.file_actions.open_finished.connect(lambda _ok: loop.quit())
    timer.start()
    started = time.perf_counter()
    window.file_actions.open_path(path, ask=False)
    loop.exec()
    wall = time.perf_counter() - started
    timer.stop()
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    window.file_actions.shutdown()
    window.close()
    return {"open_wall_s": round(wall, 3), "longest_event_loop_gap_ms": round(max(gaps) * 1e3)}


def measure(runs: int = 5) -> dict[str, Any]:
    chain = parts.build(
        motherboard=parts.am5_board(
            pcie_slots=[
                {
                    "id": f"S{i}",
                    "position": i,
                    "gen": 5,
                    "lanes": 16,
                    "attached_to": "cpu",
                    "lane_rules": [{"when_populated": f"S{i - 1}", "lanes": 0}] if i > 1 else [],
                }
                for i in range(1, 15)
            ],
            m2_slots=[{"id": f"M{i}", "gen": 5, "attached_to": "cpu"} for i in range(1, 15)],
        ),
        gpu=parts.gpu(slot_width=1),
        gpu_count=16,
        drives=[DriveSelection(drive=parts.nvme(), count=6)],
    )
    rng = random.Random(50)
    boards = [
        parts.build(
            motherboard=_random_board(rng),
            gpu=parts.gpu(slot_width=rng.choice([1, 2, 3])),
            gpu_count=rng.randint(1, 16),
            drives=[DriveSelection(drive=parts.nvme(), count=rng.randint(1, 24))],
        )
        for _ in range(200)
    ]
    figures: dict[str, Any] = {
        "lane_chain_build_s": round(_slowest_analysis([chain] * runs), 4),
        "random_boards": {"builds": 200, "slowest_s": round(_slowest_analysis(boards), 4)},
    }
    with tempfile.TemporaryDirectory(prefix="rigforge-bench-") as folder:
        path = Path(folder) / "lane-chain-64.json"
        path.write_bytes(_doc(lane_chain(builds=64)))
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication

        from core.prices.cloud import load_cloud_rates
        from gui.viewmodels.root import build_view_models

        QApplication.instance() or QApplication([])
        vms = build_view_models(
            load_catalog(),
            load_cloud_rates().rates,
            store=QSettings(str(Path(folder) / "v.ini"), QSettings.Format.IniFormat),
            settings_path=Path(folder) / "vs.json",
            autosave_dir=Path(folder) / "va",
        )
        started = time.perf_counter()
        loaded = vms.document.load(path=path)
        load_s = time.perf_counter() - started
        if isinstance(loaded, str):
            raise RuntimeError(loaded)
        figures["lane_chain_64_builds"] = {
            "parse_and_analyse_s": round(load_s, 3),
            **_open_in_window(path),
        }
    return figures


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
