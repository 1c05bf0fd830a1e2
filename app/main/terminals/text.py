"""Terminal output as plain text for an agent: escape sequences rendered away, line by line.

An agent reads a user terminal in pieces (`read_terminal` after a sequence), so this works on any
piece without a screen model: control sequences are removed (the contract's one grammar, ansi.py),
a carriage return starts the line again (a progress bar leaves its last state), a backspace erases
the character before it, and other control characters go. A sequence cut by the end of a piece is
dropped rather than shown as garbage."""

from __future__ import annotations

import re

from app.contract.ansi import strip_escapes

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _line(text: str) -> str:
    if "\r" in text:
        parts = [part for part in text.split("\r") if part]
        text = parts[-1] if parts else ""
    if "\b" in text:
        kept: list[str] = []
        for char in text:
            if char == "\b":
                if kept:
                    kept.pop()
            else:
                kept.append(char)
        text = "".join(kept)
    return _CONTROLS.sub("", text)


def plain_text(data: bytes) -> str:
    """`data` as a person would read it on the screen, without colours or cursor movement."""
    text = data.decode("utf-8", "replace")
    text = strip_escapes(text.replace("\r\n", "\n"))
    return "\n".join(_line(line) for line in text.split("\n"))
