"""Documents previewed in the real window on the user's click, fed by a real agent subprocess: a PDF's
first pages drawn as images, a workbook's first sheet and a Word document's text as read-only content,
an HTML page's text structure with nothing of it run or loaded (a real loopback HTTP server counts the
requests: none), and a document past a limit or broken said in the panel with "Open with system app"."""

from __future__ import annotations

import asyncio

from app.main.files import previews as document_previews
from tests.conftest import scripted_agent_argv
from tests.documents import HOSTILE_HTML, pdf, word_document, workbook
from tests.ui.cards.attachment_support import cards_shown, child_named
from tests.ui.conversation.test_plain_text_window import Fetches, loopback  # noqa: F401 - the fixture
from tests.ui_harness import find_all


def test_pdf_workbook_word_and_html_previews_show_their_content_and_load_nothing(ui, loopback):  # noqa: F811
    root = ui.tmp_path
    pdf(root / "report.pdf", 12)
    workbook(root / "book.xlsx", rows=600)
    word_document(root / "minutes.docx", ["Minutes of the meeting", "Nothing agreed."], [["who", "what"]])
    (root / "page.html").write_text(HOSTILE_HTML.replace("http://127.0.0.1:9", loopback))
    (root / "broken.pdf").write_bytes(b"%PDF-1.7 and then nothing")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        attachments = window.objects.attachments
        await ui.type_and_send(window, "attach-docs report.pdf book.xlsx minutes.docx page.html broken.pdf")
        await ui.until(lambda: not window.objects.session.busy)
        await ui.until(
            lambda: (
                len(cards_shown(window)) == 5
                and all(c.property("modelData")["status"] == "available" for c in cards_shown(window))
            )
        )

        def open_card(name: str) -> None:
            uri = str(root / name)
            next(c for c in cards_shown(window) if c.property("modelData")["uri"] == uri).clicked.emit()

        open_card("report.pdf")
        await ui.until(lambda: attachments.preview.get("kind") == "pdf", 20)
        panel = ui.item(window, "previewPanel")  # made by the first preview
        await ui.until(lambda: len(find_all(window.root.contentItem(), "previewPage")) == 10)
        assert attachments.preview["note"] == "Showing pages 1-10 of 12."
        first = find_all(window.root.contentItem(), "previewPage")[0]
        await ui.until(lambda: first.property("implicitWidth") == document_previews.PDF_WIDTH_PX)
        await ui.screenshots(window, "78-preview-pdf")

        open_card("book.xlsx")
        await ui.until(lambda: attachments.preview.get("kind") == "csv", 20)
        html = attachments.preview["html"]
        assert "<table" in html and "region" in html and "r499" in html and "r500" not in html
        assert attachments.preview["note"].startswith(
            "Sheet 1 of 2: Sales. Showing the first 500 of 600 rows."
        )
        await ui.screenshots(window, "79-preview-workbook")

        open_card("minutes.docx")
        await ui.until(lambda: attachments.preview.get("kind") == "text", 20)
        text = child_named(panel, "previewText").property("text")
        assert "Minutes of the meeting" in text and "Nothing agreed." in text

        open_card("page.html")
        await ui.until(lambda: attachments.preview.get("kind") == "html", 20)
        await asyncio.sleep(0.5)  # anything the rich text would fetch has had its time
        shown = attachments.preview["html"]
        assert "Quarterly report" in shown and "<img" not in shown and "src" not in shown
        assert Fetches.seen == []
        await ui.screenshots(window, "80-preview-html")

        open_card("broken.pdf")
        await ui.until(lambda: attachments.preview.get("kind") == "other", 20)
        assert attachments.preview["note"].startswith("No preview: not a readable PDF")
        assert child_named(panel, "previewOpenButton").isVisible()
        await ui.screenshots(window, "81-preview-broken-pdf")

    ui.run(scenario(), timeout=90)
