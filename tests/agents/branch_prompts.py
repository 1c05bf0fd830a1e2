"""What the scripted agent does for chats that continue another one (registered in scripted_agent.py):
`session/fork` copies a session's conversation to a new one, and the prompt `recall` answers with
the conversation the session knows: its own earlier messages, the ones of the session it was forked
from, and the user's messages of a transcript ClawQt handed it as hidden context."""

from __future__ import annotations

import importlib
import re
from typing import Any

try:  # run beside the scripted agent: this folder is on sys.path
    _options = importlib.import_module("scripted_options")
except ImportError:  # imported by the tests as a module
    _options = importlib.import_module("tests.agents.scripted_options")

_HANDED = re.compile(r"^User:\n(.*?)\n\n", re.M | re.S)


async def on_session_fork(agent: Any, msg_id: Any, params: dict[str, Any]) -> None:
    source = agent.sessions.get(params.get("sessionId", ""))
    if source is None:
        agent.error(msg_id, -32002, f"Resource not found: {params.get('sessionId')}")
        return
    agent.counter += 1
    sid = f"fork-{agent.counter}"
    agent.sessions[sid] = {
        "cwd": params.get("cwd"),
        "said": list(source.get("said", [])),
        "forked_from": params.get("sessionId"),
    }
    options = [_options.model_option("m1")]
    agent.respond(msg_id, {"sessionId": sid, "modes": _options.MODES, "configOptions": options})


async def prompt_recall(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`recall`: "recall: <what it knows>", each earlier message of the user separated by " | "."""
    session = agent.sessions.get(sid, {})
    said = session.get("said", [])[:-1]  # the messages before this one
    handed = [m.strip() for block in agent.hidden_context.get(sid, []) for m in _HANDED.findall(block)]
    parts = []
    if session.get("forked_from"):
        parts.append(f"forked from {session['forked_from']}")
    if handed:
        parts.append("handed " + " | ".join(handed))
    parts.append("said " + (" | ".join(said) or "nothing"))
    agent.chunk(sid, "recall: " + "; ".join(parts))
    return "end_turn"


HANDLERS = {"session/fork": on_session_fork}
PROMPTS = {"recall": prompt_recall}
