"""The preview panel's content as Qt rich text (pure, no Qt): source code highlighted, Markdown rendered
with the conversation's renderer (links inert in the panel, images never loaded), CSV as a table.
The bytes were read and bounded by the main side; this only presents them."""

from __future__ import annotations

import csv
import html
import io

from pygments.lexers import get_lexer_for_filename
from pygments.util import ClassNotFound

from app.renderer.markdown.render import PROSE_STYLE, highlight_code, render_blocks

MAX_CSV_ROWS = 500
MAX_CSV_COLUMNS = 50


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def language_for(name: str) -> str:
    try:
        return get_lexer_for_filename(name).aliases[0]
    except (ClassNotFound, IndexError):
        return ""


def text_html(name: str, data: bytes, dark: bool = False) -> str:
    return highlight_code(_decode(data), language_for(name), dark)


def markdown_html(data: bytes, dark: bool = False) -> str:
    return PROSE_STYLE + "".join(block.html for block in render_blocks(_decode(data), dark))


def csv_html(name: str, data: bytes) -> tuple[str, int]:
    """An HTML table of the first rows (header row bold) and how many rows were left out."""
    delimiter = "\t" if name.lower().endswith(".tsv") else ","
    reader = csv.reader(io.StringIO(_decode(data)), delimiter=delimiter)
    rows: list[list[str]] = []
    hidden = 0
    try:
        for row in reader:
            if len(rows) < MAX_CSV_ROWS:
                rows.append(row[:MAX_CSV_COLUMNS])
            else:
                hidden += 1
    except csv.Error:
        pass  # a malformed tail: show what parsed
    out = ['<table border="1" cellspacing="0" cellpadding="4">']
    for index, row in enumerate(rows):
        tag = "th" if index == 0 else "td"
        out.append("<tr>" + "".join(f"<{tag}>{html.escape(cell)}</{tag}>" for cell in row) + "</tr>")
    out.append("</table>")
    return "".join(out), hidden


def text_kind(name: str, mime_type: str) -> str:
    """How to present text of this name and MIME type: "markdown", "csv" or "text"."""
    lowered, mime = name.lower(), mime_type.lower()
    if mime in ("text/markdown", "text/x-markdown") or lowered.endswith((".md", ".markdown", ".mdown")):
        return "markdown"
    if mime in ("text/csv", "text/tab-separated-values") or lowered.endswith((".csv", ".tsv")):
        return "csv"
    return "text"


def preview_html(kind: str, name: str, data: bytes, dark: bool = False) -> tuple[str, str]:
    """(rich text, a note such as rows left out) for a text, Markdown or CSV preview."""
    if kind == "markdown":
        return markdown_html(data, dark), ""
    if kind == "csv":
        table, hidden = csv_html(name, data)
        return table, (f"{hidden} more rows not shown" if hidden else "")
    return text_html(name, data, dark), ""
