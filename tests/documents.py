"""Real documents for the preview tests, made here: a PDF of pages (Pillow writes it), a workbook
(openpyxl), a Word document (its zip and XML written by hand: the smallest file Word opens), HTML that
tries everything a page can to run or load something."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
HOSTILE_HTML = (
    "<html><head><style>body{background:url(http://127.0.0.1:9/style)}</style>"
    "<script>fetch('http://127.0.0.1:9/script')</script><link rel=stylesheet href=http://127.0.0.1:9/link>"
    '</head><body onload="alert(1)"><h1 style="color:red">Quarterly report</h1>'
    '<p>Revenue <b>grew</b> <img src="http://127.0.0.1:9/img.png"> by 4%.</p>'
    '<a href="javascript:alert(1)">click</a> <a href="http://127.0.0.1:9/page">site</a>'
    '<iframe src="http://127.0.0.1:9/frame">framed text</iframe>'
    "<table><tr><th>Q</th><th>Sum</th></tr><tr><td>Q1</td><td>10</td></tr></table></body></html>"
)


def pdf(path: Path, pages: int) -> Path:
    images = []
    for number in range(1, pages + 1):
        image = Image.new("RGB", (300, 400), "white")
        ImageDraw.Draw(image).rectangle((20, 20, 280, 60 + number), fill=(30, 30, 160))
        images.append(image)
    images[0].save(path, "PDF", save_all=True, append_images=images[1:])
    return path


def workbook(path: Path, rows: int, sheets: int = 2) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sales"
    sheet.append(["region", "total"])
    for number in range(1, rows):
        sheet.append([f"r{number}", number * 10])
    for extra in range(1, sheets):
        book.create_sheet(f"Notes {extra}").append(["kept out"])
    book.save(path)
    return path


def word_document(path: Path, paragraphs: list[str], table: list[list[str]]) -> Path:
    def runs(text: str) -> str:
        return f'<w:p><w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r></w:p>'

    cells = "".join(
        "<w:tr>" + "".join(f"<w:tc>{runs(cell)}</w:tc>" for cell in row) + "</w:tr>" for row in table
    )
    body = "".join(runs(text) for text in paragraphs) + f"<w:tbl>{cells}</w:tbl>"
    head = '<?xml version="1.0" encoding="UTF-8"?>'
    document = f'{head}<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>'
    types = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/'
        'document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.'
        'document.main+xml"/></Types>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", types)
        archive.writestr("word/document.xml", document)
    return path


def zip_bomb(path: Path, megabytes: int) -> Path:
    """A small zip whose one member unpacks to `megabytes` MB of zeros."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"\0" * (megabytes * 2**20))
    return path
