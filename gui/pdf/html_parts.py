"""Small HTML helpers for the sheet (Qt rich text: tables, headings, escaped text)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

STYLE = """
body { font-family: 'DejaVu Sans', sans-serif; font-size: 9pt; color: #202020; }
h1 { font-size: 17pt; color: #1f3b57; margin-bottom: 2px; }
h2 { font-size: 12.5pt; color: #1f3b57; margin-top: 14px; margin-bottom: 4px; }
h3 { font-size: 10pt; color: #1f3b57; margin-top: 8px; margin-bottom: 3px; }
p { margin-top: 2px; margin-bottom: 3px; }
table.grid { border-collapse: collapse; border-color: #b8c2cc; }
table.grid th { background-color: #e4eaf0; color: #1f3b57; font-weight: bold;
                text-align: left; }
td.num, th.num { text-align: right; }
table.small td, table.small th { font-size: 7.5pt; }
table.small .muted { font-size: 6.5pt; }
tr.total td { font-weight: bold; background-color: #f3f5f7; }
.muted { color: #606a74; font-size: 8pt; }
.pass { background-color: #dff0d8; color: #2d6a2d; font-weight: bold; }
.info { background-color: #e3edf7; color: #29527a; font-weight: bold; }
.warn { background-color: #fcf0d2; color: #8a5a00; font-weight: bold; }
.fail { background-color: #f6d5d3; color: #a12a22; font-weight: bold; }
"""

Cell = str | tuple[str, str]
"""Plain text, or (text, CSS class) for a styled cell. Lines after the first line of a
cell's text are printed smaller, as a note under it."""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def heading(level: int, text: str) -> str:
    return f"<h{level}>{esc(text)}</h{level}>"


def para(text: str, css: str = "") -> str:
    cls = f' class="{css}"' if css else ""
    return f"<p{cls}>{esc(text)}</p>"


def _cell(tag: str, cell: Cell, numeric: bool, width: str | None) -> str:
    text, css = (cell, "") if isinstance(cell, str) else cell
    classes = " ".join(c for c in (css, "num" if numeric else "") if c)
    attrs = f' class="{classes}"' if classes else ""
    if width:
        attrs += f' width="{width}"'
    first, *notes = text.split("\n")
    inner = esc(first) + "".join(f"<br><span class='muted'>{esc(n)}</span>" for n in notes)
    return f"<{tag}{attrs}>{inner}</{tag}>"


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    numeric: Sequence[int] = (),
    widths: Sequence[str] = (),
    total: Sequence[Cell] | None = None,
    small: bool = False,
) -> str:
    """A grid with a header row that repeats after a page break (``<thead>``); ``small``:
    a size smaller (a wide table that would break its words on the page)."""

    def row(cells: Sequence[Cell], tag: str, css: str = "") -> str:
        inner = "".join(
            _cell(tag, c, i in numeric, widths[i] if i < len(widths) else None)
            for i, c in enumerate(cells)
        )
        return f"<tr{f' class={css!r}' if css else ''}>{inner}</tr>"

    body = "".join(row(r, "td") for r in rows)
    if total is not None:
        body += row(total, "td", "total")
    css = "grid small" if small else "grid"
    return (
        f'<table class="{css}" width="100%" border="1" cellspacing="0" cellpadding="3">'
        f"<thead>{row(headers, 'th')}</thead><tbody>{body}</tbody></table>"
    )


def key_values(pairs: Sequence[tuple[str, str]]) -> str:
    """Label / value rows without a header."""
    rows = "".join(
        f'<tr><td width="32%" class="muted">{esc(k)}</td><td>{esc(v)}</td></tr>' for k, v in pairs
    )
    return f'<table width="100%" cellspacing="0" cellpadding="2">{rows}</table>'


def image(name: str, width: int, height: int) -> str:
    return f'<p align="center"><img src="{esc(name)}" width="{width}" height="{height}"></p>'
