"""Machine context ClawQt adds to a prompt that the user never sees: how it is marked and removed.

The main side appends a block between these markers to the user's message (the terminal capability
and snapshots, `app/main/terminal_context.py`); every place that shows or exports what the user said
removes it: the timeline's user messages (live echo and replayed history, in whatever chunks the agent
sends them), transcript matching, and so copy, export and `clawqt replay`. The markers contain no
quote, backslash or newline, so they survive an agent that echoes the text JSON-escaped."""

from __future__ import annotations

import re
from typing import Any

OPEN = "<clawqt_hidden_context>"
CLOSE = "</clawqt_hidden_context>"


def wrap(body: str) -> str:
    """`body` as a hidden block (the body must not contain the markers)."""
    return f"\n\n{OPEN}\n{body.replace(OPEN, '').replace(CLOSE, '')}\n{CLOSE}"


def strip_hidden_context(text: str) -> str:
    """`text` without any hidden block; an unterminated block hides everything after its start."""
    if OPEN not in text:
        return text
    return HiddenContextFilter().feed(text).rstrip()


class HiddenContextFilter:
    """Removes hidden blocks from a message that arrives in chunks (a block may span chunks; its
    markers are expected whole within one chunk, as agents echo whole blocks or whole messages)."""

    def __init__(self) -> None:
        self.inside = False

    def feed(self, text: str) -> str:
        shown: list[str] = []
        while text:
            if self.inside:
                end = text.find(CLOSE)
                if end < 0:
                    return "".join(shown)
                text = text[end + len(CLOSE) :]
                self.inside = False
            else:
                start = text.find(OPEN)
                if start < 0:
                    shown.append(text)
                    break
                shown.append(text[:start].rstrip("\n") if start else "")
                text = text[start + len(OPEN) :]
                self.inside = True
        return "".join(shown)


# ClawQt's terminal credentials (capabilities cqt_, per-session bearers cqs_, the install secret cqi_):
# an agent may echo them (a tool card of the model's arguments); the timeline and traces show them cut
CREDENTIAL = re.compile(r"\b(cq[tsi]_)[A-Za-z0-9_-]{16,}")
REDACTED = "\\1\u2026"
MAX_REDACT_DEPTH = 64


def redact_credentials(value: Any, depth: int = 0) -> Any:
    """`value` (text, or JSON-like data) with every terminal credential cut to its prefix; data nested
    deeper than `MAX_REDACT_DEPTH` is dropped (None) rather than shown unchecked. Data holding no
    credential comes back as the same object (every tool update passes here)."""
    if isinstance(value, str):
        return CREDENTIAL.sub(REDACTED, value) if "cq" in value else value
    if depth >= MAX_REDACT_DEPTH:
        return None if isinstance(value, dict | list | tuple) else value
    if isinstance(value, dict):
        items = {key: redact_credentials(item, depth + 1) for key, item in value.items()}
        return value if all(items[key] is item for key, item in value.items()) else items
    if isinstance(value, list | tuple):
        redacted = [redact_credentials(item, depth + 1) for item in value]
        unchanged = all(new is old for new, old in zip(redacted, value, strict=True))
        return value if unchanged and isinstance(value, list) else redacted
    return value
