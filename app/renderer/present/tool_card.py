"""What a tool card shows, as plain data: title, kind, status label, pretty input, output text, diffs
(unified, for the one diff view), locations, and which screen it embeds (its terminal, or a ```console
block in its output shown the same way). Pure: no Qt, no I/O."""

from __future__ import annotations

import json
from typing import Any

from app.contract.ansi import has_escapes, strip_escapes
from app.renderer.present.tool_details import input_lines
from app.renderer.present.tool_group_words import group_words
from app.renderer.timeline.items import ToolCall
from app.renderer.timeline.parts import MarkdownPart
from app.renderer.timeline.tool_text import (
    CONSOLE_FENCE,
    MAX_DETAIL_CHARS,
    STATUS_LABELS,
    screen_description,
    tool_diffs,
    tool_output,
)

FINISHED = frozenset({"completed", "failed", "cancelled"})


def console_id(tool: ToolCall) -> str:
    """The screen id of a tool's ```console fallback."""
    return f"console:{tool.id}"


def console_fallback(tool: ToolCall) -> str | None:
    """What a tool's card shows on a terminal screen when it has no terminal: a ```console block in its
    output (how agents send terminal output to clients without the terminal capability), or a text
    output carrying terminal escapes (a command's coloured output passed through), or None."""
    if tool.terminal is not None:
        return None
    texts = [part.text for part in tool.output_parts if isinstance(part, MarkdownPart)]
    for text in texts:
        if "```" in text or "~~~" in text:
            match = CONSOLE_FENCE.search(text)
            if match:
                return match.group(3)
    if any(has_escapes(text) for text in texts):
        return "\n\n".join(texts)
    return None


def pretty(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value[:MAX_DETAIL_CHARS]
    try:
        text = json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text[:MAX_DETAIL_CHARS]


def screen_entry(tool: ToolCall) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(terminal, console): what the card's screen shows besides the screen itself. Output progress is
    not in it, so a streaming terminal never rebuilds its card."""
    terminal = tool.terminal
    if terminal is not None:
        return {
            "id": terminal.terminal_id,
            "cwd": terminal.cwd or "",
            "exitCode": -1 if terminal.exit_code is None else terminal.exit_code,
            "signal": terminal.signal or "",
            "exited": terminal.exited,
            "trimmed": terminal.trimmed,
            "note": terminal.note,
        }, None
    if console_fallback(tool) is None:
        return None, None
    return None, {
        "id": console_id(tool),
        "cwd": "",
        "exitCode": -1,
        "signal": "",
        "exited": False,
        "trimmed": False,
        "note": "",
        "fallback": True,
    }


def tool_duration(tool: ToolCall) -> str:
    """How long a finished call ran ("0.4 s", "12 s", "2 min 5 s"); "" when not known (a loaded one,
    or one still running)."""
    if tool.started_at is None or tool.ended_at is None:
        return ""
    seconds = max(0.0, tool.ended_at - tool.started_at)
    if seconds < 0.1:
        return "< 0.1 s"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


def tool_entry(tool: ToolCall) -> dict[str, Any]:
    terminal, console = screen_entry(tool)
    return {
        "id": tool.id,
        "title": strip_escapes(tool.title),
        "toolKind": tool.tool_kind,
        "status": tool.status,
        "statusLabel": STATUS_LABELS.get(tool.status, tool.status),
        "duration": tool_duration(tool),
        "historical": tool.historical,
        "input": pretty(tool.input),
        "inputLines": input_lines(tool.input),
        "output": tool_output(tool),
        "error": strip_escapes(tool.error or ""),
        "description": screen_description(tool) if terminal is not None or console is not None else "",
        "diffs": tool_diffs(tool),
        "locations": [
            str(loc.get("path", "")) + (f":{loc['line']}" if isinstance(loc.get("line"), int) else "")
            for loc in tool.locations
        ],
        "terminal": terminal,
        "console": console,
    }


def tool_summary(tools: list[dict[str, Any]], turn_live: bool = False) -> dict[str, Any]:
    """A tool group's header: how many calls, how many still running, how many failed, and whether its
    turn still runs (a group collapses only after its turn ended, like ClawX's)."""
    return {
        "turnLive": turn_live,
        "words": group_words(tools, turn_live),
        "count": len(tools),
        "running": sum(t["status"] in ("pending", "running") for t in tools),
        "failed": sum(t["status"] == "failed" for t in tools),
        "finished": all(t["status"] in FINISHED for t in tools),
        "historical": all(t["historical"] for t in tools) if tools else False,
    }
