"""ClawQt's terminal credentials (capabilities `cqt_`, per-session bearers `cqs_`, the install secret
`cqi_`) and the one rule that cuts them out of what is shown, copied, exported or traced.

An agent may echo a credential: in a reply, a thought, a plan, a title, a command list, a tool call's
arguments, a permission request. Every place that shows such text cuts each credential to its prefix
(`cqt_…`). Text that arrives in chunks is cut on the text as assembled (`CredentialStream`): a credential
split across chunks never shows whole. Pure: no Qt, no I/O."""

from __future__ import annotations

import re
from typing import Any

CREDENTIAL = re.compile(r"\b(cq[tsi]_)[A-Za-z0-9_-]{16,}")
SHOWN = "\\1\u2026"  # the prefix and an ellipsis: the window, copies and exports
TRACED = "\\1<redacted>"  # the prefix and a word: protocol logs and traces
MAX_REDACT_DEPTH = 64
# the end of a text that a later chunk may make a credential: "c" ... "cqt_" and up to 15 more characters
_STARTED = re.compile(r"\bc(?:q(?:[tsi](?:_[A-Za-z0-9_-]{0,15})?)?)?\Z")
_LONGEST_START = len("cqt_") + 15
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]*")


def redact_text(text: str, marker: str = SHOWN) -> str:
    """`text` with every credential cut to its prefix and `marker`."""
    return CREDENTIAL.sub(marker, text) if "cq" in text else text


def redact_credentials(value: Any, depth: int = 0) -> Any:
    """`value` (text, or JSON-like data) with every credential cut to its prefix; data nested deeper
    than `MAX_REDACT_DEPTH` is dropped (None) rather than shown unchecked. Data holding no credential
    comes back as the same object (every tool update passes here)."""
    if isinstance(value, str):
        return redact_text(value)
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


class CredentialStream:
    """One text that arrives in chunks, cut as assembled. `feed` answers how many characters already
    appended to take back (the start of a credential this chunk completes: at most 19) and the text to
    append; the rest of a cut credential that comes in later chunks is dropped. The start of a
    credential may show until the chunk that completes it arrives: never the whole."""

    def __init__(self) -> None:
        self._before = ""  # the character before `_started` (a credential starts at a word boundary)
        self._started = ""  # the shown end of the text that may yet become a credential
        self._inside = False  # the text ends inside a cut credential

    def feed(self, chunk: str) -> tuple[int, str]:
        if self._inside:
            chunk = chunk[_TOKEN_CHARS.match(chunk).end() :]  # type: ignore[union-attr]
            if not chunk:
                return 0, ""
            self._inside = False
        if not self._started and "c" not in chunk:
            self._before = chunk[-1:]
            return 0, chunk
        raw = self._before + self._started + chunk
        skip = len(self._before)  # shown before and not a credential's start; \b still sees it
        pieces, last = [], skip
        for match in CREDENTIAL.finditer(raw, skip) if "cq" in raw else ():
            pieces += [raw[last : match.start()], match.group(1), "\u2026"]
            last = match.end()
        shown = "".join(pieces) + raw[last:]
        retract = 0 if shown.startswith(self._started) else len(self._started)
        text = shown if retract else shown[len(self._started) :]
        self._inside = last == len(raw) and bool(pieces)
        started = None if self._inside else _STARTED.search(raw, max(skip, len(raw) - _LONGEST_START))
        self._started = started.group() if started else ""
        self._before = raw[started.start() - 1 : started.start()] if started else raw[-1:]
        return retract, text


__all__ = [
    "CREDENTIAL",
    "SHOWN",
    "TRACED",
    "CredentialStream",
    "redact_credentials",
    "redact_text",
]
