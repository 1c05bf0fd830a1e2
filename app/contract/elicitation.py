"""An agent's question as a form (ACP `elicitation/create`, form mode), read by the main side
(`app/main/elicitation/form.py`) into fields a view can draw without reading JSON Schema itself:
each field's kind, its words, its bounds and choices, whether it is required, its default."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

FieldKind = Literal["text", "number", "integer", "boolean", "choice", "choices"]
TextFormat = Literal["", "email", "uri", "date", "date-time"]
Value = str | int | float | bool | list[str]


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class FormField:
    name: str  # the property's key, what the answer is keyed by
    kind: FieldKind
    label: str
    description: str = ""
    required: bool = False
    default: Value | None = None
    text_format: TextFormat = ""
    min_length: int | None = None
    max_length: int | None = None
    pattern: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Choice, ...] = ()  # "choice": one of them; "choices": several
    min_items: int | None = None
    max_items: int | None = None


@dataclass(frozen=True)
class Form:
    title: str
    description: str
    fields: tuple[FormField, ...] = field(default=())


QuestionAction = Literal["accept", "decline", "cancel"]  # how the user answers a question
QuestionReason = Literal[
    "answered",  # the user sent the form, or agreed to open the link
    "declined",  # the user said no
    "cancelled",  # the user dismissed it, or pressed Stop
    "refused",  # ClawQt could not show it (the envelope that asked says why)
    "agent-withdrew",  # the agent cancelled its request before the answer
    "agent-exited",
    "prompt-settled",  # the turn that asked ended first
    "session-switch",
    "session-closed",
    "app-quit",
    "completed",  # a link's flow: the agent says it is done
]


@dataclass(frozen=True)
class QuestionAskedEnvelope:
    """The agent asks the user a question (ACP `elicitation/create`): a form to fill in, or a link to
    open; answer with the host's `answer_question(request_id, ...)`. `refused` says why ClawQt could
    not show it (it was answered for the user; an ended envelope follows)."""

    session_key: str
    generation: int
    request_id: str
    message: str
    form: Form | None = None  # form mode
    url: str = ""  # url mode: where the link goes
    host: str = ""  # the host the link opens, as ClawQt shows it (app/main/elicitation/link.py)
    host_warning: str = ""  # why the host may not be what it looks like
    refused: str = ""
    tool_call_id: str = ""
    kind: Literal["question_asked"] = "question_asked"


@dataclass(frozen=True)
class QuestionEndedEnvelope:
    """A question ended: what was sent (`answers`: each field's label and value as shown), or why not."""

    session_key: str
    generation: int
    request_id: str
    action: Literal["accept", "decline", "cancel"]
    reason: QuestionReason
    answers: tuple[tuple[str, str], ...] = ()
    kind: Literal["question_ended"] = "question_ended"
