"""A tool card's details as a reader wants them: its input as `key: value` lines (no braces; the raw
JSON stays behind "Raw input"), and output that is Markdown rendered as Markdown (never its fences
printed), while a file's contents or a command's output stay as written. Pure: no Qt."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from app.renderer.markdown.render import DARK_PROSE, LIGHT_PROSE, render_blocks

INPUT_LINES = 6  # then "… N more"
VALUE_CHARS = 200  # a value longer than this ends in an ellipsis on its line
# kinds whose output is what a file or a command holds: shown as written, whatever it looks like
_LITERAL_KINDS = frozenset({"read", "execute", "edit", "delete", "move"})
_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.M)
_MARKS = re.compile(r"^ {0,3}(#{1,6} |[-*+] |\d+\. |> )|\*\*\S|\]\(", re.M)


def _value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    line = " ".join(text.split())
    return line if len(line) <= VALUE_CHARS else line[: VALUE_CHARS - 1] + "\u2026"


def input_lines(value: Any) -> str:
    """An object's fields as `key: value` lines (at most INPUT_LINES, then how many more); anything else
    as its one-line text. "" for no input."""
    if value is None or value == {} or value == "":
        return ""
    if not isinstance(value, dict):
        return _value(value)
    lines = [f"{key}: {_value(item)}" for key, item in list(value.items())[:INPUT_LINES]]
    more = len(value) - INPUT_LINES
    if more > 0:
        lines.append(f"\u2026 {more} more")
    return "\n".join(lines)


def is_markdown(tool_kind: str, text: str) -> bool:
    """Whether the output reads as Markdown: fenced code, or Markdown's marks in the output of a kind that
    is not a file's or a command's own text (a `#` comment in a read file is no heading)."""
    if not text.strip():
        return False
    if _FENCE.search(text):
        return True
    return tool_kind not in _LITERAL_KINDS and _MARKS.search(text) is not None


def output_html(tool_kind: str, text: str, dark: bool) -> str:
    """The output rendered as Markdown in one rich text (its code blocks highlighted), or "" to show it as
    written."""
    if not is_markdown(tool_kind, text):
        return ""
    parts = []
    rule = (DARK_PROSE if dark else LIGHT_PROSE).rule
    for block in render_blocks(text, dark):
        if block.kind == "code":  # framed as prose frames a table (Qt shades no block evenly)
            parts.append(
                f'<table width="100%" border="1" cellspacing="0" cellpadding="8" style="border-color:{rule};'
                f' border-style:solid; border-collapse:collapse; margin-bottom:8px"><tr><td>{block.html}'
                "</td></tr></table>"
            )
        elif block.kind == "more":  # the label is plain text
            parts.append(f"<p><i>{html.escape(block.html)}</i></p>")
        else:
            parts.append(block.html)
    return "".join(parts)
