"""OpenClaw's working-directory prefix: one grammar for every place that reads a prompt OpenClaw sent
back (the user's message shown after a reload, titles, questions, transcript matching, where a
replayed message starts).

OpenClaw puts `[Working directory: <cwd>]\\n\\n` before the prompt it passes on (unless `prefixCwd` is
false) and replays the user's text with it; a prompt of images only is the prefix alone. The cwd is
the rest of that first line up to its last `]`; only at the very start of the text, never elsewhere.
Pure: no Qt, no I/O."""

from __future__ import annotations

import re

CWD_PREFIX_START = "[Working directory: "
_CWD_PREFIX = re.compile(r"\[Working directory: [^\r\n]*\](?:\r?\n\r?\n|\r?\n?\Z)")


def strip_cwd_prefix(text: str) -> str:
    """The user's text without OpenClaw's working-directory prefix at its start."""
    if not text.startswith(CWD_PREFIX_START):
        return text
    match = _CWD_PREFIX.match(text)
    return text[match.end() :] if match else text
