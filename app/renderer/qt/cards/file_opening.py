"""Handing an agent's file to the desktop on the user's click: the default app, the desktop's
application chooser ("Open with..."), the file manager ("Show in folder"). Which file may be handed over
is the main side's (each call re-resolves the reference); this only opens what it was given and says
when nothing could, falling back to the default app or to opening the folder where the desktop offers
no chooser or file manager. UI state: none."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from app.contract.errors import AttachmentError
from app.contract.host_api import AttachmentsHost

Session = tuple[str, int]


class FileOpening:
    def __init__(
        self,
        host: AttachmentsHost,
        show_error: Callable[[str, str], None],
        open_link: Callable[[str], None] = lambda url: None,
    ) -> None:
        self._host = host
        self._show_error = show_error  # (reference, why): the preview panel says it
        self.opened_urls: list[str] = []  # what was handed to the system (tests read it)
        self.open_external: Callable[[QUrl], bool] = QDesktopServices.openUrl
        # a web address goes where every clicked link goes (the main side's link policy, which may ask
        # the user first): the attachments' `linkClicked`, which the window connects to `openLink`
        self.open_link = open_link

    async def open(self, session: Session, uri: str) -> None:
        """The default app (a web address: the link policy)."""
        try:
            url = await self._host.open_target(*session, uri)
        except AttachmentError as exc:
            self._show_error(uri, str(exc))
            return
        self.opened_urls.append(url)
        if QUrl(url).scheme().lower() in ("http", "https", "mailto"):
            self.open_link(url)
        elif not self.open_external(QUrl(url)):
            self._show_error(uri, "nothing opened it")

    async def open_with(self, session: Session, uri: str) -> None:
        try:
            asked = await self._host.choose_app(*session, uri)
        except AttachmentError as exc:
            self._show_error(uri, str(exc))
            return
        if not asked:
            await self.open(session, uri)

    async def show_in_folder(self, session: Session, uri: str) -> None:
        try:
            if await self._host.show_in_folder(*session, uri):
                return
            url = QUrl(await self._host.open_target(*session, uri))
        except AttachmentError as exc:
            self._show_error(uri, str(exc))
            return
        folder = QUrl.fromLocalFile(os.path.dirname(url.toLocalFile()))
        self.opened_urls.append(folder.toString())
        if not self.open_external(folder):
            self._show_error(uri, "nothing opened its folder")
