"""Links in the real window: a plain web link opens at once; a homograph host or text-direction
controls open only after the user saw the real target (punycode, controls made visible) and chose Open;
a mail link that would attach files is refused; an attachment card's web address
goes the same way. Opening goes through Qt's URL handlers, caught here."""

from __future__ import annotations

from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from tests.conftest import scripted_agent_argv


class Opened(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))


def test_links_open_at_once_only_when_they_read_as_they_are(ui):
    opened = Opened()
    for scheme in ("http", "https", "mailto"):
        QDesktopServices.setUrlHandler(scheme, opened, "open")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        conversation = window.objects.conversation
        conversation.openLink("https://example.org/docs")
        assert opened.urls == ["https://example.org/docs"]

        conversation.openLink("https://\u0430pple.com/login")  # a Cyrillic "а"
        target = await ui.until(lambda: ui.find(window, "linkTarget"))
        await ui.until(target.isVisible)
        assert target.property("text") == "https://xn--pple-43d.com/login"
        assert "\u0430pple.com is xn--pple-43d.com" in ui.item(window, "linkReason").property("text")
        assert opened.urls == ["https://example.org/docs"]  # nothing opened before the choice
        await ui.screenshots(window, "30-link-confirmation")
        ui.item(window, "linkOpen").clicked.emit()
        await ui.until(lambda: not target.isVisible())
        assert opened.urls[-1] == "https://xn--pple-43d.com/login"  # the real target, in punycode

        conversation.openLink("https://example.org/\u202egpj.exe")
        await ui.until(target.isVisible)
        assert target.property("text") == "https://example.org/<U+202E>gpj.exe"
        ui.item(window, "linkCancel").clicked.emit()
        await ui.until(lambda: not target.isVisible())
        assert len(opened.urls) == 2  # cancelled: nothing opened

        conversation.openLink("mailto:boss@example.org?attach=/home/me/.ssh/id_rsa")
        assert window.objects.notices.notice == "Not opened: a mail link that attaches files is not opened."
        assert len(opened.urls) == 2

        # an attachment card's web address is a clicked link like any other
        window.objects.attachments.openExternally("https://\u0430pple.com/report.zip")
        await ui.until(target.isVisible)
        assert target.property("text") == "https://xn--pple-43d.com/report.zip"
        ui.item(window, "linkCancel").clicked.emit()
        await ui.until(lambda: not target.isVisible())
        assert len(opened.urls) == 2

    try:
        ui.run(scenario())
    finally:
        for scheme in ("http", "https", "mailto"):
            QDesktopServices.unsetUrlHandler(scheme)
