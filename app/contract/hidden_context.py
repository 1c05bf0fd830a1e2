"""Machine context ClawQt adds to a prompt that the user never sees: how it is marked and removed.

The main side appends a block between these markers to the user's message (the terminal capability
and snapshots, `app/main/terminal_context.py`); every place that shows or exports what the user said
removes it: the timeline's user messages (live echo and replayed history, in whatever chunks the agent
sends them), transcript matching, and so copy, export and `clawqt replay`. The markers contain no
quote, backslash or newline, so they survive an agent that echoes the text JSON-escaped."""

from __future__ import annotations

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
