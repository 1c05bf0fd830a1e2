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
