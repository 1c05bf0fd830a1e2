"""What a chat-completions request from OpenClaw's gateway says, as the fake model reads it: the user's
text of the current turn (before OpenClaw's internal context block), the tools offered, the turn's
tool results with the calls they answer, and a tool's own answer inside Tool Search's envelope."""

from __future__ import annotations

import json
import re
from typing import Any

INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"
READ_TOOL = "read_terminal"
INPUT_TOOL = "send_terminal_input"
CONTEXT_TOKEN = re.compile(r"contextToken: (cqt_\S+)")
SNAPSHOT_ID = re.compile(r'--- terminal (\S+) "')
YIELD_HINT = re.compile(r"yieldMs (\d+)")  # the wait the hidden context asks the shell tool for


def message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def turn_index(messages: list[dict[str, Any]]) -> int | None:
    """Where the user's message of the current turn is. OpenClaw appends an internal context block as
    the last user message; the user's turn is the one before it."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user" and INTERNAL not in message_text(messages[i]):
            return i
    return None


def current_turn(messages: list[dict[str, Any]]) -> tuple[str, bool]:
    """(the user's text of the current turn, whether a tool result followed it)."""
    index = turn_index(messages)
    if index is None:
        return "", False
    tool_after = any(m.get("role") == "tool" for m in messages[index + 1 :])
    return message_text(messages[index]), tool_after


def offered_tools(request: dict[str, Any]) -> list[str]:
    """The names of the tools the gateway offered the model in this request."""
    names = []
    for tool in request.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def turn_tool_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool results of the current turn, oldest first, each with the call it answers (`name`,
    `arguments`) and its text (`content`)."""
    index = turn_index(messages)
    after = messages[index + 1 :] if index is not None else []
    calls = {
        call.get("id"): call.get("function") or {}
        for message in after
        for call in message.get("tool_calls") or []
    }
    results = []
    for message in after:
        if message.get("role") == "tool":
            function = calls.get(message.get("tool_call_id"), {})
            try:
                arguments = json.loads(function.get("arguments") or "{}")
            except ValueError:
                arguments = {}
            results.append(
                {"name": function.get("name", ""), "arguments": arguments, "content": message_text(message)}
            )
    return results


def tool_answer(content: str) -> str:
    """The tool's own answer in a tool result: OpenClaw hands the model the result of a tool reached
    through Tool Search inside a security notice and a JSON envelope; other results are taken whole."""
    start, end = content.find("\n---\n"), content.rfind("\n<<<END_EXTERNAL_UNTRUSTED_CONTENT")
    body = content[start + 5 : end] if 0 <= start < end else content
    try:
        parts = json.loads(body)["result"]["content"]
        return [part["text"] for part in parts if part.get("type") == "text"][-1]
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return body
