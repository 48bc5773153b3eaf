"""Render a ``BuildSheet`` to PDF bytes and write them atomically.

``QTextDocument.print_`` paginates a copy of the document on the writer's page
(2 cm margins), keeps table rows whole, repeats ``<thead>`` rows after a page
break and prints the page number at the foot of every page. Text stays text
(fonts embedded); charts are raster images at twice their printed pixel size.
The PDF is built in memory, then ``atomic_write_bytes`` puts it in place, so a
failure never leaves a partial file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QUrl
from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from core.errors import RigForgeError
from core.files.atomic import atomic_write_bytes
from gui.pdf.charts import ChartRenderer
from gui.pdf.document import build_key, sheet_html
from gui.pdf.html_parts import STYLE
from gui.pdf.model import BuildSheet

Paper = Literal["a4", "letter"]
PAPERS: dict[str, QPageSize.PageSizeId] = {
    "a4": QPageSize.PageSizeId.A4,
    "letter": QPageSize.PageSizeId.Letter,
}
RESOLUTION_DPI = 300


def build_document(sheet: BuildSheet) -> QTextDocument:
    """The sheet as a ``QTextDocument`` with its chart images added as resources."""
    doc = QTextDocument()
    font = QFont("DejaVu Sans", 9)
    # No "fi"/"fl" ligatures: text extracted or searched in the PDF stays plain letters.
    font.setFeature(QFont.Tag("liga"), 0)
    doc.setDefaultFont(font)
    doc.setDefaultStyleSheet(STYLE)
    charts: dict[str, set[str]] = {}
    # One set of chart widgets for every build: each chart sets its ranges from the data
    # it is given (BaseChart.settle), so nothing of the previous build stays.
    renderer = ChartRenderer()
    try:
        for index, build in enumerate(sheet.builds):
            key = build_key(index)
            images = renderer.build_charts(build)
            charts[key] = set(images)
            for name, img in images.items():
                doc.addResource(
                    QTextDocument.ResourceType.ImageResource, QUrl(f"{key}-{name}"), img
                )
        cost = renderer.cost_chart(sheet) if sheet.is_comparison else None
    finally:
        renderer.close()
    if cost is not None:
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl("comparison-cost"), cost)
    doc.setHtml(sheet_html(sheet, charts, cost is not None))
    return doc


def render_pdf(sheet: BuildSheet, paper: str = "a4") -> bytes:
    """The PDF file's bytes."""
    if paper not in PAPERS:
        raise RigForgeError(f"unknown paper size {paper!r}; use a4 or letter")
    doc = build_document(sheet)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(RESOLUTION_DPI)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(PAPERS[paper]),
            QPageLayout.Orientation.Portrait,
            QMarginsF(0, 0, 0, 0),
        )
    )
    writer.setTitle(sheet.heading)
    writer.setCreator(f"RigForge {sheet.app_version}")
    if sheet.author:
        writer.setAuthor(sheet.author)
    doc.print_(writer)
    del writer
    buffer.close()
    data = bytes(buffer.data().data())
    if not data.startswith(b"%PDF"):
        raise RigForgeError("the PDF could not be rendered")
    return data


def export_sheet(path: Path | str, sheet: BuildSheet, paper: str = "a4") -> None:
    """Write the sheet to ``path`` atomically; ``RigForgeError`` names what went wrong."""
    target = Path(path)
    if target.is_dir():
        raise RigForgeError(f"cannot write the build sheet: {target} is a folder")
    atomic_write_bytes(target, render_pdf(sheet, paper))
