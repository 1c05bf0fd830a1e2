"""Terminal escape sequences in text that is not shown by a terminal (a message, a tool's text output,
a title): agents pass a command's coloured output through as is, and a text view would show the ESC as
a box followed by "[31m". Such text is either shown by the terminal screen (which applies the colours)
or stripped of the sequences here; never shown raw."""

from __future__ import annotations

import re

_SEQUENCE = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]          # CSI: colours, cursor moves, erases
  | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC: titles, hyperlinks (to BEL or ST)
  | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?     # DCS, SOS, PM, APC strings
  | \x1b[ -/]*[0-~]                           # any other escape (charset selection, keypad modes)
  | [\x1b\x9b\x9c\x9d]                        # a lone introducer left over
    """,
    re.VERBOSE,
)


def has_escapes(text: str) -> bool:
    return "\x1b" in text or "\x9b" in text


def strip_escapes(text: str) -> str:
    """`text` without terminal escape sequences (the words they coloured stay)."""
    return _SEQUENCE.sub("", text) if has_escapes(text) or "\x9d" in text else text


__all__ = ["has_escapes", "strip_escapes"]
