"""A group of tool calls said in words, from their kinds ("Read 2 files, searched 1 pattern"), instead
of "5 tool calls": what the agent did is what the user scans for. While a call of the group runs, the
words say which ("Running · Search "hello""). Pure: no Qt."""

from __future__ import annotations

from collections import Counter
from typing import Any

# kind: (verb, one, many); a kind not here (an agent's own) is counted as a tool used
_WORDS: dict[str, tuple[str, str, str]] = {
    "read": ("read", "file", "files"),
    "edit": ("edited", "file", "files"),
    "delete": ("deleted", "file", "files"),
    "move": ("moved", "file", "files"),
    "search": ("searched", "pattern", "patterns"),
    "execute": ("ran", "command", "commands"),
    "think": ("thought", "time", "times"),
    "fetch": ("fetched", "page", "pages"),
    "switch_mode": ("switched", "mode", "modes"),
}
_OTHER = ("used", "tool", "tools")
_RUNNING = frozenset({"pending", "in_progress", "running"})


def group_words(tools: list[dict[str, Any]], turn_live: bool) -> str:
    """What the group did, kinds in the order they first came; the running call while the turn runs."""
    running = [t for t in tools if t["status"] in _RUNNING]
    if turn_live and running:
        return f"Running \u00b7 {running[-1]['title']}"
    counts = Counter(t["toolKind"] if t["toolKind"] in _WORDS else "" for t in tools)
    said = []
    for kind, count in counts.items():
        verb, one, many = _WORDS.get(kind, _OTHER)
        said.append(f"{verb} {count} {one if count == 1 else many}")
    text = ", ".join(said)
    return text[:1].upper() + text[1:]
