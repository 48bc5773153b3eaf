"""``rigforge export``: writes a PDF headless; errors exit 2 with a message."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from gui.main import main

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"


def test_export_writes_a_letter_pdf(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    status = main(
        [
            "export",
            str(EXAMPLES / "single-rtx-4090.json"),
            "-o",
            str(out),
            "--paper",
            "letter",
            "--author",
            "Ada Lovelace",
        ]
    )
    assert status == 0
    reader = PdfReader(out)
    assert round(float(reader.pages[0].mediabox.height)) == 792
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Ada Lovelace" in text and "Single RTX 4090 starter" in text


def test_export_to_an_unwritable_place_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nowhere" / "sheet.pdf"
    status = main(["export", str(EXAMPLES / "single-rtx-4090.json"), "-o", str(out)])
    assert status == 2
    assert "rigforge export: cannot write" in capsys.readouterr().err
    assert not out.exists()
