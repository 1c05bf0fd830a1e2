"""The notice bar under the conversation: one message at a time (a refusal, a failed send with Retry,
a load failure) and the "ended the turn without a reply" note. UI state only; anything may post.

A notice names the situation it is about (`topic`): whoever knows that situation is over clears it (a
chat opening ends "could not start a new chat", the agent becoming ready ends a start failure), so no
notice outlives what it says.

A notice may belong to one chat (`session`: a failed turn): it is shown only while that chat is, and
waits for it otherwise (posted while another chat is shown, or when the user switches away), so a
failure and its Retry stay with the chat they are about and Retry always acts on that chat. One such
notice is kept per chat (the newest); a chat closed or deleted drops its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from PySide6.QtCore import Property, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices

from app.contract.local_stores import LocalProblem

AGENT = "agent"  # the agent could not start or reconnect
SESSION = "session"  # no chat could be opened (a new chat failed)
OPEN = "open"  # the session the user chose could not be opened (a new chat replaced it)
TURN = "turn"  # a message was not sent, or a turn failed
PROPOSAL = "proposal"  # the agent tried to propose terminal actions and no card could be shown
LOCAL = "local"  # the user's own files (config, drafts, the data folder): what ClawQt does instead


class _Notice(NamedTuple):
    text: str
    retry: str  # the message Retry sends again
    topic: str
    details: str
    session: str  # the chat it belongs to ("" = the window's)
    reopen: str  # the session Retry opens again (a failed load)
    config_file: str = ""  # the config file it is about: "Open config file" opens it


_NONE = _Notice("", "", "", "", "", "")


class Notices(QObject):
    changed = Signal()
    retryRequested = Signal(str)  # the text of the message that was not sent (to the chat shown)
    reopenRequested = Signal(str)  # the key of the session that could not be opened

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._notice = _NONE
        self._shown_session = ""
        self._waiting: dict[str, _Notice] = {}  # chat key -> its notice, shown when the chat is
        self._no_reply = False
        self.open_external: Callable[[QUrl], bool] = QDesktopServices.openUrl  # tests replace it

    def show(
        self,
        text: str,
        retry: str = "",
        topic: str = "",
        details: str = "",
        *,
        session: str = "",
        reopen: str = "",
    ) -> None:
        """`text`: one sentence; `details`: what stands behind it (shown on demand); `session`: the
        chat it belongs to (it waits while another is shown); `reopen`: a session Retry opens again."""
        notice = _Notice(text, retry, topic, details, session, reopen)
        if session and session != self._shown_session:
            self._waiting[session] = notice
            return
        self._waiting.pop(session, None)
        self._notice = notice
        self.changed.emit()

    def failed(
        self,
        what: str,
        error: Exception,
        retry: str = "",
        topic: str = "",
        *,
        session: str = "",
        reopen: str = "",
    ) -> None:
        """ "<what>: <the error's sentence>", its details behind the disclosure."""
        details = getattr(error, "details", "")
        self.show(f"{what}: {error}", retry, topic, details, session=session, reopen=reopen)

    def showing(self, session_key: str) -> None:
        """Another chat is shown: the notice of the one left waits for it, the new one's comes back."""
        if session_key == self._shown_session:
            return
        self._shown_session = session_key
        if self._notice.session and self._notice.session != session_key:
            self._waiting[self._notice.session] = self._notice
            self._set(_NONE)
        waiting = self._waiting.pop(session_key, None)
        if waiting is not None:
            self._set(waiting)

    def forget(self, session_key: str) -> None:
        """A chat was closed or deleted: its notice goes with it."""
        self._waiting.pop(session_key, None)
        if self._notice.session == session_key:
            self._set(_NONE)

    def waiting_for(self, session_key: str) -> str:
        """The text of the notice waiting for a chat not shown ("" if none)."""
        notice = self._waiting.get(session_key)
        return notice.text if notice is not None else ""

    def _set(self, notice: _Notice) -> None:
        self._notice = notice
        self.changed.emit()

    @property
    def topic(self) -> str:
        """What the shown notice is about (one of the topics above, or "")."""
        return self._notice.topic

    def show_problems(self, problems: Sequence[LocalProblem]) -> None:
        """The main side's problems with the user's files as one notice: the first in full, every one
        (with what stands behind it) in the details."""
        if not problems:
            return
        first = problems[0]
        config_file = next((p.config_file for p in problems if p.config_file), "")
        if len(problems) == 1:
            text, details = first.text, first.details
        else:
            more = len(problems) - 1
            text = f"{first.text} {more} more problem{'s' if more > 1 else ''} with your files: see Details."
            details = "\n\n".join(f"{p.text}\n{p.details}" if p.details else p.text for p in problems)
        self._waiting.pop("", None)
        self._set(_Notice(text, "", LOCAL, details, "", "", config_file))

    def clear(self, topic: str | None = None, *, keep_chat_own: bool = False) -> None:
        """Clear the notice (only if it is about `topic`, when one is given; not one that belongs to
        a chat with `keep_chat_own`: it waits for its chat instead)."""
        notice = self._notice
        if not notice.text or (topic is not None and topic != notice.topic):
            return
        if keep_chat_own and notice.session:
            return
        self._set(_NONE)

    def set_no_reply(self, no_reply: bool) -> None:
        if no_reply != self._no_reply:
            self._no_reply = no_reply
            self.changed.emit()

    @Slot()
    def retry(self) -> None:
        """Send the message again, or open the session again; only ever for the chat shown (a chat's
        own notice is shown only with it)."""
        notice = self._notice
        if notice.session and notice.session != self._shown_session:
            return
        if notice.reopen:
            self._set(_NONE)
            self.reopenRequested.emit(notice.reopen)
        elif notice.retry:
            self._set(_NONE)
            self.retryRequested.emit(notice.retry)

    @Slot()
    def openConfigFile(self) -> None:
        """Hand the config file the notice is about to the desktop's editor for it (the main side named
        the file: the view opens nothing else)."""
        if self._notice.config_file:
            self.open_external(QUrl.fromLocalFile(self._notice.config_file))

    notice = Property(str, lambda self: self._notice.text, notify=changed)
    configFile = Property(str, lambda self: self._notice.config_file, notify=changed)
    canRetry = Property(bool, lambda self: bool(self._notice.retry or self._notice.reopen), notify=changed)
    noReply = Property(bool, lambda self: self._no_reply, notify=changed)
    details = Property(str, lambda self: self._notice.details, notify=changed)
