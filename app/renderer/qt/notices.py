"""The notice bar under the conversation: one message at a time (a refusal, a failed send with Retry,
a load failure) and the "ended the turn without a reply" note. UI state only; anything may post."""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, Signal, Slot


class Notices(QObject):
    changed = Signal()
    retryRequested = Signal(str)  # the text of the message that was not sent

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._retry = ""
        self._no_reply = False

    def show(self, text: str, retry: str = "") -> None:
        self._text, self._retry = text, retry
        self.changed.emit()

    def clear(self) -> None:
        self.show("")

    def set_no_reply(self, no_reply: bool) -> None:
        if no_reply != self._no_reply:
            self._no_reply = no_reply
            self.changed.emit()

    @Slot()
    def retry(self) -> None:
        text = self._retry
        if text:
            self.clear()
            self.retryRequested.emit(text)

    notice = Property(str, lambda self: self._text, notify=changed)
    canRetry = Property(bool, lambda self: bool(self._retry), notify=changed)
    noReply = Property(bool, lambda self: self._no_reply, notify=changed)
