"""What the preview panel shows of documents the user clicked, read on the main side off the event loop:
PDF pages rendered to PNG (pypdfium2), the first sheet of a workbook as CSV rows (openpyxl, read-only,
values only), a Word document's text (the standard library's zipfile and XML reader: paragraphs and
table rows, nothing else of the file is needed, so python-docx and lxml are not), and HTML made safe
(nh3: a small set of text tags, no attribute, no URL: no script, no style, no image, no link runs or
loads anything).

Authority: these decide what of an untrusted file reaches the window; the renderer only presents the
result. Limits are module constants; past one, `DocumentTooLarge` says which (the panel shows it and
offers "Open with system app"). A file that cannot be read raises `DocumentUnreadable` with the
reader's reason. Pure functions over bytes (the caller reads the file the confined way)."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from xml.etree import ElementTree

MAX_PDF_BYTES = 64 * 1024 * 1024
MAX_PDF_PAGES = 10
PDF_WIDTH_PX = 900
MAX_OFFICE_BYTES = 16 * 1024 * 1024
MAX_UNZIPPED_BYTES = 64 * 1024 * 1024  # a small zip that unpacks to gigabytes is refused unread
MAX_ROWS = 500
MAX_COLUMNS = 50
MAX_TEXT_CHARS = 1_000_000
SAFE_TAGS = frozenset(
    {"p", "br", "hr", "b", "strong", "i", "em", "u", "s", "code", "pre", "blockquote", "h1", "h2",
     "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "a", "span",
     "div", "sub", "sup", "small", "dl", "dt", "dd"}
)  # fmt: skip
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


class DocumentTooLarge(Exception):
    """Past a preview limit: the sentence says which."""


class DocumentUnreadable(Exception):
    """The file is not a document of its kind (or a broken one): the reader's reason."""


@dataclass(frozen=True)
class Rendered:
    data: bytes  # what the panel shows: CSV or text (UTF-8), sanitized HTML; b"" for pages
    pages: tuple[bytes, ...] = ()  # PNG pages of a PDF
    note: str = ""  # what was left out


def pdf_pages(data: bytes) -> Rendered:
    if len(data) > MAX_PDF_BYTES:
        raise DocumentTooLarge(f"the PDF is larger than {MAX_PDF_BYTES // 2**20} MB")
    import pypdfium2 as pdfium  # its library loads on the first PDF only

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise DocumentUnreadable(f"not a readable PDF ({str(error).rstrip('.')})") from None
    try:
        count = len(document)
        pages = []
        for index in range(min(count, MAX_PDF_PAGES)):
            page = document[index]
            width = page.get_width() or 1
            image = page.render(scale=min(PDF_WIDTH_PX / width, 4.0)).to_pil()
            out = io.BytesIO()
            image.save(out, "PNG")
            pages.append(out.getvalue())
            page.close()
    finally:
        document.close()
    note = f"Showing pages 1-{MAX_PDF_PAGES} of {count}." if count > MAX_PDF_PAGES else ""
    return Rendered(b"", tuple(pages), note)


def _zip(data: bytes, kind: str) -> zipfile.ZipFile:
    if len(data) > MAX_OFFICE_BYTES:
        raise DocumentTooLarge(f"the {kind} is larger than {MAX_OFFICE_BYTES // 2**20} MB")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise DocumentUnreadable(f"not a {kind} ({error})") from None
    if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED_BYTES:
        raise DocumentTooLarge(f"the {kind} unpacks to more than {MAX_UNZIPPED_BYTES // 2**20} MB")
    return archive


def workbook_rows(data: bytes) -> Rendered:
    """The first sheet as CSV (values, not formulas), at most `MAX_ROWS` x `MAX_COLUMNS`."""
    _zip(data, "workbook").close()
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a broken file
        raise DocumentUnreadable(f"not a readable workbook ({error})") from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        out = io.StringIO()
        writer = csv.writer(out)
        if sheet is not None:
            columns = min(MAX_COLUMNS, sheet.max_column or MAX_COLUMNS)
            for row in sheet.iter_rows(max_row=MAX_ROWS, max_col=columns, values_only=True):
                cells = ["" if value is None else str(value) for value in row]
                while cells and not cells[-1]:
                    cells.pop()  # a sheet's unused columns
                writer.writerow(cells)
        notes = []
        if len(book.sheetnames) > 1:
            notes.append(f"Sheet 1 of {len(book.sheetnames)}: {book.sheetnames[0]}.")
        if sheet is not None and (sheet.max_row or 0) > MAX_ROWS:
            notes.append(f"Showing the first {MAX_ROWS:,} of {sheet.max_row:,} rows.")
    finally:
        book.close()
    return Rendered(out.getvalue().encode("utf-8"), note=" ".join(notes))


def document_text(data: bytes) -> Rendered:
    """A Word document's paragraphs and table rows (cells tab-separated) as plain text."""
    with _zip(data, "document") as archive:
        try:
            xml = archive.read("word/document.xml")
        except KeyError:
            raise DocumentUnreadable("not a Word document (it has no word/document.xml)") from None
    try:
        body = ElementTree.fromstring(xml).find(f"{_W}body")
    except ElementTree.ParseError as error:
        raise DocumentUnreadable(f"its text is not readable XML ({error})") from None
    lines: list[str] = []
    for block in body if body is not None else []:
        if block.tag == f"{_W}p":
            lines.append(_paragraph(block))
        elif block.tag == f"{_W}tbl":
            for row in block.iter(f"{_W}tr"):
                lines.append("\t".join(_paragraph(cell) for cell in row.iter(f"{_W}tc")))
    text = "\n".join(lines)
    note = ""
    if len(text) > MAX_TEXT_CHARS:
        text, note = text[:MAX_TEXT_CHARS], f"Showing the first {MAX_TEXT_CHARS:,} characters."
    return Rendered(text.encode("utf-8"), note=note)


def _paragraph(element: ElementTree.Element) -> str:
    parts = []
    for node in element.iter():
        if node.tag == f"{_W}t" and node.text:
            parts.append(node.text)
        elif node.tag == f"{_W}tab":
            parts.append("\t")
        elif node.tag in (f"{_W}br", f"{_W}cr"):
            parts.append("\n")
    return "".join(parts)


def safe_html(data: bytes) -> Rendered:
    """The page's text structure only: `SAFE_TAGS`, no attribute, no URL, scripts and styles dropped
    with their content."""
    import nh3

    text = data.decode("utf-8", errors="replace")
    cleaned = nh3.clean(
        text,
        tags=set(SAFE_TAGS),
        clean_content_tags={"script", "style", "template", "noscript", "iframe", "object", "svg", "math"},
        attributes={},
        url_schemes=set(),
        link_rel=None,
        strip_comments=True,
    )
    return Rendered(cleaned.encode("utf-8"))


__all__ = [
    "DocumentTooLarge",
    "DocumentUnreadable",
    "Rendered",
    "document_text",
    "pdf_pages",
    "safe_html",
    "workbook_rows",
]
