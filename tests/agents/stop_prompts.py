"""Prompt scripts of the scripted agent that ignore Stop (registered in scripted_agent.py's PROMPTS).
Some agents never answer `session/cancel`: a client that waits for them keeps the chat working and its
queue waiting for good."""

from __future__ import annotations

import asyncio
from typing import Any

LATE_WORDS = "late words after Stop"


async def prompt_ignore_cancel(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`ignore-cancel [SECONDS]`: says it works, waits to be cancelled, then goes on as if it were not:
    SECONDS later (default 4) it sends LATE_WORDS and answers `end_turn`."""
    words = text.split()
    late_after = float(words[1]) if len(words) > 1 else 4.0
    agent.chunk(sid, "working on it")
    for _ in range(600):
        if sid in agent.cancelled:
            break
        await asyncio.sleep(0.05)  # the poll's interval
    await asyncio.sleep(late_after)  # the late answer's delay the test asked for
    agent.chunk(sid, LATE_WORDS)
    return "end_turn"


PROMPTS = {"ignore-cancel": prompt_ignore_cancel}
