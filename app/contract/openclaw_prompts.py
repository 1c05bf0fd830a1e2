"""How OpenClaw writes a prompt down: its working-directory prefix, one grammar for every place that
reads a prompt OpenClaw sent back (the user's message shown after a reload, titles, questions,
transcript matching, where a replayed message starts); and the text its ACP bridge keeps as a prompt's
record (`prompt_record_text`), rebuilt the same way by the main side from the blocks it sends and by
the renderer from a replayed message's parts, so both match it to the Gateway transcript.

OpenClaw puts `[Working directory: <cwd>]\\n\\n` before the prompt it passes on (unless `prefixCwd` is
false) and replays the user's text with it; a prompt of images only is the prefix alone. The cwd is
the rest of that first line up to its last `]`; only at the very start of the text, never elsewhere.
Pure: no Qt, no I/O."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

CWD_PREFIX_START = "[Working directory: "
_CWD_PREFIX = re.compile(r"\[Working directory: [^\r\n]*\](?:\r?\n\r?\n|\r?\n?\Z)")


def strip_cwd_prefix(text: str) -> str:
    """The user's text without OpenClaw's working-directory prefix at its start."""
    if not text.startswith(CWD_PREFIX_START):
        return text
    match = _CWD_PREFIX.match(text)
    return text[match.end() :] if match else text


# OpenClaw's ACP bridge (`extractTextFromPrompt`, dist/server-*.mjs) writes a prompt's blocks into its user
# record's text this way; the live read matches the turn by that text, so it is rebuilt the same way
_INLINE_ESCAPES = {
    "\0": "\\0", "\r": "\\r", "\n": "\\n", "\t": "\\t", "\v": "\\v", "\f": "\\f",
    "\u2028": "\\u2028", "\u2029": "\\u2029",
}  # fmt: skip
_TITLE_SPECIALS = re.compile(r"([()\[\]])")


def _inline(value: str) -> str:
    """OpenClaw's `escapeInlineControlChars`: control characters and line separators written out."""
    return "".join(
        _INLINE_ESCAPES.get(c, f"\\x{ord(c):02x}")
        if unicodedata.category(c) == "Cc" or c in "\u2028\u2029"
        else c
        for c in value
    )


def prompt_record_text(blocks: list[dict[str, Any]]) -> str:
    """The text OpenClaw keeps as a prompt's user record: its text blocks, embedded text resources and
    resource links (`[Resource link (title)] uri`), joined by newlines. Images and other attachments
    leave no text: an image-only prompt's record text is empty."""
    parts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif kind == "resource" and isinstance(block.get("resource"), dict):
            text = block["resource"].get("text")
            if isinstance(text, str) and text:
                parts.append(text)
        elif kind == "resource_link":
            title = block.get("title")
            escaped = _TITLE_SPECIALS.sub(r"\\\1", _inline(title)) if isinstance(title, str) else ""
            shown = f" ({escaped})" if escaped else ""
            uri = _inline(block["uri"]) if isinstance(block.get("uri"), str) else ""
            parts.append(f"[Resource link{shown}] {uri}" if uri else f"[Resource link{shown}]")
    return "\n".join(parts)
