"""Proposal payloads under test: built from parts, and checked as accepted or refused with the reason."""

from __future__ import annotations

from typing import Any

from app.contract.proposals import compact_payload
from app.main.proposals.schema import (
    SchemaProblem,
    ValidatedPayload,
    validate_payload,
)


def send(text: str = "ls -la") -> dict[str, Any]:
    return {"type": "send", "input": text}


def payload(*choices: dict[str, Any], **top: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"schema_version": 1, "origin": "terminal_agent"}
    result["choices"] = list(choices) or [{"choice": 1, "title": "List files", "actions": [send()]}]
    result.update(top)
    return result


def check(value: Any) -> ValidatedPayload | SchemaProblem:
    return validate_payload(value if isinstance(value, str) else compact_payload(value))


def refused(value: Any) -> str:
    result = check(value)
    assert isinstance(result, SchemaProblem), f"accepted: {value!r}"
    return result.reason


def accepted(value: Any) -> ValidatedPayload:
    result = check(value)
    assert isinstance(result, ValidatedPayload), result
    return result


def with_action(action: dict[str, Any]) -> dict[str, Any]:
    return payload({"choice": 1, "title": "T", "actions": [action]})


def choice_number(number: int) -> dict[str, Any]:
    return {"choice": number, "title": f"Choice {number}", "actions": [send()]}
