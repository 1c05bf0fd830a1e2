"""The agent's questions waiting for the user (ACP `elicitation/create`), by the token of its request:
which session (key and generation) asked, the form or link it showed, and how each ended: answered by
the user exactly once (a form only once every field passes its check), or cancelled by a rule of the
session state machine (which decides when; this keeps the books, like `permissions.py`).

A link the user agreed to open stays known by its elicitation id until the agent says the flow is
done (`elicitation/complete`), so its card can say so."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from app.contract.acp_fields import dict_field, str_field
from app.contract.elicitation import (
    Form,
    QuestionAction,
    QuestionAskedEnvelope,
    QuestionEndedEnvelope,
    QuestionReason,
    Value,
)
from app.main.elicitation.answer import check_answer
from app.main.elicitation.form import FormRefused, read_form
from app.main.elicitation.link import read_link
from app.main.sessions.steps import Ignored, Step, Token

UNKNOWN_QUESTION = {"": "This question was already answered or withdrawn."}
REASONS: dict[str, QuestionReason] = {"accept": "answered", "decline": "declined", "cancel": "cancelled"}


class QuestionRoute(NamedTuple):
    key: str
    generation: int
    request_id: str
    form: Form | None  # None: a link
    elicitation_id: str = ""


def shown_value(form: Form, name: str, value: Value) -> str:
    """A sent value as the user reads it: a choice by its label, yes/no, numbers as typed."""
    field = next((f for f in form.fields if f.name == name), None)
    labels = {c.value: c.label for c in field.choices} if field is not None else {}
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, list):
        return ", ".join(labels.get(v, v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return labels.get(value, str(value)) if isinstance(value, str) else str(value)


def summary(form: Form | None, content: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    if form is None:
        return ()
    return tuple(
        (f.label, shown_value(form, f.name, content[f.name])) for f in form.fields if f.name in content
    )


class QuestionRoutes:
    def __init__(self) -> None:
        self._routes: dict[Token, QuestionRoute] = {}
        self._settled: set[Token] = set()  # answered by a rule or refused: the wire answer is expected
        self._opened: dict[str, QuestionRoute] = {}  # links the user opened, by elicitation id
        self.prefix = ""  # set per agent when several run: request ids stay unique in one window

    def __len__(self) -> int:
        return len(self._routes)

    def __contains__(self, token: Token) -> bool:
        return token in self._routes or token in self._settled

    def open(self, token: Token, key: str, generation: int, params: dict[str, Any], step: Step) -> None:
        """Show the question; one the user cannot be shown is refused at once, in words."""
        request_id = f"ask-{self.prefix}{token}"
        message = str_field(params, "message") or ""
        asked: dict[str, Any] = {"tool_call_id": str_field(params, "toolCallId") or ""}
        mode = params.get("mode")
        try:
            if mode == "url":
                link = read_link(params.get("url"))
                asked.update(url=link.url, host=link.host, host_warning=link.warning)
                form = None
            elif mode == "form":
                form = read_form(params.get("requestedSchema"), message)
                asked["form"] = form
            else:
                raise FormRefused(
                    f"The agent asked a kind of question ClawQt does not know ({str(mode)[:40]})."
                )
        except FormRefused as refused:
            envelope = QuestionAskedEnvelope(
                key, generation, request_id, message[:2000], refused=str(refused)
            )
            step.envelopes.append(envelope)
            step.envelopes.append(QuestionEndedEnvelope(key, generation, request_id, "decline", "refused"))
            step.replies.append((token, str(refused)))
            step.ignored.append(Ignored("question-refused", str(refused)))
            self._settled.add(token)
            return
        elicitation_id = str_field(params, "elicitationId") or ""
        self._routes[token] = QuestionRoute(key, generation, request_id, form, elicitation_id)
        step.envelopes.append(QuestionAskedEnvelope(key, generation, request_id, message, **asked))

    def answer(
        self, request_id: str, action: QuestionAction, values: dict[str, Any], step: Step
    ) -> dict[str, str]:
        """The user's answer; the problems by field name when the form cannot go yet (nothing is sent),
        {"": why} when the question is unknown or already ended."""
        token = next((t for t, route in self._routes.items() if route.request_id == request_id), None)
        if token is None:
            return dict(UNKNOWN_QUESTION)
        route = self._routes[token]
        content: dict[str, Any] = {}
        if action == "accept" and route.form is not None:
            content, problems = check_answer(route.form, values)
            if problems:
                return problems
        self._resolve(token, action, REASONS[action], content, step)
        return {}

    def cancel_where(
        self, predicate: Callable[[QuestionRoute], bool], reason: QuestionReason, step: Step
    ) -> None:
        for token, route in list(self._routes.items()):
            if predicate(route):
                self._resolve(token, "cancel", reason, {}, step)
                self._settled.add(token)

    def answered_on_wire(self, token: Token, message: Mapping[str, Any], step: Step) -> None:
        """The client's answer as a trace shows it (replay)."""
        if token in self._settled:
            self._settled.discard(token)
            return
        route = self._routes.get(token)
        result = dict_field(message, "result")
        action = result.get("action")
        if route is None or action not in ("accept", "decline", "cancel"):
            step.ignored.append(Ignored("answer-unknown", f"an answer to unknown question {token!r}"))
            return
        self._resolve(token, action, REASONS[action], dict_field(result, "content"), step)
        step.replies.clear()  # already on the wire

    def complete(self, elicitation_id: str, step: Step) -> None:
        """The agent says the flow behind a link the user opened is done."""
        route = self._opened.pop(elicitation_id, None)
        if route is not None:
            step.envelopes.append(
                QuestionEndedEnvelope(route.key, route.generation, route.request_id, "accept", "completed")
            )

    def withdraw(self, token: Token, step: Step) -> None:
        """The agent cancelled its request (`$/cancel_request`) before the user answered."""
        if token in self._routes:
            self._resolve(token, "cancel", "agent-withdrew", {}, step)
            self._settled.add(token)

    def forget(self, token: Token) -> None:
        """The live client is done with a request (answered, or its handler went away)."""
        self._routes.pop(token, None)
        self._settled.discard(token)

    def drop_opened(self, predicate: Callable[[QuestionRoute], bool]) -> None:
        """Links whose session went away: their completion can no longer be shown."""
        for elicitation_id, route in list(self._opened.items()):
            if predicate(route):
                del self._opened[elicitation_id]

    def _resolve(
        self,
        token: Token,
        action: QuestionAction,
        reason: QuestionReason,
        content: dict[str, Any],
        step: Step,
    ) -> None:
        route = self._routes.pop(token)
        reply: dict[str, Any] = {"action": action}
        if action == "accept" and route.form is not None:
            reply["content"] = content
        step.replies.append((token, reply))
        if action == "accept" and route.form is None and route.elicitation_id:
            self._opened[route.elicitation_id] = route  # a link opened: its completion is said on it
        answers = summary(route.form, content) if action == "accept" else ()
        step.envelopes.append(
            QuestionEndedEnvelope(route.key, route.generation, route.request_id, action, reason, answers)
        )
