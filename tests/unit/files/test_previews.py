"""Documents turned into what the preview panel shows, on real files made by the libraries that write
them: a PDF's first pages as PNG, a workbook's first sheet as rows, a Word document's text, an HTML page
reduced to its text structure; each limit answered with a sentence, a broken file with its reason."""

from __future__ import annotations

import csv
import io

import pytest
from PIL import Image

from app.main.files import previews as docs
from app.main.files.previews import DocumentTooLarge, DocumentUnreadable
from tests.documents import HOSTILE_HTML, pdf, word_document, workbook, zip_bomb


def test_a_pdf_shows_its_first_ten_pages_as_images_and_says_how_many_there_are(tmp_path):
    rendered = docs.pdf_pages(pdf(tmp_path / "r.pdf", 12).read_bytes())
    assert len(rendered.pages) == docs.MAX_PDF_PAGES and rendered.note == "Showing pages 1-10 of 12."
    page = Image.open(io.BytesIO(rendered.pages[0]))
    assert page.format == "PNG" and page.width == docs.PDF_WIDTH_PX
    assert docs.pdf_pages(pdf(tmp_path / "s.pdf", 2).read_bytes()).note == ""


def test_a_broken_or_too_large_pdf_is_said_not_shown(tmp_path, monkeypatch):
    with pytest.raises(DocumentUnreadable, match="not a readable PDF"):
        docs.pdf_pages(b"%PDF-1.7 and then nothing")
    monkeypatch.setattr(docs, "MAX_PDF_BYTES", 100)
    with pytest.raises(DocumentTooLarge, match="larger than"):
        docs.pdf_pages(pdf(tmp_path / "r.pdf", 1).read_bytes())


def test_a_workbook_shows_its_first_sheet_as_rows_and_says_what_it_left_out(tmp_path):
    rendered = docs.workbook_rows(workbook(tmp_path / "b.xlsx", rows=600).read_bytes())
    rows = list(csv.reader(io.StringIO(rendered.data.decode())))
    assert rows[:2] == [["region", "total"], ["r1", "10"]] and len(rows) == docs.MAX_ROWS
    assert rendered.note == "Sheet 1 of 2: Sales. Showing the first 500 of 600 rows."


def test_a_word_document_shows_its_paragraphs_and_table_rows_as_text(tmp_path):
    path = word_document(
        tmp_path / "d.docx", ["Minutes", "We agreed <b>nothing</b>."], [["a", "b"], ["1", "2"]]
    )
    assert docs.document_text(path.read_bytes()).data.decode() == (
        "Minutes\nWe agreed <b>nothing</b>.\na\tb\n1\t2"
    )


def test_office_files_that_are_not_zips_lack_their_text_or_unpack_to_too_much_are_refused(tmp_path):
    with pytest.raises(DocumentUnreadable, match="not a document"):
        docs.document_text(b"plain text pretending")
    with pytest.raises(DocumentUnreadable, match=r"no word/document\.xml"):
        docs.document_text(workbook(tmp_path / "b.xlsx", rows=2).read_bytes())
    bomb = zip_bomb(tmp_path / "bomb.docx", 80).read_bytes()
    assert len(bomb) < 200_000
    with pytest.raises(DocumentTooLarge, match="unpacks to more than 64 MB"):
        docs.document_text(bomb)
    with pytest.raises(DocumentUnreadable, match="not a readable workbook"):
        docs.workbook_rows(zip_bomb(tmp_path / "small.xlsx", 1).read_bytes())


def test_html_keeps_its_text_structure_and_nothing_that_runs_or_loads():
    cleaned = docs.safe_html(HOSTILE_HTML.encode()).data.decode()
    for gone in ("script", "style", "onload", "<img", "href", "src", "iframe", "127.0.0.1", "fetch", "link"):
        assert gone not in cleaned, gone
    for kept in ("<h1>Quarterly report</h1>", "<b>grew</b>", "<a>click</a>", "<td>Q1</td>"):
        assert kept in cleaned, kept
