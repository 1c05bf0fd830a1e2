"""Characters that make text read other than it is, in classes with the words that name them: the one
grammar for what ClawQt refuses in text that will be typed or run, and writes out where it shows such
text (`<U+202E>`).

A terminal acts on C0 controls (a tab completes, a carriage return is Enter, ESC starts a sequence) and
on C1 controls (CSI, NEL); bidirectional controls reorder what is shown; zero-width and other format
characters, and the Hangul fillers, are drawn as nothing; the line and paragraph separators break a
line that reads as one; a lone surrogate is no character at all. Pure: no Qt, no I/O."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# LRM, RLM, ALM, the embeddings and overrides, the isolates: what reorders how text reads
BIDI_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# letters in Unicode's eyes that every font draws as blank space of no width or one
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u034f")
_NAMES = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x1b": "an escape (ESC)"}


@dataclass(frozen=True)
class HiddenCharacter:
    """The first character of a text that is not shown as it acts: where, which, and its class."""

    position: int
    char: str
    kind: str  # "control character", "C1 control character", "bidirectional control", ...

    @property
    def code(self) -> str:
        return f"U+{ord(self.char):04X}"

    @property
    def described(self) -> str:
        """ "a tab (U+0009)", "a bidirectional control (U+202E)": the words a refusal uses."""
        name = _NAMES.get(self.char, f"{'an' if self.kind[0] in 'aeiou' else 'a'} {self.kind}")
        return f"{name} ({self.code})"


def kind_of(char: str) -> str | None:
    """The class `char` belongs to, or None for a character that shows as it is."""
    code = ord(char)
    if code < 0x20 or code == 0x7F:
        return "control character"
    if 0x80 <= code <= 0x9F:
        return "C1 control character"
    if code < 0xA0:
        return None  # printable ASCII: the common case, decided without a table
    if char in BIDI_CONTROLS:
        return "bidirectional control"
    category = unicodedata.category(char)
    if category == "Cf" or char in _FILLERS:
        return "invisible character"
    if category in ("Zl", "Zp"):
        return "line separator"
    if category == "Cs":
        return "surrogate"
    return None


def first_hidden(text: str, allow: str = "") -> HiddenCharacter | None:
    """The first character of `text` in any class, but those in `allow` (a line break where lines are
    meant as lines); None when every character shows as it is."""
    if text.isascii() and text.isprintable():
        return None
    for position, char in enumerate(text):
        if char in allow:
            continue
        kind = kind_of(char)
        if kind is not None:
            return HiddenCharacter(position, char, kind)
    return None


def visible(text: str, keep: str = "") -> str:
    """`text` with every hidden character written out as `<U+XXXX>`, but those in `keep`."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(f"<U+{ord(c):04X}>" if c not in keep and kind_of(c) is not None else c for c in text)


__all__ = ["BIDI_CONTROLS", "HiddenCharacter", "first_hidden", "kind_of", "visible"]
