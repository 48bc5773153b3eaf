"""Render the PNG icon sizes from the SVG (run after editing the SVG).

Run: .venv/bin/python packaging/render_icons.py
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent / "icons" / "hicolor"
NAME = "io.github.rigforge.RigForge"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def main() -> None:
    _app = QGuiApplication([])
    renderer = QSvgRenderer(str(ICONS / "scalable" / "apps" / f"{NAME}.svg"))
    if not renderer.isValid():
        raise SystemExit("the SVG icon does not parse")
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = ICONS / f"{size}x{size}" / "apps" / f"{NAME}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target)):
            raise SystemExit(f"cannot write {target}")
        print(target.relative_to(ICONS.parent))


if __name__ == "__main__":
    main()
