"""What an agent's question card shows: the form's fields with their words, hints and choices (so the
view reads no JSON Schema), a link's host and warning, and once it ended, how, in the user's words, with
what was sent. Pure: no Qt."""

from __future__ import annotations

from typing import Any

from app.contract.elicitation import FormField
from app.renderer.timeline.items import ElicitationItem

ENDINGS = {
    "answered": "Answered",
    "declined": "Declined",
    "cancelled": "Cancelled",
    "refused": "ClawQt could not show this question",
    "agent-withdrew": "The agent withdrew the question",
    "agent-exited": "The agent stopped before you answered",
    "prompt-settled": "The turn ended before you answered",
    "session-switch": "The turn ended before you answered",
    "session-closed": "The chat was closed before you answered",
    "app-quit": "ClawQt quit before you answered",
}
FORMAT_HINTS = {
    "email": "name@example.com",
    "uri": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDThh:mm",
}


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g} to {high:g}"
    if low is not None:
        return f"at least {low:g}"
    return f"at most {high:g}" if high is not None else ""


def field_hint(field: FormField) -> str:
    """The placeholder of a field's editor: the form its value takes."""
    if field.kind in ("number", "integer"):
        return _bounds(field.minimum, field.maximum) or (
            "a whole number" if field.kind == "integer" else "a number"
        )
    if field.kind == "text":
        return FORMAT_HINTS.get(field.text_format, "")
    return ""


def field_entry(field: FormField) -> dict[str, Any]:
    default = field.default
    if isinstance(default, float) and default.is_integer():
        default = int(default)
    return {
        "name": field.name,
        "kind": field.kind,
        "label": field.label,
        "description": field.description,
        "required": field.required,
        "default": default if default is not None else "",
        "hasDefault": default is not None,
        "hint": field_hint(field),
        "choices": [{"value": c.value, "label": c.label} for c in field.choices],
        "minItems": field.min_items or 0,
        "maxItems": field.max_items or 0,
    }


def question_entry(item: ElicitationItem) -> dict[str, Any]:
    """What a question row shows."""
    form = item.form
    mode = "form" if form is not None else "url" if item.url else "refused"
    ending = ENDINGS.get(item.reason or "", "")
    if mode == "url" and item.status == "accept":
        ending = f"Opened {item.host}" + (": the agent says it is done" if item.completed else "")
    message = (form.description if form is not None else "") or item.message
    title = (form.title if form is not None else "") or message.split("\n", 1)[0][:200]
    return {
        "requestId": item.request_id,
        "waiting": item.status == "waiting",
        "status": item.status,
        "mode": mode,
        "title": title or "The agent asks",
        "message": "" if message == title else message,  # said once: a message alone is the title
        "fields": [field_entry(f) for f in form.fields] if form is not None else [],
        "url": item.url,
        "host": item.host,
        "hostWarning": item.host_warning,
        "refused": item.refused,
        "ending": ending,
        "answers": [{"label": label, "value": value} for label, value in item.answers],
        "completed": item.completed,
    }
