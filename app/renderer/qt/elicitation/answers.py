"""The agent's questions, the UI side [questions]: what the user typed into each question's fields (kept
here, by question, so a card scrolled away and back, or a chat left and shown again, still holds it),
the problems the main side found in the last answer, and the user's Send, Decline, Cancel and Open.

The main side checks the answer and decides what goes to the agent (app/main/elicitation/answer.py);
this only gathers the values: each field's own, else its default as the card shows it, a checkbox
left alone as No. A link opens in the browser only after the main side took the user's yes for it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PySide6.QtCore import Property, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtQml import QJSValue

from app.contract.elicitation import Form, QuestionAction
from app.contract.envelopes import Envelope
from app.contract.host_api import SessionsHost
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.timeline.items import ElicitationItem

KEPT_QUESTIONS = 64  # the newest questions whose typed values are kept


class QuestionAnswers(ChatPart):
    changed = Signal()

    def __init__(
        self, host: SessionsHost, session: CurrentSession, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._values: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._problems: dict[str, dict[str, str]] = {}
        self._revision = 0
        self.open_external = QDesktopServices.openUrl  # tests replace it: nothing opens on their machine
        # the forms waiting in every chat, by question: the inbox answers those of chats not shown
        self._forms: dict[str, Form] = {}
        session.sessionChanged.connect(self._changed)  # a replayed trace is read-only
        host.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "question_asked" and envelope.form is not None and not envelope.refused:
            self._forms[envelope.request_id] = envelope.form
        elif envelope.kind == "question_ended":
            self._forms.pop(envelope.request_id, None)

    def _changed(self) -> None:
        self._revision += 1
        self.changed.emit()

    def _item(self, request_id: str) -> ElicitationItem | None:
        timeline = self._session.timeline
        item = timeline.items.get(f"elicitation:{request_id}") if timeline is not None else None
        return item if isinstance(item, ElicitationItem) else None

    def _question(self, request_id: str) -> ElicitationItem | None:
        """The question, while it can still be answered here (never in a replayed trace)."""
        item = self._item(request_id)
        waiting = item is not None and item.status == "waiting" and not self._session.readOnly
        return item if waiting else None

    @Slot(str, result=list)
    def unsent(self, request_id: str) -> list[str]:
        """What the user had typed into a question that ended unanswered (the agent went away): shown on
        its card, so nothing typed is lost with it."""
        item = self._item(request_id)
        typed = self._values.get(request_id, {})
        if item is None or item.status == "accept" or item.form is None or not typed:
            return []
        return [
            f"{f.label}: {', '.join(map(str, value)) if isinstance(value, list) else value}"
            for f in item.form.fields
            if (value := typed.get(f.name)) not in (None, "", [])
        ]

    @Slot(str, str, result="QVariant")
    def value(self, request_id: str, name: str) -> Any:
        """What the user put in the field, or None when untouched (the card shows the default)."""
        return self._values.get(request_id, {}).get(name)

    @Slot(str, str, "QVariant")
    def setValue(self, request_id: str, name: str, value: Any) -> None:
        values = self._values.setdefault(request_id, {})
        self._values.move_to_end(request_id)
        while len(self._values) > KEPT_QUESTIONS:
            self._values.popitem(last=False)
        values[name] = value.toVariant() if isinstance(value, QJSValue) else value  # a JS array: a list
        problems = self._problems.get(request_id)
        if problems is not None and problems.pop(name, None) is not None:
            self._changed()

    @Slot(str, str, result=str)
    def problem(self, request_id: str, name: str) -> str:
        """Why the field's value cannot go yet ("" when it can); `name` "" is the question's own."""
        return self._problems.get(request_id, {}).get(name, "")

    def _answer(self, request_id: str, action: QuestionAction, values: dict[str, Any]) -> dict[str, str]:
        problems = self._ops.call(
            "Could not answer the agent's question",
            lambda: self._host.answer_question(request_id, action, values),
        )
        problems = problems if problems is not None else {"": "The answer could not be sent."}
        if problems:
            self._problems[request_id] = dict(problems)
        else:
            self._problems.pop(request_id, None)
            if action == "accept":  # declined or cancelled: the card still shows what was typed
                self._values.pop(request_id, None)
        self._changed()
        return problems

    def _form(self, request_id: str) -> Form | None:
        """The form of a question waiting: on the chat shown, else in another chat (from the inbox)."""
        question = self._question(request_id)
        if question is not None:
            return question.form
        shown = self._item(request_id)
        return self._forms.get(request_id) if shown is None else None  # a replayed trace's stays shut

    @Slot(str, result=bool)
    def send(self, request_id: str) -> bool:
        """Send the form; False (and each field's problem shown) when something must change first."""
        form = self._form(request_id)
        if form is None:
            return False
        typed = self._values.get(request_id, {})
        values: dict[str, Any] = {}
        for field in form.fields:
            value = typed.get(field.name, field.default)
            values[field.name] = False if value is None and field.kind == "boolean" else value
        return not self._answer(request_id, "accept", values)

    @Slot(str)
    def decline(self, request_id: str) -> None:
        self._answer(request_id, "decline", {})

    @Slot(str)
    def cancel(self, request_id: str) -> None:
        self._answer(request_id, "cancel", {})

    @Slot(str)
    def openLink(self, request_id: str) -> None:
        """The user agreed to open the link: the agent hears yes, then the browser opens it."""
        question = self._question(request_id)
        if question is not None and question.url and not self._answer(request_id, "accept", {}):
            self.open_external(QUrl(question.url))

    revision = Property(int, lambda self: self._revision, notify=changed)
    readOnly = Property(bool, lambda self: self._session.readOnly, notify=changed)
