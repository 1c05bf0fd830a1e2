"""What every window object over the chat shown holds, named the same everywhere: the chat shown
(`CurrentSession`) and the window's one door for host calls (`Operations`)."""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.renderer.qt.common.operations import Operations
from app.renderer.qt.conversation.current_session import CurrentSession


class ChatPart(QObject):
    def __init__(self, session: CurrentSession, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._ops = ops
