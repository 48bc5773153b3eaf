"""Screenshots of the real window for the README and for review (run under Xvfb).

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python -m tools.screenshots.shoot OUT

writes OUT/build-1920x1080.png, OUT/build-1280x720.png, OUT/compare-….png,
OUT/suggest-….png, OUT/prices-….png, OUT/parts-….png and OUT/serving-….png (the 70B
on two RTX 4090s example) of the window on the bundled default build (the
comparison example for Compare). Settings and prices are read from a temporary HOME so
the user's own never show.
"""

from __future__ import annotations

import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

SIZES = ((1920, 1080), (1280, 720))


def main(out: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="rigforge-shots-"))
    os.environ.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
    )
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from gui.app import create_main_window
    from gui.views.workspace_tabs import BUILD_TAB, COMPARE_TAB, SUGGEST_TAB

    app = QApplication.instance() or QApplication([sys.argv[0]])
    out.mkdir(parents=True, exist_ok=True)
    example = Path(str(resources.files("resources.examples").joinpath("three-way-comparison.json")))
    for width, height in SIZES:
        store = QSettings(str(home / f"{width}.ini"), QSettings.Format.IniFormat)
        window = create_main_window(store=store, autosave_dir=home / "autosave")
        window.resize(width, height)
        window.show()
        settle(app)
        suffix = f"{width}x{height}"
        window.grab().save(str(out / f"build-{suffix}.png"))
        window.file_actions.open_path(example, ask=False)
        window.workspace.setCurrentIndex(COMPARE_TAB)
        settle(app)
        window.grab().save(str(out / f"compare-{suffix}.png"))
        window.workspace.setCurrentIndex(SUGGEST_TAB)
        panel = window.workspace.suggest_panel
        window.view_models.suggest.start(panel.request())
        for _ in range(200):
            settle(app, 50)
            if not window.view_models.suggest.running:
                break
        settle(app)
        window.grab().save(str(out / f"suggest-{suffix}.png"))
        window.workspace.setCurrentIndex(BUILD_TAB)
        dialog = window.open_prices()
        dialog.resize(min(1100, width - 80), min(640, height - 80))
        settle(app)
        dialog.grab().save(str(out / f"prices-{suffix}.png"))
        dialog.close()
        window.results.tabs.setCurrentWidget(window.parts_panel)
        settle(app)
        window.grab().save(str(out / f"parts-{suffix}.png"))
        serving = resources.files("resources.examples").joinpath("llama-70b-two-4090s.json")
        window.file_actions.open_path(Path(str(serving)), ask=False)
        window.results.tabs.setCurrentIndex(0)
        settle(app)
        window.grab().save(str(out / f"serving-{suffix}.png"))
        window.document.new_document(window.document.session)
        window.close()
    print(f"screenshots in {out}")


def settle(app: object, ms: int = 400) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots"))
