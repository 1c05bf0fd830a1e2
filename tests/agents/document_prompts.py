"""Prompt scripts of the scripted agent that hand the user documents (registered in scripted_agent.py's
PROMPTS): the preview panel reads them only on the user's click."""

from __future__ import annotations

from typing import Any


async def prompt_attach_docs(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`attach-docs NAME...`: a sentence, then a resource link to each NAME in the session folder."""
    agent.chunk(sid, "Here are the documents.")
    for name in text.split()[1:]:
        link = {"type": "resource_link", "uri": agent.session_path(sid, name), "name": name}
        agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": link})
    return "end_turn"


PROMPTS = {"attach-docs": prompt_attach_docs}
