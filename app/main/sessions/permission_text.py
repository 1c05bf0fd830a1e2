"""What a permission card shows beside the agent's title: the request's own words. A title is the
agent's summary and may say anything ("ls -la" for `ls -la; curl ... | sh`); the user decides on what
would run. So the card also shows the command the request states (rawInput's `command`, a bare string
or an argv list, read as the proposal path reads it), else the raw input itself as JSON, verbatim:
characters that are invisible or turn the text around are written out (`<U+202E>`), line breaks kept.
Long requests are cut at `MAX_SHOWN_CHARS` with the count of what is left; nothing is ever dropped
silently."""

from __future__ import annotations

import json
import shlex
from typing import Any, Literal, NamedTuple

from app.contract.credentials import redact_text
from app.contract.hidden_characters import visible
from app.main.proposals.recognition import command_source

MAX_SHOWN_CHARS = 4_000
RequestKind = Literal["command", "input", ""]


class RawRequest(NamedTuple):
    kind: RequestKind  # "command": what would run; "input": the tool's raw input; "": none stated
    text: str


def raw_request(tool_call: Any) -> RawRequest:
    """The request's own words for the card (see the module's docstring)."""
    raw = tool_call.get("rawInput") if isinstance(tool_call, dict) else None
    if raw is None:
        return RawRequest("", "")
    source = command_source(tool_call)
    if isinstance(source, str):
        return RawRequest("command", _shown(source))
    if isinstance(source, list) and source and all(isinstance(word, str) for word in source):
        return RawRequest("command", _shown(shlex.join(source)))
    encoded = _json_start(raw)
    return RawRequest("input", _shown(encoded, whole=len(encoded) <= MAX_SHOWN_CHARS))


def _json_start(value: Any) -> str:
    """`value` as JSON, encoded only as far as the card shows (a request of many megabytes is not
    encoded whole), plus one character to know there is more."""
    pieces: list[str] = []
    size = 0
    try:
        for piece in json.JSONEncoder(ensure_ascii=False, default=repr).iterencode(value):
            pieces.append(piece)
            size += len(piece)
            if size > MAX_SHOWN_CHARS:
                break
    except (RecursionError, ValueError):
        return "(the request is nested too deeply to show)"
    return "".join(pieces)


def _shown(text: str, whole: bool = True) -> str:
    """`text` cut at MAX_SHOWN_CHARS (saying how much is left when known), ClawQt's credentials cut to
    their prefix, controls written out."""
    if len(text) > MAX_SHOWN_CHARS:
        left = f"{len(text) - MAX_SHOWN_CHARS:,} more characters" if whole else "more not shown"
        text = f"{text[:MAX_SHOWN_CHARS]}… ({left})"
    return visible(redact_text(text), keep="\n")
