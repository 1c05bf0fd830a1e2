"""`chatExport` in QML: the shown chat saved as a Markdown file (Ctrl+Shift+E, the chat menu). The
desktop's save dialog asks where (it suggests the chat's title in the folder used last); the Markdown
is written by the one serializer (`timeline_markdown`, each turn with its changed files) and the file
by the main side (`exports`), off the GUI thread; the notice bar says where it went or why it could
not. Nothing is exported while a chat has nothing in it."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.host_api import ExportsHost
from app.renderer.qt.common.desktop_dialog import open_dialog, save_dialog
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.timeline.markdown_export import FilesOf, timeline_markdown

EXPORT = "export"  # the notice's topic
MAX_NAME_CHARS = 80
_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def file_name(title: str) -> str:
    """A file name from a chat's title: characters no desktop allows replaced, whitespace collapsed,
    cut to a length every file system takes."""
    name = " ".join(_UNSAFE.sub(" ", title).split()).strip(". ")[:MAX_NAME_CHARS].rstrip(". ")
    return name or "Chat"


class ChatExport(ChatPart):
    busyChanged = Signal()

    def __init__(
        self,
        exports: ExportsHost,
        session: CurrentSession,
        title: Callable[[], str],
        ops: Operations,
        parent: QObject | None = None,
        files_of: FilesOf | None = None,
        origin: Callable[[], str] = lambda: "",
    ) -> None:
        super().__init__(session, ops, parent)
        self._exports = exports
        self._title = title
        self._files_of = files_of  # each turn's changed files (the footers'), said under the turn
        self._origin = origin  # the chat this one continues, in words ("" for none)
        self._folder = str(Path.home())
        self._dialog: Any = None
        self._busy = False

    busy = Property(bool, lambda self: self._busy, notify=busyChanged)

    @Slot()
    def exportChat(self) -> None:
        timeline = self._session.timeline
        if timeline is None or not timeline.order:
            self._ops.notices.show("There is nothing in this chat to export yet.", topic=EXPORT)
            return
        title = self._title()
        suggested = str(Path(self._folder) / f"{file_name(title)}.md")
        self._dialog = open_dialog(
            self._dialog,
            lambda: save_dialog("Export chat as Markdown", suggested, lambda path: self.save_to(path, title)),
        )

    def save_to(self, path: str, title: str) -> None:
        """The user chose `path`: the shown chat as it is now goes there."""
        timeline = self._session.timeline
        if timeline is None or not path:
            return
        subtitle = f"Exported from ClawQt on {time.strftime('%Y-%m-%d %H:%M')}"
        if origin := self._origin():
            subtitle += f". {origin}"
        text = timeline_markdown(timeline, title, subtitle, self._files_of)
        self._set_busy(True)
        self._ops.run(
            self._exports.save_text(path, text),
            "The chat was not exported",
            done=lambda _: self._exported(path),
            after=lambda: self._set_busy(False),
            topic=EXPORT,
        )

    def _exported(self, path: str) -> None:
        self._folder = str(Path(path).parent)
        self._ops.notices.show(f"Chat exported to {path}", topic=EXPORT)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busyChanged.emit()
