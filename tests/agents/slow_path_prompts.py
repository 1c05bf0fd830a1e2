"""The scripted agent's prompts for work that used to run long on ClawQt's GUI thread (registered in
scripted_agent.py's PROMPTS; each takes the agent, the session id, the prompt's params and its text).

- `term-many N`: N client terminals (terminal/create, each `sleep 300`), left running: closing the chat
  ends them all.
- `hostile-bigline MB [escaped] [meta]`: one session/update line of about MB megabytes (an
  agent_message_chunk of prose in long paragraphs; `escaped`: text in many scripts written as `\\uXXXX`
  escapes, as Python's json.dumps writes any non-ASCII character, the costliest kind to parse; `meta`:
  a short reply whose update's `_meta` holds the text), then a short chunk.
"""

from __future__ import annotations

import json
from typing import Any

# paragraphs of ~50 KB: the line is what is costly here, not the reply's layout or its many lines
PROSE = "The agent wrote a very long reply, word after word. " * 1000 + "\n\n"
SCRIPTS = "Grüße, 世界 and Привет: a reply in many scripts. " * 1000 + "\n\n"


async def prompt_term_many(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    words = text.split()
    count = int(words[1]) if len(words) > 1 else 64
    cwd = agent.sessions.get(sid, {}).get("cwd") or "."
    created = []
    for _ in range(count):
        answer = await agent.request(
            "terminal/create", {"sessionId": sid, "command": "sleep", "args": ["300"], "cwd": cwd}
        )
        created.append(answer.get("terminalId") if isinstance(answer, dict) else None)
    agent.chunk(sid, f"created {sum(1 for t in created if t)} terminals")
    return "end_turn"


async def prompt_hostile_bigline(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    words = text.split()
    size = int(float(words[1]) * 1024 * 1024) if len(words) > 1 else 100 * 1024 * 1024
    escaped = "escaped" in words[2:]
    unit = SCRIPTS if escaped else PROSE
    unit_bytes = len(json.dumps(unit)) - 2 if escaped else len(unit.encode())
    body = unit * max(1, size // unit_bytes)
    if "meta" in words[2:]:  # the text in the update's _meta: only the line is costly, not the reply
        shown = {"type": "text", "text": "A reply whose _meta is very long."}
        update = {"sessionUpdate": "agent_message_chunk", "content": shown, "_meta": {"blob": body}}
    else:
        update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": body}}
    message = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": sid, "update": update}}
    agent.raw(json.dumps(message, ensure_ascii=escaped).encode())
    agent.chunk(sid, "after the big line")
    return "end_turn"


PROMPTS = {"term-many": prompt_term_many, "hostile-bigline": prompt_hostile_bigline}
