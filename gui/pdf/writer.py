"""Render a ``BuildSheet`` to PDF bytes and write them atomically.

The document is laid out on the writer's pages (``paginate``: 2 cm margins; Qt's layout
repeats ``<thead>`` rows after a page break and breaks a table row between its lines
when it does not fit), every heading that would end a page apart from what it heads is
moved to the next page (``keep_headings_with_next``), and the pages are painted with
their numbers at the foot (``print_pages``) — the layout that is checked is the one
printed. Text stays text (fonts embedded); charts are raster images at twice their
printed pixel size. The PDF is built in memory, then ``atomic_write_bytes`` puts it in
place, so a failure never leaves a partial file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPointF, QRectF, QSizeF, QUrl
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QTextBlock,
    QTextBlockFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

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


def pdf_writer(buffer: QBuffer, paper: str = "a4") -> QPdfWriter:
    """A writer of the sheet's pages into ``buffer`` (no margins of its own: the
    document's, set by ``paginate``, are the page's)."""
    writer = QPdfWriter(buffer)
    writer.setResolution(RESOLUTION_DPI)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(PAPERS[paper]),
            QPageLayout.Orientation.Portrait,
            QMarginsF(0, 0, 0, 0),
        )
    )
    return writer


def render_pdf(sheet: BuildSheet, paper: str = "a4") -> bytes:
    """The PDF file's bytes."""
    if paper not in PAPERS:
        raise RigForgeError(f"unknown paper size {paper!r}; use a4 or letter")
    doc = build_document(sheet)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = pdf_writer(buffer, paper)
    writer.setTitle(sheet.heading)
    writer.setCreator(f"RigForge {sheet.app_version}")
    if sheet.author:
        writer.setAuthor(sheet.author)
    paginate(doc, writer)
    keep_headings_with_next(doc)
    print_pages(doc, writer)
    del writer
    buffer.close()
    data = bytes(buffer.data().data())
    if not data.startswith(b"%PDF"):
        raise RigForgeError("the PDF could not be rendered")
    return data


MARGIN_CM = 2.0
"""Page margins on every side."""


def paginate(doc: QTextDocument, writer: QPdfWriter) -> None:
    """Lay ``doc`` out on the writer's pages (its pixels, 2 cm margins), so that what
    ``keep_headings_with_next`` checks is what ``print_pages`` prints."""
    doc.documentLayout().setPaintDevice(writer)
    fmt = doc.rootFrame().frameFormat()
    # the layout scales frame margins from the screen's dots per inch to the writer's
    screen = QGuiApplication.primaryScreen()
    source_dpi = screen.logicalDotsPerInchY() if screen is not None else 96.0
    margin = MARGIN_CM / 2.54 * source_dpi
    fmt.setLeftMargin(margin)
    fmt.setRightMargin(margin)
    fmt.setTopMargin(margin)
    fmt.setBottomMargin(margin)
    doc.rootFrame().setFrameFormat(fmt)
    doc.setPageSize(QSizeF(writer.width(), writer.height()))


def _next_content(block: QTextBlock) -> QTextBlock:
    """The next block that shows something (text or an image), skipping empty ones."""
    after = block.next()
    while after.isValid() and not after.text().strip():
        after = after.next()
    return after


def _first_line_top(layout: QAbstractTextDocumentLayout, block: QTextBlock) -> float:
    """Where a block's first line starts: the pagination moves a line (an image) that
    does not fit on a page to the next one inside its block."""
    top = layout.blockBoundingRect(block).top()
    lines = block.layout()
    return top + lines.lineAt(0).y() if lines is not None and lines.lineCount() else top


def keep_headings_with_next(doc: QTextDocument, limit: int = 50) -> int:
    """On a paginated ``doc``, start on a new page every heading that would end a page
    with what it heads on the next one (a chart, a table). Returns how many moved.

    The document is walked top to bottom; a moved heading makes the layout redo what
    follows, so each later heading is judged where it will really fall."""
    page = doc.pageSize().height()
    layout = doc.documentLayout()
    always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    moved = 0
    block = doc.begin()
    while block.isValid() and moved < limit:
        fmt = block.blockFormat()
        after = _next_content(block)
        if fmt.headingLevel() >= 2 and not fmt.pageBreakPolicy() & always and after.isValid():
            here = int(layout.blockBoundingRect(block).top() // page)
            there = int(_first_line_top(layout, after) // page)
            if there > here:
                brk = QTextBlockFormat()
                brk.setPageBreakPolicy(always)
                QTextCursor(block).mergeBlockFormat(brk)
                # lay out everything after it again: without this Qt drew tables at their
                # old places, over the paragraphs the break had pushed down
                start = block.position()
                doc.markContentsDirty(start, doc.characterCount() - start)
                moved += 1
        block = block.next()
    return moved


def print_pages(doc: QTextDocument, writer: QPdfWriter) -> None:
    """Paint a paginated ``doc`` page by page, with the page number at the foot of each
    (right-aligned at the right margin, below the bottom one)."""
    page = doc.pageSize()
    dpi = writer.logicalDpiY()
    margin = MARGIN_CM / 2.54 * dpi
    font = QFont(doc.defaultFont())
    ascent = QFontMetricsF(font, writer).ascent()
    number_x = page.width() - margin
    number_y = page.height() - margin + ascent + 5 * dpi / 72.0
    painter = QPainter(writer)
    try:
        for index in range(doc.pageCount()):
            if index:
                writer.newPage()
            top = index * page.height()
            view = QRectF(0.0, top, page.width(), page.height())
            painter.save()
            painter.translate(0.0, -top)
            painter.setClipRect(view)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = view
            context.palette.setColor(QPalette.ColorRole.Text, QColor("black"))
            doc.documentLayout().draw(painter, context)
            painter.setClipping(False)
            painter.setFont(font)
            number = str(index + 1)
            width = painter.fontMetrics().horizontalAdvance(number)
            painter.drawText(QPointF(number_x - width, number_y + top), number)
            painter.restore()
    finally:
        painter.end()


def export_sheet(path: Path | str, sheet: BuildSheet, paper: str = "a4") -> None:
    """Write the sheet to ``path`` atomically; ``RigForgeError`` names what went wrong."""
    target = Path(path)
    if target.is_dir():
        raise RigForgeError(f"cannot write the build sheet: {target} is a folder")
    atomic_write_bytes(target, render_pdf(sheet, paper))
