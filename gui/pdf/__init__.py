"""The PDF build sheet: the app's figures, checks and charts on paper.

``sheet_from_builds`` analyses builds exactly as the window does, and
``export_sheet`` renders them (HTML in a ``QTextDocument``, charts as images)
into a PDF written atomically. Needs a ``QApplication`` (the charts are widgets).
"""

from gui.pdf.model import BuildSheet, SheetBuild, sheet_from_builds
from gui.pdf.writer import PAPERS, export_sheet, render_pdf

__all__ = ["PAPERS", "BuildSheet", "SheetBuild", "export_sheet", "render_pdf", "sheet_from_builds"]
