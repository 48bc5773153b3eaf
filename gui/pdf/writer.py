"""Render a ``BuildSheet`` to PDF bytes and write them atomically.

The document is laid out on the writer's pages (``paginate``: 2 cm margins; Qt's layout
repeats ``<thead>`` rows after a page break), a table row that would be split between
two pages starts the next page instead, its table split there with its header repeated,
and every heading that would end a page apart from what it heads is moved to the next
page, each problem fixed in reading order (``lay_out_pages``); the pages are painted with
their numbers at the foot (``print_pages``) — the layout that is checked is the one
printed. Text stays text (fonts embedded); charts are raster images at twice their
printed pixel size. The PDF is built in memory, then ``atomic_write_bytes`` puts it in
place, so a failure never leaves a partial file.
"""

from __future__ import annotations

from collections.abc import Iterator
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
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextTable,
    QTextTableCell,
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
    lay_out_pages(doc)
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


def _first_table_end(block: QTextBlock) -> QTextBlock:
    """The last block of the first table after ``block`` (a section's opening table),
    or an invalid block when none follows within a few paragraphs."""
    after = block.next()
    for _ in range(6):
        if not after.isValid():
            break
        table = QTextCursor(after).currentTable()
        if table is not None:
            last = table.cellAt(table.rows() - 1, table.columns() - 1)
            return last.lastCursorPosition().block()
        after = after.next()
    return QTextBlock()


def _orphan_heading(doc: QTextDocument, start: int = 0) -> QTextBlock | None:
    """The first heading from position ``start`` on that ends a page with what it heads
    on the next one: for a section heading (level 2 and below) its next paragraph, table
    or chart; for a build's title (level 1) the whole table that opens its section."""
    page = doc.pageSize().height()
    layout = doc.documentLayout()
    always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    block = doc.findBlock(start) if start else doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        level = fmt.headingLevel()
        after = _next_content(block)
        if level >= 1 and not fmt.pageBreakPolicy() & always and after.isValid():
            here = int(layout.blockBoundingRect(block).top() // page)
            there = int(_first_line_top(layout, after) // page)
            end = _first_table_end(block) if level == 1 else QTextBlock()
            if end.isValid():
                there = max(there, int((layout.blockBoundingRect(end).bottom() - 0.5) // page))
            if there > here:
                return block
        block = block.next()
    return None


def _move_heading(doc: QTextDocument, block: QTextBlock) -> None:
    brk = QTextBlockFormat()
    brk.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
    QTextCursor(block).mergeBlockFormat(brk)
    # lay out everything after it again: without this Qt drew tables at their old
    # places, over the paragraphs the break had pushed down
    start = block.position()
    doc.markContentsDirty(start, doc.characterCount() - start)


def keep_headings_with_next(doc: QTextDocument, limit: int = 50) -> int:
    """On a paginated ``doc``, start on a new page every heading that would end a page
    with what it heads on the next one (a chart, a table). Returns how many moved.

    Each move makes the layout redo what follows, so each later heading is judged
    where it will really fall."""
    moved = 0
    while moved < limit:
        block = _orphan_heading(doc)
        if block is None:
            break
        _move_heading(doc, block)
        moved += 1
    return moved


def lay_out_pages(doc: QTextDocument, limit: int = 150) -> None:
    """Keep rows whole and headings with what they head, fixing the first problem in
    reading order each time: a fix only moves what follows it, so no page break made
    earlier is left standing for content that has since moved on (which left pages
    nearly empty), and the next search starts where the last fix was made."""
    start = 0
    for _ in range(limit):
        heading = _orphan_heading(doc, start)
        split = _first_split_row(doc, start)
        row_at = None
        if split is not None:
            row_at = _tables(doc)[split[0]].cellAt(split[1], 0).firstPosition()
        if heading is None and row_at is None:
            return
        if heading is not None and (row_at is None or heading.position() < row_at):
            start = heading.position()
            _move_heading(doc, heading)
        else:
            assert split is not None
            start = _tables(doc)[split[0]].firstPosition()
            _keep_row_whole(doc, *split)


def _tables(doc: QTextDocument) -> list[QTextTable]:
    return [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]


def _row_span(
    layout: QAbstractTextDocumentLayout, table: QTextTable, row: int
) -> tuple[float, float]:
    """Top of a row's first line and bottom of its last, over all its cells."""
    tops: list[float] = []
    bottoms: list[float] = []
    for column in range(table.columns()):
        cell = table.cellAt(row, column)
        first = cell.firstCursorPosition().block()
        last = cell.lastCursorPosition().block()
        tops.append(_first_line_top(layout, first))
        bottoms.append(layout.blockBoundingRect(last).bottom())
    return min(tops), max(bottoms)


def _row_splits(doc: QTextDocument, start: int = 0) -> Iterator[tuple[int, int]]:
    """(table, row) of each body row that starts on one page and ends on the next, in
    the tables that end at ``start`` or after. Rows taller than half a page are left to
    break."""
    page = doc.pageSize().height()
    layout = doc.documentLayout()
    for index, table in enumerate(_tables(doc)):
        if table.lastPosition() < start:
            continue
        for row in range(table.format().headerRowCount(), table.rows()):
            top, bottom = _row_span(layout, table, row)
            if int(top // page) != int((bottom - 0.5) // page) and bottom - top < page / 2:
                yield index, row


def split_rows(doc: QTextDocument) -> list[tuple[int, int]]:
    """On a paginated ``doc``: (table, row) of every body row that starts on one page and
    ends on the next. Rows taller than half a page are left to break."""
    return list(_row_splits(doc))


def _first_split_row(doc: QTextDocument, start: int) -> tuple[int, int] | None:
    return next(_row_splits(doc, start), None)


def _copy_cell(doc: QTextDocument, source: QTextTableCell, target: QTextTableCell) -> None:
    select = QTextCursor(doc)
    select.setPosition(source.firstPosition())
    select.setPosition(source.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
    into = target.firstCursorPosition()
    into.setBlockFormat(source.firstCursorPosition().blockFormat())
    into.insertFragment(select.selection())
    target.setFormat(source.format())


def _split_table(doc: QTextDocument, table: QTextTable, row: int) -> None:
    """Move rows ``row`` and after to a new table that starts a page with the same
    header rows and format."""
    fmt = table.format()
    heads = fmt.headerRowCount()
    always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    if row <= heads:
        fmt.setPageBreakPolicy(always)
        table.setFormat(fmt)
        return
    moved = [*range(heads), *range(row, table.rows())]
    cursor = QTextCursor(doc)
    cursor.setPosition(table.lastPosition() + 1)
    # one edit block: the layout runs once at its end, not after every cell
    cursor.beginEditBlock()
    fmt.setPageBreakPolicy(always)
    rest = cursor.insertTable(len(moved), table.columns(), fmt)
    for at, source_row in enumerate(moved):
        for column in range(table.columns()):
            _copy_cell(doc, table.cellAt(source_row, column), rest.cellAt(at, column))
    table.removeRows(row, table.rows() - row)
    # the empty block Qt puts between the two tables takes the format of the block the
    # table was inserted before (often a heading): make it plain, or it would count as
    # a heading with its own page break
    between = QTextCursor(doc)
    between.setPosition(rest.firstPosition() - 1)
    between.setBlockFormat(QTextBlockFormat())
    between.setBlockCharFormat(QTextCharFormat())
    cursor.endEditBlock()


def _heading_before(doc: QTextDocument, table: QTextTable) -> QTextBlock | None:
    """The heading right above ``table`` (empty blocks between them skipped), if any."""
    block = doc.findBlock(table.firstPosition()).previous()
    while block.isValid() and not block.text().strip():
        block = block.previous()
    if block.isValid() and block.blockFormat().headingLevel() >= 1:
        return block
    return None


def _keep_row_whole(doc: QTextDocument, index: int, row: int) -> None:
    table = _tables(doc)[index]
    if row <= table.format().headerRowCount():
        heading = _heading_before(doc, table)
        always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
        if heading is not None and not heading.blockFormat().pageBreakPolicy() & always:
            # the whole table moves: its heading goes with it
            _move_heading(doc, heading)
            return
    start = table.firstPosition()
    _split_table(doc, table, row)
    # lay out again from the split table on (what is above it has not moved)
    doc.markContentsDirty(start, doc.characterCount() - start)


def keep_rows_whole(doc: QTextDocument, limit: int = 100) -> int:
    """On a paginated ``doc``, start on a new page every table row that Qt would split
    between two pages: its table is split before it, and the new table repeats the
    header rows. Returns how many rows moved."""
    moved = 0
    while moved < limit:
        found = split_rows(doc)
        if not found:
            break
        _keep_row_whole(doc, *found[0])
        moved += 1
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
