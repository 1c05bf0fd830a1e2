"""The scripted agent's permission requests that state what would run (registered in scripted_agent.py),
for the user's permission rules: `run COMMAND` asks to run COMMAND (rawInput.command), `touch PATH` to
edit PATH (a location and rawInput.path); each says `outcome: <option id>` (or `cancelled`)."""

from __future__ import annotations

from typing import Any

OPTIONS = [
    {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
    {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
    {"optionId": "deny", "name": "Deny", "kind": "reject_once"},
]


async def _ask(agent: Any, sid: str, tool: dict[str, Any]) -> str:
    agent.update(sid, {"sessionUpdate": "tool_call", **tool, "status": "pending"})
    response = await agent.request(
        "session/request_permission", {"sessionId": sid, "toolCall": tool, "options": OPTIONS}
    )
    outcome = (response or {}).get("outcome", {})
    said = outcome.get("optionId") or outcome.get("outcome") or "?"
    status = "completed" if said in ("allow", "always") else "failed"
    agent.update(
        sid, {"sessionUpdate": "tool_call_update", "toolCallId": tool["toolCallId"], "status": status}
    )
    agent.chunk(sid, f"outcome: {said}")
    return "end_turn"


async def prompt_run(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    command = text.split(" ", 1)[1] if " " in text else "true"
    agent.__dict__["tools"] = agent.__dict__.get("tools", 0) + 1
    tool = {
        "toolCallId": f"t-run-{agent.tools}",
        "title": command,
        "kind": "execute",
        "rawInput": {"command": command},
    }
    return await _ask(agent, sid, tool)


async def prompt_touch(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    path = text.split(" ", 1)[1] if " " in text else "notes.txt"
    agent.__dict__["tools"] = agent.__dict__.get("tools", 0) + 1
    tool = {
        "toolCallId": f"t-edit-{agent.tools}", "title": f"Edit {path}", "kind": "edit",
        "locations": [{"path": path}], "rawInput": {"path": path},
    }  # fmt: skip
    return await _ask(agent, sid, tool)


PROMPTS = {"run": prompt_run, "touch": prompt_touch}
