"""An agent's JSON-RPC error as people should read it: one sentence in the agent's own words (a specific
text it put in the error's data wins over the generic JSON-RPC message such as "Internal error"),
with the method, the code and the raw data kept as details for a disclosure."""

from __future__ import annotations

import json
from typing import Any

GENERIC_MESSAGES = frozenset(
    {
        "",
        "internal error",
        "invalid params",
        "invalid request",
        "parse error",
        "method not found",
        "resource not found",
        "server error",
    }
)
_SPECIFIC_KEYS = ("details", "message", "error", "reason")
MAX_SENTENCE = 300


def _specific(data: Any) -> str | None:
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        for key in _SPECIFIC_KEYS:
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                return value
    return None


def sentence(text: str) -> str:
    """The first line of `text`, trimmed to a readable length, starting upper case, ending with a stop."""
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    if len(line) > MAX_SENTENCE:
        line = line[: MAX_SENTENCE - 1].rstrip() + "\u2026"
    if not line:
        return "The agent gave no reason."
    line = line[0].upper() + line[1:]
    return line if line[-1] in ".!?\u2026" else line + "."


def agent_error(message: Any, data: Any) -> str:
    """What the agent said went wrong, as one sentence."""
    said = message.strip() if isinstance(message, str) else ""
    specific = _specific(data)
    if specific and said.lower() in GENERIC_MESSAGES:
        return sentence(specific)
    return sentence(said or specific or "")


def error_details(method: str, code: Any, message: Any, data: Any) -> str:
    """The whole answer, for the disclosure (and bug reports)."""
    details = f"{method} answered error {code}: {message}"
    if data is not None:
        try:
            details += "\n" + json.dumps(data, ensure_ascii=False, indent=1, default=str)[:4000]
        except (TypeError, ValueError):
            details += "\n" + repr(data)[:4000]
    return details
