"""Scripted-agent prompts for find in the chat (Ctrl+F) on hostile replies. Standard library only (the
agent runs as a plain script); registered in `scripted_agent.py`'s PROMPTS.

`hostile-find MB [CHUNK]`: one reply of MB Mi characters (a fraction allowed), in one chunk or in chunks
of CHUNK characters: short words of "a" in paragraphs (`find_text`), so a one-letter query matches four
characters in five: millions of matches in one item of one row."""

from __future__ import annotations

from typing import Any

PARAGRAPH = "aaaa " * 199 + "aaa\n\n"  # 1,000 characters, 799 of them "a"


def find_text(megabytes: float) -> str:
    """`megabytes` Mi characters of `PARAGRAPH`s (the last one cut)."""
    size = int(megabytes * 1024 * 1024)
    return (PARAGRAPH * (size // len(PARAGRAPH) + 1))[:size]


async def prompt_hostile_find(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    words = text.split()
    body = find_text(float(words[1]) if len(words) > 1 else 8)
    size = int(words[2]) if len(words) > 2 else len(body)
    for start in range(0, len(body), size):
        agent.chunk(sid, body[start : start + size])
    return "end_turn"


PROMPTS = {"hostile-find": prompt_hostile_find}
