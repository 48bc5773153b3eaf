"""The PDF build sheet: the app's figures, checks and charts on paper.

``sheet_from_analyses`` gathers the analyses the window shows, and
``export_sheet`` renders them (HTML in a ``QTextDocument``, charts as images)
into a PDF written atomically. Needs a ``QApplication`` (the charts are widgets).
"""

from gui.pdf.model import BuildSheet, SheetBuild, sheet_from_analyses
from gui.pdf.writer import PAPERS, export_sheet, render_pdf

__all__ = [
    "PAPERS",
    "BuildSheet",
    "SheetBuild",
    "export_sheet",
    "render_pdf",
    "sheet_from_analyses",
]
