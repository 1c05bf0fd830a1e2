"""The user's answer to an agent's form, checked field by field before anything is sent: what goes to
the agent (`content`, only the fields the form has, each of its kind) and, per field, why it cannot go
yet. Nothing the user typed is changed or dropped here: a field in error keeps its text in the view."""

from __future__ import annotations

import datetime
import math
from typing import Any
from urllib.parse import urlsplit

from app.contract.elicitation import Form, FormField, Value
from app.main.elicitation.form import EMAIL, MAX_TEXT_CHARS, PATTERN_TIMEOUT_S


def _text_problem(field: FormField, text: str) -> str:
    limit = field.max_length if field.max_length is not None else MAX_TEXT_CHARS
    if len(text) > limit:
        return f"At most {limit:,} characters."
    if field.min_length is not None and len(text) < field.min_length:
        return f"At least {field.min_length:,} characters."
    if field.text_format == "email" and not EMAIL.fullmatch(text):
        return "An email address, like name@example.com."
    if field.text_format == "uri":
        parts = urlsplit(text)
        if not (parts.scheme and (parts.netloc or parts.path)):
            return "A full address, like https://example.com."
    if field.text_format == "date":
        try:
            datetime.date.fromisoformat(text)
        except ValueError:
            return "A date, like 2026-12-05."
    if field.text_format == "date-time":
        try:
            datetime.datetime.fromisoformat(text)
        except ValueError:
            return "A date and time, like 2026-12-05T14:30."
    if field.pattern:
        import regex  # a pattern's time limit; loaded when a form has a pattern, not at start

        try:
            matched = regex.search(field.pattern, text, timeout=PATTERN_TIMEOUT_S)
        except (regex.error, TimeoutError):  # not checkable here: the agent checks what it asked for
            return ""
        if matched is None:
            return "Not in the form the agent asks for."
    return ""


def _number_problem(field: FormField, number: float) -> str:
    if field.minimum is not None and number < field.minimum:
        return f"At least {field.minimum:g}."
    if field.maximum is not None and number > field.maximum:
        return f"At most {field.maximum:g}."
    return ""


def _one(field: FormField, raw: Any) -> tuple[Value | None, str]:
    """The field's value as the agent gets it, or why it cannot go ("" when it can)."""
    if field.kind == "text":
        return (raw, _text_problem(field, raw)) if isinstance(raw, str) else (None, "Text is needed.")
    if field.kind in ("number", "integer"):
        try:
            number = float(str(raw).strip()) if not isinstance(raw, bool) else math.nan
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            return None, "A number is needed."
        if field.kind == "integer":
            if not number.is_integer():
                return None, "A whole number is needed."
            return int(number), _number_problem(field, number)
        return number, _number_problem(field, number)
    if field.kind == "boolean":
        return (raw, "") if isinstance(raw, bool) else (None, "Yes or no is needed.")
    values = {choice.value for choice in field.choices}
    if field.kind == "choice":
        return (raw, "") if raw in values else (None, "Choose one of the offered values.")
    picked = [v for v in raw if isinstance(v, str)] if isinstance(raw, list) else []
    if len(picked) != (len(raw) if isinstance(raw, list) else -1) or not set(picked) <= values:
        return None, "Choose among the offered values."
    if field.min_items is not None and len(picked) < field.min_items:
        return None, f"Choose at least {field.min_items}."
    if field.max_items is not None and len(picked) > field.max_items:
        return None, f"Choose at most {field.max_items}."
    return picked, ""


def _empty(raw: Any) -> bool:
    return raw is None or raw == [] or (isinstance(raw, str) and not raw.strip())


def check_answer(form: Form, values: dict[str, Any]) -> tuple[dict[str, Value], dict[str, str]]:
    """(the content to send, the problems by field name); send only when there is no problem."""
    content: dict[str, Value] = {}
    problems: dict[str, str] = {}
    for field in form.fields:
        raw = values.get(field.name)
        if _empty(raw):
            if field.required:
                problems[field.name] = "This is needed."
            continue
        value, problem = _one(field, raw)
        if problem:
            problems[field.name] = problem
        elif value is not None:
            content[field.name] = value
    return content, problems
