"""An agent's form (ACP `elicitation/create`, form mode) read into fields, and the user's answer
checked against them before it is sent. The schema is the agent's, so it is read as untrusted input:
only the primitive field kinds the protocol allows (text with a format, number, integer, boolean, one
choice, several choices), never a nested object, within limits on fields, choices and words; anything
else refuses the whole form with a sentence the user reads (FormRefused), never a hang. A pattern is
matched with a time limit (the `regex` module): an agent's pathological pattern cannot freeze ClawQt."""

from __future__ import annotations

import math
import re
from typing import Any

from app.contract.elicitation import Choice, FieldKind, Form, FormField, TextFormat

MAX_FIELDS = 50
MAX_CHOICES = 1_000
MAX_LABEL_CHARS = 200
MAX_DESCRIPTION_CHARS = 2_000
MAX_PATTERN_CHARS = 500
MAX_TEXT_CHARS = 10_000  # an answer's text, when the form sets no shorter maxLength
PATTERN_TIMEOUT_S = 0.1
FORMATS: tuple[TextFormat, ...] = ("email", "uri", "date", "date-time")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class FormRefused(ValueError):
    """The agent's form cannot be shown; the message says why, in the user's words."""


def _words(value: Any, limit: int) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _number(value: Any) -> float | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok else None


def _choices(raw: Any, titled: Any, label: str) -> tuple[Choice, ...]:
    """`enum` (values) or `oneOf`/`anyOf` ({const, title}); more than MAX_CHOICES refuses the form."""
    entries: list[Choice] = []
    if isinstance(titled, list):
        entries = [
            Choice(o["const"], _words(o.get("title"), MAX_LABEL_CHARS) or o["const"])
            for o in titled
            if isinstance(o, dict) and isinstance(o.get("const"), str)
        ]
    elif isinstance(raw, list):
        entries = [Choice(v, v[:MAX_LABEL_CHARS]) for v in raw if isinstance(v, str)]
    if len(entries) > MAX_CHOICES:
        raise FormRefused(f"“{label}” offers {len(entries):,} choices; ClawQt shows at most {MAX_CHOICES:,}.")
    return tuple(dict.fromkeys(entries))


def _field(name: str, raw: Any, required: bool) -> FormField:
    if not isinstance(raw, dict):
        raise FormRefused(f"The field “{name[:MAX_LABEL_CHARS]}” is not described.")
    label = _words(raw.get("title"), MAX_LABEL_CHARS) or name[:MAX_LABEL_CHARS]
    common: dict[str, Any] = {
        "name": name,
        "label": label,
        "description": _words(raw.get("description"), MAX_DESCRIPTION_CHARS),
        "required": required,
    }
    kind = raw.get("type")
    if kind == "string":
        choices = _choices(raw.get("enum"), raw.get("oneOf"), label)
        text_format: TextFormat = next((f for f in FORMATS if f == raw.get("format")), "")
        pattern = raw["pattern"] if isinstance(raw.get("pattern"), str) else ""
        if len(pattern) > MAX_PATTERN_CHARS:
            raise FormRefused(f"The pattern of “{label}” is longer than {MAX_PATTERN_CHARS} characters.")
        default = raw.get("default") if isinstance(raw.get("default"), str) else None
        return FormField(
            **common,
            kind="choice" if choices else "text",
            default=default,
            text_format=text_format,
            min_length=_int(raw.get("minLength")),
            max_length=_int(raw.get("maxLength")),
            pattern=pattern,
            choices=choices,
        )
    if kind in ("number", "integer"):
        default = _number(raw.get("default"))
        numeric: FieldKind = "integer" if kind == "integer" else "number"
        if numeric == "integer" and default is not None:
            default = int(default) if default.is_integer() else None
        return FormField(
            **common, kind=numeric, default=default, minimum=_number(raw.get("minimum")),
            maximum=_number(raw.get("maximum")),
        )  # fmt: skip
    if kind == "boolean":
        default = raw.get("default") if isinstance(raw.get("default"), bool) else None
        return FormField(**common, kind="boolean", default=default)
    if kind == "array":
        items: dict[str, Any] = raw["items"] if isinstance(raw.get("items"), dict) else {}
        choices = _choices(items.get("enum"), items.get("anyOf") or items.get("oneOf"), label)
        if not choices:
            raise FormRefused(f"“{label}” asks for a list ClawQt cannot offer choices for.")
        default = raw.get("default")
        picked = [v for v in default if isinstance(v, str)] if isinstance(default, list) else None
        return FormField(
            **common, kind="choices", default=picked, choices=choices, min_items=_int(raw.get("minItems")),
            max_items=_int(raw.get("maxItems")),
        )  # fmt: skip
    raise FormRefused(f"“{label}” is a kind of field a form cannot hold ({str(kind)[:40] or 'none given'}).")


def read_form(schema: Any, message: Any = "") -> Form:
    """The agent's `requestedSchema` (and `message`) as a Form; FormRefused when it cannot be shown."""
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        raise FormRefused("The agent's form is not a set of fields.")
    properties = schema.get("properties") or {}
    if not isinstance(properties, dict):
        raise FormRefused("The agent's form is not a set of fields.")
    if len(properties) > MAX_FIELDS:
        raise FormRefused(
            f"The agent's form has {len(properties):,} fields; ClawQt shows at most {MAX_FIELDS}."
        )
    required: list[Any] = schema["required"] if isinstance(schema.get("required"), list) else []
    fields = tuple(_field(str(name), raw, name in required) for name, raw in properties.items())
    title = _words(schema.get("title"), MAX_LABEL_CHARS)
    return Form(
        title,
        _words(message, MAX_DESCRIPTION_CHARS) or _words(schema.get("description"), MAX_DESCRIPTION_CHARS),
        fields,
    )
