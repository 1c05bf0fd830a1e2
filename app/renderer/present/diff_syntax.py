"""Syntax colours for a diff's lines: each line of a file whose name Pygments knows is split into its
tokens, each with the colour the code blocks of the same theme use (`default` light, `github-dark`
dark), so a changed line reads like code. Lines are lexed one by one (a string or comment spanning
lines is coloured as far as one line shows it), and only for a file of at most SYNTAX_MAX_LINES diff
lines: a longer one is drawn plain rather than cost the window a long first render. Pure."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from app.renderer.markdown.highlighters import lexer

SYNTAX_MAX_LINES = 300  # about 40 ms of lexing on a slow machine, once per diff and theme
Run = tuple[int, int, str]  # [start, end) character offsets and a colour ("" the text's own)


@cache
def language_of(path: str) -> str:
    """The Pygments alias for a file name ("" when it knows none)."""
    from pygments.lexers import find_lexer_class_for_filename

    try:
        found = find_lexer_class_for_filename(os.path.basename(path))
    except Exception:  # a broken lexer plugin must not cost the diff
        return ""
    return found.aliases[0] if found is not None and found.aliases else ""


@cache
def _colours(style: str) -> Any:
    from pygments.styles import get_style_by_name

    return get_style_by_name(style)


@cache
def _colour(style: str, token: Any) -> str:
    found = _colours(style).style_for_token(token).get("color")
    return f"#{found}" if found else ""


def colour_runs(text: str, language: str, dark: bool) -> list[Run]:
    """The line's coloured runs (none when the language is unknown)."""
    if not language or not text:
        return []
    style = "github-dark" if dark else "default"
    runs, at = [], 0
    for token, value in lexer(language).get_tokens(text):
        if value.endswith("\n") and at + len(value) > len(text):
            value = value[:-1]  # the lexer ends its last token with a newline the line does not have
        if value:
            runs.append((at, at + len(value), _colour(style, token)))
            at += len(value)
    return [run for run in runs if run[2]]
