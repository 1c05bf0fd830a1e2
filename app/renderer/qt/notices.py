"""The notice bar under the conversation: one message at a time (a refusal, a failed send with Retry,
a load failure) and the "ended the turn without a reply" note. UI state only; anything may post.

A notice names the situation it is about (`topic`): whoever knows that situation is over clears it (a
chat opening ends "could not start a new chat", the agent becoming ready ends a start failure), so no
notice outlives what it says."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.host_api import LocalProblem

AGENT = "agent"  # the agent could not start or reconnect
SESSION = "session"  # no chat could be opened (a new chat failed)
OPEN = "open"  # the session the user chose could not be opened (a new chat replaced it)
TURN = "turn"  # a message was not sent, or a turn failed
LOCAL = "local"  # the user's own files (config, drafts, the data folder): what ClawQt does instead


class Notices(QObject):
    changed = Signal()
    retryRequested = Signal(str)  # the text of the message that was not sent

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._retry = ""
        self._topic = ""
        self._details = ""
        self._no_reply = False

    def show(self, text: str, retry: str = "", topic: str = "", details: str = "") -> None:
        """`text`: one sentence; `details`: what stands behind it (shown on demand)."""
        self._text, self._retry, self._topic, self._details = text, retry, topic, details
        self.changed.emit()

    def failed(self, what: str, error: Exception, retry: str = "", topic: str = "") -> None:
        """ "<what>: <the error's sentence>", its details behind the disclosure."""
        self.show(f"{what}: {error}", retry, topic, getattr(error, "details", ""))

    @property
    def topic(self) -> str:
        """What the shown notice is about (one of the topics above, or "")."""
        return self._topic

    def show_problems(self, problems: Sequence[LocalProblem]) -> None:
        """The main side's problems with the user's files as one notice: the first in full, every one
        (with what stands behind it) in the details."""
        if not problems:
            return
        first = problems[0]
        if len(problems) == 1:
            self.show(first.text, topic=LOCAL, details=first.details)
            return
        more = len(problems) - 1
        text = f"{first.text} {more} more problem{'s' if more > 1 else ''} with your files: see Details."
        details = "\n\n".join(f"{p.text}\n{p.details}" if p.details else p.text for p in problems)
        self.show(text, topic=LOCAL, details=details)

    def clear(self, topic: str | None = None) -> None:
        """Clear the notice (only if it is about `topic`, when one is given)."""
        if self._text and (topic is None or topic == self._topic):
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
    details = Property(str, lambda self: self._details, notify=changed)
