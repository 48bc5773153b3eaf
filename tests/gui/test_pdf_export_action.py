"""File → Export Build Sheet… writes the window's build; a bad path shows an error."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader

from gui.views.main_window import MainWindow


def test_export_action_writes_the_on_screen_build(window: MainWindow, tmp_path: Path) -> None:
    actions = window.export_actions
    assert actions.export_action.shortcut().toString() == "Ctrl+E"
    target = tmp_path / "sheet.pdf"
    assert actions.export_to(target, "letter")
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    build = window.session_view_model.build
    assert build.name in text and build.gpu.name in text
    throughput = window.analysis_view_model.analysis.throughput
    assert throughput is not None
    assert f"{throughput.total_throughput:,.0f} {throughput.unit}" in text


def test_export_to_a_missing_folder_shows_an_error(window: MainWindow, tmp_path: Path) -> None:
    shown: list[tuple[str, str]] = []
    window.file_actions.show_error = lambda title, text: shown.append((title, text))  # type: ignore[method-assign]
    target = tmp_path / "missing" / "sheet.pdf"
    assert not window.export_actions.export_to(target)
    assert shown and "cannot write" in shown[0][1]
    assert not target.exists()
