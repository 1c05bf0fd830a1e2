"""The one grammar of terminal escape sequences in text that no terminal shows: what the renderer strips
from a message, a tool's text output, a title or copied text (agents pass a command's coloured output
through as is, and a text view would show the ESC as a box followed by "[31m"), and what the main side
removes from a terminal's output before an agent reads it (`terminals/text.py`). Pure.

CSI (colours, cursor moves, erases), OSC (titles, hyperlinks; to BEL or ST), DCS/SOS/PM/APC strings,
charset selections and other two-byte escapes, in their 7-bit and C1 forms; a sequence left open at
the end of the text (a terminal's output read in pieces) and a lone introducer go too. The words they
coloured stay."""

from __future__ import annotations

import re

_SEQUENCE = re.compile(
    r"""
    (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]                       # CSI
  | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)     # OSC, ended by BEL or ST
  | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)                   # DCS, SOS, PM, APC strings
  | (?:\x1b\[|\x9b)[0-?]*[ -/]*\Z                         # a CSI left open at the end
  | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*                        # an OSC never ended
  | \x1b[PX^_][^\x1b\x9c]*                                # a string never ended
  | \x1b[ -/]*[0-~]                                       # any other escape (charset, keypad modes)
  | \x1b[ -/]*\Z                                          # one left open at the end
  | [\x1b\x9b\x9c\x9d]                                    # a lone introducer
    """,
    re.VERBOSE,
)


def has_escapes(text: str) -> bool:
    """Whether `text` holds an escape introducer. The 8-bit ones (CSI, OSC) are not ASCII, and whether a
    string is ASCII CPython knows without reading it: ASCII text is scanned once, not three times."""
    if "\x1b" in text:
        return True
    return not text.isascii() and ("\x9b" in text or "\x9d" in text)


def strip_escapes(text: str) -> str:
    """`text` without terminal escape sequences (the words they coloured stay)."""
    return _SEQUENCE.sub("", text) if has_escapes(text) else text


__all__ = ["has_escapes", "strip_escapes"]
