"""`inbox` in QML: one list of everything that waits for the user across every chat, of every agent:
permission requests (Allow and Deny in place, as the request's own once-options), the agent's
questions (a form filled in and sent in place, through the window's `questions` as on its card; a
link opened in its chat), proposed terminal actions (dismissed in place; run from their card),
turns that finished or failed in a chat not on screen (until that chat is shown). The desktop
notification of a permission request carries the same Allow and Deny (`answer_from_notification`).
Presentation only: what waits, and what an answer does, is the main side's (a request already
answered elsewhere is refused there and leaves the list here)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope, LoadResult
from app.contract.host_api import SessionsHost
from app.contract.terminal_hosts import ProposalsHost
from app.renderer.present.inbox_items import (
    permission_words,
    proposal_words,
    question_words,
    quick_answers,
    settled_words,
)
from app.renderer.present.question_card import field_entry
from app.renderer.present.session_times import time_label
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.current_session import CurrentSession

INBOX = "inbox"  # the notices' topic
READ = ("done", "failed")  # items that wait only to be read (the others wait for an answer)


class Inbox(QObject):
    changed = Signal()

    def __init__(
        self,
        host: SessionsHost,
        session: CurrentSession,
        title_of: Callable[[str], str],
        ops: Operations,
        parent: QObject | None = None,
        proposals: ProposalsHost | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._proposals = proposals  # a proposal is dismissed here; it runs from its card
        self._session = session
        # a chat on screen (the main one or a tile beside it): a turn ending there is read
        self.on_screen: Callable[[str], bool] = lambda key: key == session.sessionKey
        self._title_of = title_of
        self._ops = ops
        self._items: dict[str, dict[str, Any]] = {}  # item id -> what it says (insertion: oldest first)
        host.subscribe(self._on_envelope)
        session.shown.connect(self.chat_shown)

    # --- what waits --------------------------------------------------------------------------------------
    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "permission_request":
            words = permission_words(envelope.tool_call, envelope.request_text)
            answers = quick_answers(envelope.options)
            self._add(f"permission:{envelope.request_id}", envelope.session_key, "permission", words, answers)
        elif envelope.kind == "permission_resolved":
            self._drop(f"permission:{envelope.request_id}")
        elif envelope.kind == "question_asked" and not envelope.refused:
            words = question_words(envelope.message, envelope.form.title if envelope.form else "")
            fields = [field_entry(f) for f in envelope.form.fields] if envelope.form else []
            self._add(
                f"question:{envelope.request_id}", envelope.session_key, "question", words, fields=fields
            )
        elif envelope.kind == "question_ended":
            self._drop(f"question:{envelope.request_id}")
        elif envelope.kind == "proposal":
            item = f"proposal:{envelope.proposal_id}"
            if envelope.state == "awaiting":
                choice = envelope.choices[0] if envelope.choices else None
                command = next((a.input for a in choice.actions if a.input), "") if choice else ""
                self._add(item, envelope.session_key, "proposal", proposal_words(command))
            else:
                self._drop(item)
        elif envelope.kind == "prompt_settled" and not envelope.stopped:
            key = envelope.session_key
            if not self.on_screen(key):  # a turn ended out of sight: waiting to be read
                self._drop(f"settled:{key}")
                what = "failed" if envelope.error else "done"
                self._add(f"settled:{key}", key, what, settled_words(envelope.error))

    def chat_shown(self, result: LoadResult) -> None:
        self._drop(f"settled:{result.session_key}")  # read now

    def _add(
        self,
        item: str,
        key: str,
        kind: str,
        words: str,
        answers: dict[str, str] | None = None,
        fields: list[dict[str, Any]] | None = None,  # a question's form, filled in here
    ) -> None:
        self._items[item] = {"id": item, "key": key, "kind": kind, "words": words, "at": time.time(),
                             "answers": answers or {}, "fields": fields or [],
                             "requestId": item.split(":", 1)[1]}  # fmt: skip
        self.changed.emit()

    def _drop(self, item: str) -> None:
        if self._items.pop(item, None) is not None:
            self.changed.emit()

    def _entries(self) -> list[dict[str, Any]]:
        now = datetime.now()
        return [
            {
                **entry,
                "title": self._title_of(entry["key"]),
                "when": time_label(datetime.fromtimestamp(entry["at"]), now),
                "canAllow": "allow" in entry["answers"],
                "canDeny": "deny" in entry["answers"],
            }
            for entry in reversed(self._items.values())  # the newest first
        ]

    items = variant_property("QVariantList", lambda self: self._entries(), notify=changed)
    count = Property(int, lambda self: len(self._items), notify=changed)
    waiting = Property(int, lambda self: self._waiting(), notify=changed)  # answers wanted

    def _waiting(self) -> int:
        return sum(entry["kind"] not in READ for entry in self._items.values())

    # --- answers -----------------------------------------------------------------------------------------
    @Slot(str)
    def allow(self, item: str) -> None:
        self._answer(item, "allow")

    @Slot(str)
    def deny(self, item: str) -> None:
        self._answer(item, "deny")

    @Slot(str)
    def dismiss(self, item: str) -> None:
        """Dismiss a proposal in place (the main side ends it `cancelled` unless it already ended; its
        envelope takes it off the list). Running one stays on its card, which shows each choice's
        actions and the terminal they go to."""
        entry = self._items.get(item)
        proposals = self._proposals
        if entry is None or entry["kind"] != "proposal" or proposals is None:
            return
        proposal_id = entry["requestId"]
        self._ops.call("Could not dismiss the proposal", lambda: proposals.cancel(proposal_id), topic=INBOX)

    @Slot(str)
    def open(self, item: str) -> None:
        """Show the item's chat (its card is there); a finished turn is read then."""
        entry = self._items.get(item)
        if entry is not None:
            self._session.openSession(entry["key"])
            if entry["kind"] in READ:
                self._drop(item)

    def answer_from_notification(self, key: str, action: str) -> None:
        """A notification's Allow or Deny: the chat's newest permission request waiting gets it."""
        for item, entry in reversed(self._items.items()):
            if entry["key"] == key and entry["kind"] == "permission":
                self._answer(item, action)
                return

    def _answer(self, item: str, which: str) -> None:
        entry = self._items.get(item)
        option = entry["answers"].get(which) if entry is not None else None
        if entry is None or option is None:
            return
        if not self._host.answer_permission(entry["requestId"], option):  # answered meanwhile, or gone
            self._drop(item)
            self._ops.notices.show("That request was already answered.", topic=INBOX)
