"""The PDF build sheet: its text carries the app's figures, every part and check, charts."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from itertools import pairwise
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QBuffer, QIODevice, QUrl
from PySide6.QtGui import QImage, QPdfWriter, QTextDocument, QTextFormat, QTextTable
from pytestqt.qtbot import QtBot

from core.calc import analyze
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.errors import RigForgeError
from core.files.io import parse_document
from core.text.checks import check_title, render_reason
from core.text.money import USD
from core.text.summary import cost_per_unit_figure, summary_figures
from gui.pdf import BuildSheet, export_sheet, render_pdf, sheet_from_analyses
from gui.pdf.html_parts import table
from gui.pdf.writer import (
    MARGIN_CM,
    build_document,
    keep_headings_with_next,
    keep_rows_whole,
    lay_out_pages,
    paginate,
    pdf_writer,
    print_pages,
    split_rows,
)
from gui.viewmodels.session import default_workload


def _example(name: str) -> BuildSheet:
    catalog = load_catalog()
    data = resources.files("resources.examples").joinpath(name).read_bytes()
    session = parse_document(data, catalog).session
    analyses = [analyze(b, default_workload(), session.settings, catalog) for b in session.builds]
    return sheet_from_analyses(analyses, catalog, title=session.title)


def _text(data: bytes) -> tuple[str, PdfReader]:
    reader = PdfReader(io.BytesIO(data))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    return " ".join(text.split()), reader


@pytest.fixture(scope="module")
def single() -> BuildSheet:
    return _example("single-rtx-4090.json")


def test_sheet_text_has_the_apps_figures_parts_and_checks(qtbot: QtBot, single: BuildSheet) -> None:
    text, reader = _text(render_pdf(single))
    b = single.builds[0]
    a = b.analysis
    assert a.throughput is not None and a.vram is not None
    for figure in summary_figures(a, USD):
        assert figure.value in text, figure.title
    assert f"{a.throughput.total_throughput:,.0f} {a.throughput.unit}" in text
    assert f"{a.vram.total_gib:.2f}" in text
    assert f"{b.power.steady_dc_w:,.0f} W" in text
    assert b.power.wall_w is not None and f"{b.power.wall_w:,.0f} W" in text
    for line in b.cost.lines:
        part = next(p for _q, p in _parts(single) if p.id == line.part_id)
        assert " ".join(part.name.split()) in text
    # A table cell may wrap anywhere Qt allows (after "/" too), so checks are compared
    # with all whitespace removed.
    packed = "".join(text.split())
    for check in a.checks:
        assert "".join(check_title(check.id).split()) in packed
        assert "".join(render_reason(check).split())[:40] in packed, check.id
    assert 2 <= len(reader.pages) <= 10
    assert text.rstrip().endswith(str(len(reader.pages)))  # page number on the last page


def _images(reader: PdfReader) -> list[int]:
    """Pixel widths of the image XObjects on all pages."""
    widths = []
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for ref in xobjects.values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                widths.append(int(obj["/Width"]))
    return widths


def _parts(sheet: BuildSheet) -> list[tuple[int, object]]:
    return list(sheet.builds[0].analysis.build.bill_of_materials())


def test_unpriced_parts_leave_the_total_unknown(qtbot: QtBot) -> None:
    catalog = load_catalog()
    data = resources.files("resources.examples").joinpath("single-rtx-4090.json").read_bytes()
    session = parse_document(data, catalog).session
    unpriced = session.builds[0].model_copy(update={"gpu": catalog.get("mi210", "gpu")})
    sheet = sheet_from_analyses([analyze(unpriced, default_workload(), None, catalog)], catalog)
    a = sheet.builds[0].analysis
    assert a.cost.parts.unpriced_part_ids == ("mi210",)  # no public list price
    text, _ = _text(render_pdf(sheet))
    assert "Subtotal unknown:" in text and "Order total unknown" in text
    assert "never counted as zero" in text
    assert cost_per_unit_figure(a, USD).value == "unknown"
    assert f"${a.cost.parts.priced_usd:,.0f}" in text  # what is known so far
    assert "enter one" not in text  # the window's invitation means nothing on paper
    assert "assumed:" not in text  # power bases in words ("assumed, 1 drive")


def test_sheet_embeds_chart_images_and_fonts(qtbot: QtBot, single: BuildSheet) -> None:
    _, reader = _text(render_pdf(single))
    images = _images(reader)
    assert len(images) >= 2  # VRAM and power (one GPU: no scaling curve)
    assert all(width >= 1200 for width in images)  # twice the printed pixel width: crisp
    fonts = {
        str(font.get_object().get("/BaseFont"))
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert any("DejaVu" in f for f in fonts)


def test_comparison_has_a_section_per_build_and_the_cost_chart(qtbot: QtBot) -> None:
    """A comparison opens with the best value marked, gives each build at most two pages
    (its figures, parts, the checks that do not pass, its cost) and lists its sources once,
    after the last build: within 2 pages per build and one summary page, on Letter and A4."""
    sheet = _example("three-way-comparison.json")
    data = render_pdf(sheet, "letter")
    text, reader = _text(data)
    assert "Comparison" in text
    for b in sheet.builds:
        assert b.name in text
        assert cost_per_unit_figure(b.analysis, USD).value in text
    working = [b for b in sheet.builds if b.analysis.verdict != "fail"]
    best = min(working, key=lambda b: b.analysis.cost.per_throughput_usd or float("inf"))
    assert f"Best value: {best.name}" in text and "best value" in text
    images = _images(reader)
    # only the cost-per-throughput bars when any build has a known cost per throughput (an
    # unknown total gets no bar, never a zero one); each build's charts are in its own sheet
    priced = any(b.cost.per_throughput_usd is not None for b in sheet.builds)
    assert len(images) == (1 if priced else 0)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    assert len(reader.pages) <= 2 * len(sheet.builds) + 1
    assert len(PdfReader(io.BytesIO(render_pdf(sheet, "a4"))).pages) <= 2 * len(sheet.builds) + 1


def test_a4_paper(qtbot: QtBot, single: BuildSheet) -> None:
    box = PdfReader(io.BytesIO(render_pdf(single, "a4"))).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)


def test_unwritable_path_is_a_clear_error_and_leaves_no_file(
    qtbot: QtBot, single: BuildSheet, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-folder" / "sheet.pdf"
    with pytest.raises(RigForgeError, match="cannot write"):
        export_sheet(missing, single)
    assert not missing.exists()
    folder = tmp_path / "a-folder.pdf"
    folder.mkdir()
    with pytest.raises(RigForgeError, match="is a folder"):
        export_sheet(folder, single)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-folder.pdf"]


def test_failed_render_keeps_the_old_file(
    qtbot: QtBot, single: BuildSheet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")

    def broken(*_args: object) -> bytes:
        raise RigForgeError("the PDF could not be rendered")

    monkeypatch.setattr("gui.pdf.writer.render_pdf", broken)
    with pytest.raises(RigForgeError):
        export_sheet(target, single)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_serving_sheet_speaks_of_generation_and_tokens(qtbot: QtBot) -> None:
    catalog = load_catalog()
    data = resources.files("resources.examples").joinpath("llama-70b-two-4090s.json").read_bytes()
    session = parse_document(data, catalog).session
    assert session.workload is not None and session.workload.is_serving
    a = analyze(session.builds[0], session.workload, session.settings, catalog)
    sheet = sheet_from_analyses([a], catalog, title=session.title)
    text, _reader = _text(render_pdf(sheet))
    assert a.inference is not None
    speed = a.inference.speed
    for words in (
        "inference (LLM serving)",
        "Weights format q4_k_m",
        "KV cache f16",
        "Prompt length 4,096 tokens",
        "Output length 512 tokens",
        "Time to first token",
        "Generation against context length",
        "tokens/s, all streams",
        "Cost per million generated tokens",
    ):
        assert words in text, words
    assert f"{speed.prefill_tokens_s:,.0f} tokens/s" in text
    # two 4090s draw 0.58 × 2 × 450 W = 522 W while generating: at 18 tokens/s that is
    # ~8 kWh per million tokens, $1.2 at $0.15/kWh, above the file's API price of $0.60,
    # so owning never breaks even
    assert "API break-even never: electricity alone costs $1." in text
    assert "no throughput" not in text  # the training card's words are not used
    # the window's serving charts are on paper too: generation against context and
    # streams, and the serving VRAM bar (weights, KV cache, engine)
    assert len(_images(_reader)) >= 4  # context, streams, VRAM, power


def test_page_one_is_purchase_ready(qtbot: QtBot, single: BuildSheet) -> None:
    """Page 1: the verdict, the total with its price date, an approval block to sign;
    the estimate sits beside Lambda's published RTX 4090 ResNet-50 run."""
    text, reader = _text(render_pdf(single))
    first = " ".join(reader.pages[0].extract_text().split())
    b = single.builds[0]
    from core.text.cost import total_text
    from core.text.verdict import build_verdict

    assert build_verdict(b.analysis).headline in first
    assert total_text(b.analysis.cost, USD) in first and "prices as of" in first
    for blank in ("Approval", "Requested by", "Approved by", "Cost centre"):
        assert blank in first
    assert "published: 1,301 images/s at batch 448" in text
    # no check's name is cut mid-word across lines of its cell
    for check in b.analysis.checks:
        assert check_title(check.id) in text, check.id


def test_part_lines_name_maker_and_part_number_and_sources_are_numbered(
    qtbot: QtBot, single: BuildSheet
) -> None:
    """The CPU line carries AMD's OPN (100-100000514WOF, read from AMD's listing for the
    Ryzen 9 7950X); a part whose maker number no source gives says so; each priced line
    points at a numbered source that the list at the end prints with its publisher: the
    RTX 4090's newest price is SiliconValueIndex's Newegg row of 2026-03-06, so the GPU
    line cites it by number and the list leads that entry with "SiliconValueIndex"."""
    text, _reader = _text(render_pdf(single))
    packed = "".join(text.split())
    assert "AMD·MPN100-100000514WOF" in packed
    parts = [p for _q, p in _parts(single)]
    if any(p.part_number is None for p in parts):
        assert "nomakerpartnumberfound" in packed  # a part without a sourced number says so
    assert "Parts and their sources" in text and "Sources Each source as it was read" in text
    b = single.builds[0]
    line = next(ln for ln in b.cost.lines if ln.category == "gpu")
    assert line.kind == "street" and line.as_of is not None
    assert line.source.startswith("SiliconValueIndex")
    cited = re.search(rf"street,{line.as_of}\[(\d+)\]", packed)
    assert cited is not None
    assert f"[{cited.group(1)}]SiliconValueIndex." in packed


def test_a_part_new_in_one_build_and_used_in_another_cites_both_prices(qtbot: QtBot) -> None:
    """The RTX 4090 new (its newest street price) in one build and used (the dated eBay
    survey) in the other: each build's parts table cites its own numbered source."""
    catalog = load_catalog()
    data = resources.files("resources.examples").joinpath("single-rtx-4090.json").read_bytes()
    session = parse_document(data, catalog).session
    new = session.builds[0]
    used = new.model_copy(update={"name": "Same, used GPU", "used": (new.gpu.id,)})
    analyses = [analyze(b, default_workload(), session.settings, catalog) for b in (new, used)]
    kinds = {
        a.build.name: next(ln for ln in a.cost.lines if ln.category == "gpu") for a in analyses
    }
    assert kinds[new.name].kind == "street" and kinds["Same, used GPU"].kind == "used"
    text, _reader = _text(render_pdf(sheet_from_analyses(analyses, catalog)))
    packed = "".join(text.split())
    new_line, used_line = kinds[new.name], kinds["Same, used GPU"]
    first = re.search(rf"street,{new_line.as_of}(?:,stale:[^[]*)?\[(\d+)\]", packed)
    second = re.search(rf"used,{used_line.as_of}(?:,stale:[^[]*)?\[(\d+)\]", packed)
    assert first is not None and second is not None
    assert first.group(1) != second.group(1)  # two prices, two numbered sources


def test_gpu_link_is_named_in_words(qtbot: QtBot) -> None:
    """The default build's two GeForce cards exchange gradients through host memory (the
    stock driver blocks peer-to-peer): the sheet says so in words, not as an identifier."""
    catalog = load_catalog()
    analysis = analyze(default_build(catalog), default_workload(), None, catalog)
    text, _ = _text(render_pdf(sheet_from_analyses([analysis], catalog)))
    assert "GPU link PCIe through host memory" in text
    assert "pcie host" not in text and "pcie_host" not in text


def _orphan_doc(filler: int) -> QTextDocument:
    """``filler`` lines of text, a heading, a 300-pixel image, and a line after it."""
    doc = QTextDocument()
    image = QImage(400, 300, QImage.Format.Format_RGB32)
    image.fill(0x3060A0)
    doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl("chart"), image)
    body = "".join(f"<p>text row {i:03d}</p>" for i in range(filler))
    doc.setHtml(
        f"{body}<h3>Chart heading</h3>"
        '<p><img src="chart" width="400" height="300"></p><p>after the chart</p>'
    )
    return doc


def _pages_of(data: bytes, *needles: str) -> list[int]:
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages]
    return [next(i for i, t in enumerate(pages) if n in t) for n in needles]


def test_a_heading_never_ends_a_page_apart_from_its_chart(qtbot: QtBot) -> None:
    """Qt moves an image that does not fit to the next page and leaves its heading
    behind; the sheet starts such a heading on the next page with its chart."""

    def render(doc: QTextDocument, fix: bool) -> tuple[bytes, int]:
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = pdf_writer(buffer)
        paginate(doc, writer)
        moved = keep_headings_with_next(doc) if fix else 0
        print_pages(doc, writer)
        del writer
        return bytes(buffer.data().data()), moved

    # the number of lines of text that leaves the heading, and no more, on page 1
    orphaned = None
    for filler in range(30, 90):
        data, _ = render(_orphan_doc(filler), False)
        heading, after = _pages_of(data, "Chart heading", "after the chart")
        if heading < after:
            orphaned = filler
            break
    assert orphaned is not None, "no length of text orphans the heading"
    data, moved = render(_orphan_doc(orphaned), True)
    assert moved == 1
    heading, after, last_line = _pages_of(
        data, "Chart heading", "after the chart", f"text row {orphaned - 1:03d}"
    )
    assert heading == after == last_line + 1
    # a heading with room for its chart stays where it is
    assert render(_orphan_doc(3), True)[1] == 0
    # every page carries its number at the foot
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages]
    assert [t.endswith(str(n)) for n, t in enumerate(pages, 1)] == [True, True]


def _rows_doc(intro: int) -> QTextDocument:
    """``intro`` lines, then a grid of 90 rows where every fifth row wraps to four lines."""
    wraps = "text that wraps " * 14
    rows = [[f"row {i:02d}", wraps if i % 5 == 0 else "one line", str(i)] for i in range(90)]
    doc = QTextDocument()
    doc.setHtml("<p>intro</p>" * intro + table(["Item", "Detail", "Qty"], rows, numeric=[2]))
    return doc


def test_no_table_row_is_split_between_pages(qtbot: QtBot) -> None:
    """Qt breaks a row between its lines at a page break; the sheet moves such a row to
    the next page, repeating the table's header there, and loses or reorders nothing."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = pdf_writer(buffer)
    split_before = 0
    for intro in range(30, 46):
        doc = _rows_doc(intro)
        paginate(doc, writer)
        before = split_rows(doc)
        split_before += bool(before)
        moved = keep_rows_whole(doc)
        assert split_rows(doc) == [], intro
        assert moved <= len(before)
        text = doc.toPlainText()
        assert re.findall(r"row (\d\d)", text) == [f"{i:02d}" for i in range(90)]
        # the header opens every table, the first and each continuation
        tables = len(doc.rootFrame().childFrames())
        assert tables >= 1 + (moved and before[0][1] > 1)
        assert text.count("Item\nDetail\nQty") == tables
    del writer
    assert split_before >= 5, "too few layouts where Qt splits a row: the test proves nothing"


@contextmanager
def _laid_out(doc: QTextDocument, paper: str) -> Iterator[QPdfWriter]:
    """``doc`` paginated on ``paper`` and laid out as the sheet is printed; the writer
    (whose pages the layout measures) lives until the block ends."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = pdf_writer(buffer, paper)
    paginate(doc, writer)
    lay_out_pages(doc)
    yield writer
    del writer


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_bundled_comparison_sheet_keeps_rows_and_headings_whole(qtbot: QtBot, paper: str) -> None:
    doc = build_document(_example("three-way-comparison.json"))
    with _laid_out(doc, paper):
        assert split_rows(doc) == []
        assert keep_headings_with_next(doc) == 0


def _needless_breaks(doc: QTextDocument, margin: float) -> list[int]:
    """Tables continued on a new page whose header and first row would have fitted on
    the page before, below the end of the table they continue and above the bottom
    margin (``margin``, in the layout's units)."""
    page = doc.pageSize().height()
    layout = doc.documentLayout()
    always = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    found = []
    for at, (before, after) in enumerate(pairwise(tables), 1):
        if not after.format().pageBreakPolicy() & always:
            continue
        if after.columns() != before.columns() or after.firstPosition() > before.lastPosition() + 2:
            continue  # not a continuation of the table before it
        end = layout.blockBoundingRect(doc.findBlock(before.lastPosition())).bottom()
        for column in range(before.columns()):
            cell = before.cellAt(before.rows() - 1, column)
            end = max(end, layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom())
        room = (end // page + 1) * page - margin - end
        heads = after.format().headerRowCount()
        top = layout.blockBoundingRect(after.cellAt(0, 0).firstCursorPosition().block()).top()
        first_row_bottom = max(
            layout.blockBoundingRect(after.cellAt(heads, c).lastCursorPosition().block()).bottom()
            for c in range(after.columns())
        )
        if first_row_bottom - top < room - 0.01 * page:
            found.append(at)
    return found


def _exported_sheet(name: str, monkeypatch: pytest.MonkeyPatch) -> BuildSheet:
    """The sheet ``rigforge export`` makes of a bundled example (its own workload and
    systems)."""
    import argparse

    import gui.pdf
    from gui import cli_export

    made: list[BuildSheet] = []
    monkeypatch.setattr(gui.pdf, "export_sheet", lambda _path, sheet, _paper: made.append(sheet))
    parser = argparse.ArgumentParser()
    cli_export.add_arguments(parser)
    path = Path(str(resources.files("resources.examples").joinpath(name)))
    cli_export.run(parser.parse_args([str(path), "-o", "unused.pdf"]))
    return made[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(
    "name",
    [
        "llama-70b-two-4090s.json",
        "single-rtx-4090.json",
        "three-way-comparison.json",
        "local-llm-2026.json",
    ],
)
def test_no_page_is_left_near_empty_by_a_break_made_earlier(
    qtbot: QtBot, paper: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row moved to a new page moves what follows it; a break made for a row that has
    since moved on would leave a page nearly empty (the 70B sheet's sources list sat as
    two lines on a page of its own)."""
    doc = build_document(_exported_sheet(name, monkeypatch))
    with _laid_out(doc, paper) as writer:
        assert split_rows(doc) == []
        assert keep_headings_with_next(doc) == 0  # no heading (a build's title) left alone
        assert _needless_breaks(doc, MARGIN_CM / 2.54 * writer.logicalDpiY()) == []
