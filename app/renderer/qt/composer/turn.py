"""The composer and the turn it starts: the draft (saved per session, debounced, flushed on switch and
quit), sending (the user's message shown at once, with its attachments, then the prompt), Stop, and
what a turn's end says (a failure with Retry that loses nothing, or that no reply came).

A message sent while the chat's turn runs, or before any chat is open (the agent still starting, its
new chat failed), is queued (queue.py). A turn that ends by itself sends the chat's next queued
message (in a chat the user left, when they come back to it); one the user stopped, or that failed,
leaves the queue waiting until the user sends one ("Send now") or the next turn ends. "Send now" during
a turn stops it and sends that message next. A queue made before any chat was open goes out as soon as
a chat opens."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot

from app.contract.attachments import PromptAttachment
from app.contract.envelopes import LoadResult
from app.contract.errors import HostError
from app.contract.host_api import SessionsHost
from app.contract.local_stores import StringStore
from app.renderer.qt.common.notices import TURN
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.composer.attachments import ComposerAttachments, prompt_attachments
from app.renderer.qt.composer.queue import MessageQueue, files_of
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.timeline.parts import Attachment, AttachmentPart

NEW_CHAT_DRAFT = "__new_chat__"  # what is typed before any chat is open
DRAFT_SAVE_MS = 400  # the longest a typed change waits before it is on disk (typing never postpones it)


class TurnController(ChatPart):
    draftChanged = Signal()
    turnEnded = Signal(str)  # the stop reason ("error" when the prompt failed)
    messageSent = Signal(str, str)  # (session key, text)

    def __init__(
        self,
        host: SessionsHost,
        drafts: StringStore,
        session: CurrentSession,
        composer: ComposerAttachments,
        ops: Operations,
        queue: MessageQueue,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._drafts = drafts
        self._composer = composer
        self._queue = queue
        self._draft_key = ""
        self._draft = drafts.get(NEW_CHAT_DRAFT)
        self._send_on_open = False  # something was queued before any chat opened, in this run
        self._send_after_stop: set[str] = set()  # chats whose turn "Send now" stopped
        self._resume_on_show: set[str] = set()  # chats left whose queue goes on when shown again
        queue.show(NEW_CHAT_DRAFT)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(DRAFT_SAVE_MS)
        self._save_timer.timeout.connect(self._save_draft)
        self._clock = QTimer(self)  # ticks only while a turn runs ("8 s elapsed")
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._tick)
        session.shown.connect(self._on_shown)
        session.liveChanged.connect(self._on_live_changed)
        ops.notices.retryRequested.connect(self.send)

    # --- drafts --------------------------------------------------------------------------------------
    @Slot(str)
    def setDraft(self, text: str) -> None:
        """Saved at most DRAFT_SAVE_MS after the first unsaved change: steady typing must not keep
        postponing the save (restarting the delay on every key never saved a steady typist)."""
        if text != self._draft:
            self._draft = text
            if not self._save_timer.isActive():
                self._save_timer.start()

    def stash_draft(self) -> None:
        """Save a draft still waiting for its debounce (a switch, quitting)."""
        if self._save_timer.isActive():
            self._save_timer.stop()
            self._save_draft()

    def _save_draft(self) -> None:
        self._drafts.set(self._draft_key or NEW_CHAT_DRAFT, self._draft)

    def _on_shown(self, result: LoadResult) -> None:
        self.stash_draft()
        first_chat = not self._draft_key
        pending = self._drafts.get(NEW_CHAT_DRAFT) if first_chat else ""
        self._draft_key = result.session_key
        self._draft = self._drafts.get(result.session_key)
        if pending:  # typed before any chat was shown (the window's start frame): the first one gets it
            if self._draft:  # after that chat's own draft: neither is lost
                self._draft = f"{self._draft}\n{pending}"
                self._drafts.set(result.session_key, self._draft)
                self._drafts.set(NEW_CHAT_DRAFT, "")
            else:
                self._drafts.move(NEW_CHAT_DRAFT, result.session_key)
                self._draft = pending
        self._ops.notices.set_no_reply(False)
        self.draftChanged.emit()
        self._on_live_changed()
        if first_chat:
            self._queue.merge_into(NEW_CHAT_DRAFT, result.session_key)
        self._queue.show(result.session_key)
        if self._send_on_open or result.session_key in self._resume_on_show:
            self._send_on_open = False
            self._resume_on_show.discard(result.session_key)
            self._send_next(result.session_key)

    # --- the turn ------------------------------------------------------------------------------------
    @Slot(str)
    def send(self, text: str) -> None:
        """Show the user's message at once (optimistic, with its attachments), then send it; while the
        chat's turn runs, or before any chat is open, it is queued instead."""
        session = self._session
        if session.readOnly or (not text.strip() and not self._composer.count):
            return  # a replayed trace is shown: there is no agent to send to
        key = session.sessionKey
        chips = self._composer.take()
        self._set_draft_sent(key)
        if session.busy or not key or session.timeline is None:
            self._queue.add(key or NEW_CHAT_DRAFT, text, files_of(chips))
            self._send_on_open = self._send_on_open or not key
            return
        self._send_now(key, text, chips)

    def send_aside(self, text: str) -> None:
        """A message made elsewhere (the review's comments), sent as one typed is, but leaving what the
        composer holds (the draft, its attachments) as it is; queued while the turn runs."""
        session = self._session
        if session.readOnly or not text.strip():
            return
        key = session.sessionKey
        if session.busy or not key or session.timeline is None:
            self._queue.add(key or NEW_CHAT_DRAFT, text, [])
            self._send_on_open = self._send_on_open or not key
            return
        self._send_now(key, text, [])

    def _set_draft_sent(self, key: str) -> None:
        self._draft = ""
        self._save_timer.stop()
        self._drafts.set(key or NEW_CHAT_DRAFT, "")
        self.draftChanged.emit()

    # --- the queue ----------------------------------------------------------------------------------
    @Slot(str)
    def sendQueuedNow(self, message_id: str) -> None:
        """Send this queued message now: at once when nothing runs, else the turn is stopped and it
        goes out as soon as the stop is settled."""
        key = self._session.sessionKey
        if not key:
            return  # no chat yet: it goes out when one opens
        if self._session.busy:
            if self._queue.to_front(key, message_id):
                self._send_after_stop.add(key)
                self.stop()
            return
        message = self._queue.take(key, message_id)
        if message is not None:
            self._send_now(key, message["text"], list(message["files"]))

    @Slot(str)
    def editQueued(self, message_id: str) -> None:
        """Take a queued message back into the composer, before what is typed there (nothing is
        replaced); its files are attached again (each checked again: one gone since is said)."""
        message = self._queue.take(self._session.sessionKey or NEW_CHAT_DRAFT, message_id)
        if message is None:
            return
        self._save_timer.stop()
        self._draft = "\n\n".join(t for t in (message["text"], self._draft) if t)
        self._save_draft()
        self.draftChanged.emit()
        for file in message["files"]:
            self._composer.add_path(file["path"])

    def _send_next(self, key: str) -> None:
        message = self._queue.take(key)
        if message is not None:
            self._send_now(key, message["text"], list(message["files"]))

    def _turn_over(self, key: str, stop_reason: str) -> None:
        """A turn that ended by itself, or that "Send now" stopped, lets the next queued message go: at
        once in the chat shown; in a chat the user left, when they come back to it (an agent takes
        prompts for the chat it has open, the one shown)."""
        stopped_for_next = key in self._send_after_stop
        self._send_after_stop.discard(key)
        if stop_reason == "cancelled" and not stopped_for_next:
            return
        if key == self._session.sessionKey:
            self._send_next(key)
        elif self._queue.messages(key):
            self._resume_on_show.add(key)

    def _send_now(self, key: str, text: str, chips: list[Any]) -> None:
        """`chips`: the composer's, or a queued message's files (both have path, name and mime)."""
        session = self._session
        if self._host.shown_elsewhere(key):  # its agent has another chat open (a tile beside)
            self._ops.spawn(self._reopen_then_send(key, text, chips))
            return
        message_id = f"user:{uuid.uuid4()}"
        self.messageSent.emit(key, text.strip())
        parts = [
            AttachmentPart(Attachment(name=c["name"], uri=Path(c["path"]).as_uri(), mime_type=c["mime"]))
            for c in chips
        ]
        session.add_optimistic(message_id, text, parts, time.monotonic())
        self._ops.notices.set_no_reply(False)
        self._ops.notices.clear()
        self._ops.spawn(self._send(key, text, message_id, prompt_attachments(chips), chips))

    async def _reopen_then_send(self, key: str, text: str, chips: list[Any]) -> None:
        """Opened again first (before the message is shown: a reload replaces the timeline), then
        sent; given back to the composer when it could not be opened."""
        reopened = await self._session.reopen_for_prompt()
        if reopened and self._session.sessionKey == key and not self._host.shown_elsewhere(key):
            self._send_now(key, text, chips)
            return
        self._give_back(key, text, chips)

    async def _send(
        self,
        key: str,
        text: str,
        message_id: str,
        attachments: tuple[PromptAttachment, ...],
        chips: list[dict[str, Any]],
    ) -> None:
        try:
            result = await self._host.prompt(key, text, attachments=attachments, client_message_id=message_id)
        except HostError as exc:
            arrived = self._session.settle_failed(key, message_id, str(exc))
            # the notice belongs to the chat the turn ran in: it waits for it if another is shown, and
            # its Retry (shown only with that chat) sends there
            if arrived:  # the message is in the conversation: Retry sends it again
                self._ops.notices.failed(
                    "The agent stopped before finishing its reply", exc, retry=text, topic=TURN, session=key
                )
            else:  # nothing of it is shown any more: it goes back where it was typed
                self._give_back(key, text, chips)
                self._ops.notices.failed(
                    "Your message was not sent (it is back in the composer)", exc, topic=TURN, session=key
                )
            self._send_after_stop.discard(key)  # the queue waits for the user
            self.turnEnded.emit("error")
            return
        if result.stop_reason == "end_turn" and self._turn_is_empty(key, message_id):
            self._ops.notices.set_no_reply(True)
        self.turnEnded.emit(result.stop_reason)
        self._turn_over(key, result.stop_reason)

    def _give_back(self, key: str, text: str, chips: list[dict[str, Any]]) -> None:
        """An unsent message returns to its session's draft, before whatever was typed since (nothing
        is replaced), and is saved at once; its attachments return to the composer."""
        text = text.strip()
        if key == self._draft_key:
            self._save_timer.stop()
            self._draft = "\n\n".join(t for t in (text, self._draft) if t)
            self._save_draft()
            self.draftChanged.emit()
            if chips:
                self._composer.restore(chips)
        else:  # the user went to another chat meanwhile: the message waits in its own chat's draft
            self._drafts.set(key, "\n\n".join(t for t in (text, self._drafts.get(key)) if t))

    def _turn_is_empty(self, key: str, message_id: str) -> bool:
        timeline = self._session.store.timelines.get(key)
        if timeline is None or key != self._session.sessionKey:
            return False
        segment_id = timeline.optimistic.get(message_id)
        return bool(timeline.order) and timeline.order[-1] == segment_id

    @Slot(str, str)
    def answerPermission(self, request_id: str, option_id: str) -> None:
        """The user chose an option of a permission prompt (answered once; the main side checks)."""
        self._host.answer_permission(request_id, option_id or None)

    @Slot()
    def stop(self) -> None:
        if self._session.busy:
            self._ops.spawn(self._host.cancel(self._session.sessionKey))

    # --- the live turn's clock -------------------------------------------------------------------------
    def _on_live_changed(self) -> None:
        if self._session.busy:
            self._clock.start()
        else:
            self._clock.stop()

    def _tick(self) -> None:
        """The live turn's footer says how long it has run."""
        rows = self._session.model.rows
        if rows and rows[-1].kind == "turn-footer":
            self._session.model.refresh_items([rows[-1].key])

    draft = Property(str, lambda self: self._draft, notify=draftChanged)
