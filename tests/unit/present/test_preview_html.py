"""The preview panel's rich text: code highlighted, Markdown rendered with raw HTML escaped and images
inert, CSV cells escaped and bounded."""

from __future__ import annotations

from app.renderer.present.preview import MAX_CSV_ROWS, csv_html, preview_html


def test_source_code_is_highlighted_by_its_file_name():
    html, note = preview_html("text", "tool.py", b"def main():\n    return 42\n")
    assert "<span" in html and "color" in html and "main" in html and note == ""


def test_markdown_is_rendered_with_raw_html_escaped_and_images_not_loaded():
    source = b"# Title\n\n<script>alert(1)</script>\n\n![x](https://tracker.example/p.png)\n"
    html, _ = preview_html("markdown", "notes.md", source)
    assert "Title" in html and "<script>" not in html and "&lt;script&gt;" in html
    assert "<img" not in html  # an image reference is shown as a link-like label, never loaded


def test_csv_becomes_an_escaped_bounded_table():
    rows = "\n".join(f"r{i},<b>{i}</b>" for i in range(MAX_CSV_ROWS + 5)).encode()
    html, hidden = csv_html("data.csv", b"name,value\n" + rows)
    assert html.count("<tr>") == MAX_CSV_ROWS and hidden == 6
    assert "<th>name</th>" in html and "&lt;b&gt;1&lt;/b&gt;" in html
    tsv, _ = csv_html("data.tsv", b"a\tb\n1\t2\n")
    assert "<td>2</td>" in tsv
