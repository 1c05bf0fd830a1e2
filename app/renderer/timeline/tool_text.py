"""What the timeline reads out of a tool call as text: its status label, its text output, the text above
its screen, its diffs as unified diffs. Shared by the tool card (`present/tool_card.py`), search and the
Markdown export, so all of them read a tool the same way. Pure: no Qt, no I/O."""

from __future__ import annotations

import re
from functools import lru_cache

from app.contract.ansi import strip_escapes
from app.contract.diffs import unified_diff
from app.renderer.timeline.items import ToolCall
from app.renderer.timeline.parts import DiffPart, ErrorPart, ImagePart, MarkdownPart

STATUS_LABELS = {
    "pending": "Pending",
    "running": "Running",
    "completed": "Done",
    "failed": "Failed",
    "cancelled": "Cancelled",
}
MAX_DETAIL_CHARS = 20_000

CONSOLE_FENCE = re.compile(
    r"^(`{3,}|~{3,})[ \t]*(console|shell|sh|bash|terminal|shellsession)[^\n]*\n(.*?)^\1[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


@lru_cache(maxsize=64)
def _unified(old: str | None, new: str, path: str) -> str:
    """Cached: a tool's entry is rebuilt on every update of the tool, its diff need not be."""
    return unified_diff(old, new, path)


def forget_diffs() -> None:
    """Drop the cached diffs (and the texts they are keyed by) when another timeline is shown."""
    _unified.cache_clear()


def tool_diffs(tool: ToolCall) -> list[str]:
    """Each diff content of the tool as a unified diff (shown by the one diff view)."""
    return [
        _unified(part.old_text, part.new_text, part.path)
        for part in tool.output_parts
        if isinstance(part, DiffPart)
    ]


def tool_output(tool: ToolCall) -> str:
    pieces = []
    for part in tool.output_parts:
        if isinstance(part, MarkdownPart | ErrorPart):
            pieces.append(strip_escapes(part.text))
        elif isinstance(part, ImagePart):
            pieces.append("[image]")
    if not pieces and tool.output is not None and not isinstance(tool.output, dict | list):
        pieces.append(str(tool.output))
    if tool.parts_dropped:
        pieces.append(f"({tool.parts_dropped} more content items not shown)")
    return "\n\n".join(pieces)[:MAX_DETAIL_CHARS]


def screen_description(tool: ToolCall) -> str:
    """The text a card shows ABOVE its screen (seed 004: the agent sends the command's description as a
    content block before the terminal, and it stays visible beside the card): for a terminal, the
    tool's text content; for a ```console fallback, its text outside the console block; empty when a
    coloured text output is itself the screen. Only asked of cards that have a screen."""
    texts = []
    fenced = tool.terminal is not None
    for part in tool.output_parts:
        if not isinstance(part, MarkdownPart | ErrorPart):
            continue
        text = part.text
        if not fenced and isinstance(part, MarkdownPart) and ("```" in text or "~~~" in text):
            match = CONSOLE_FENCE.search(text)
            if match:
                text, fenced = text[: match.start()] + text[match.end() :], True
        texts.append(strip_escapes(text).strip())
    if not fenced:
        return ""
    return "\n\n".join(t for t in texts if t)[:MAX_DETAIL_CHARS]
