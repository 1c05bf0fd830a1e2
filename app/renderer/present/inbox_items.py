"""What the inbox lists: everything that waits for the user across every chat, in words, each with the
answers it can be given in place. Pure: built from the envelopes' fields; the inbox's Qt object keeps
them and asks the host. A permission's quick answers are the agent's own "once" options (Allow once,
Reject once): an "always" answer is given on the card, where its scope is shown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

REQUEST_CHARS = 120  # of a request's command or input the inbox quotes


def quick_answers(options: Sequence[dict[str, Any]]) -> dict[str, str]:
    """{"allow": option id, "deny": option id} for the request's allow-once and reject-once options
    (either missing when the agent offers none)."""
    answers: dict[str, str] = {}
    for option in options:
        kind, option_id = option.get("kind"), option.get("optionId")
        if not isinstance(option_id, str):
            continue
        if kind == "allow_once":
            answers.setdefault("allow", option_id)
        elif kind == "reject_once":
            answers.setdefault("deny", option_id)
    return answers


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= REQUEST_CHARS else line[: REQUEST_CHARS - 1] + "…"


def permission_words(tool_call: dict[str, Any], request_text: str) -> str:
    """ "Asks to run <tool>: <command>" as the inbox shows a permission request."""
    title = tool_call.get("title")
    asked = f"Asks to run {title}" if isinstance(title, str) and title.strip() else "Asks for your permission"
    return f"{_short(asked)}: {_short(request_text)}" if request_text.strip() else _short(asked)


def question_words(message: str, form_title: str = "") -> str:
    asked = form_title or message
    return f"Asks: {_short(asked)}" if asked.strip() else "Asks you a question"


def settled_words(error: str | None) -> str:
    return f"The turn failed: {_short(error)}" if error else "Finished its reply"


def proposal_words(command: str) -> str:
    return f"Proposes to run {_short(command)}" if command.strip() else "Proposes terminal actions"
