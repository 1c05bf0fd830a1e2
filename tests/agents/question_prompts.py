"""The scripted agent's questions (ACP `elicitation/create`, registered in scripted_agent.py); each
says in its reply what ClawQt answered (`answered: {json}`), or the error it got (`refused: code
message`). `ask-form` has every kind of field; `ask-link [URL]` a link, completed when the user
accepted it; `ask-deep`, `ask-many` hostile forms; `ask-then-die` asks and exits while it waits;
`ask-withdrawn` asks and cancels its request."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

EVERY_FIELD = {
    "type": "object",
    "title": "Deployment details",
    "properties": {
        "name": {"type": "string", "title": "Project name", "minLength": 3, "default": "clawqt"},
        "email": {"type": "string", "title": "Contact email", "format": "email"},
        "ticket": {
            "type": "string",
            "title": "Ticket",
            "pattern": "^[A-Z]+-[0-9]+$",
            "description": "Like OPS-12",
        },
        "day": {"type": "string", "title": "Day", "format": "date"},
        "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 9, "default": 2},
        "budget": {"type": "number", "title": "Budget (k€)", "minimum": 0.5},
        "notify": {"type": "boolean", "title": "Notify the team", "default": True},
        "region": {"type": "string", "title": "Region", "enum": ["eu-west", "us-east", "ap-south"]},
        "tier": {
            "type": "string",
            "title": "Tier",
            "oneOf": [{"const": "s", "title": "Small"}, {"const": "m", "title": "Medium"}],
        },
        "checks": {
            "type": "array",
            "title": "Checks to run",
            "items": {
                "anyOf": [
                    {"const": "lint", "title": "Lint"},
                    {"const": "tests", "title": "Tests"},
                    {"const": "bench", "title": "Benchmarks"},
                ]
            },
            "minItems": 1,
        },
    },
    "required": ["name", "email", "region", "replicas", "checks"],
}


def _nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"inner": schema}}
    return schema


async def _ask(agent: Any, sid: str, params: dict[str, Any]) -> None:
    response = await agent.request_raw("elicitation/create", {"sessionId": sid, **params})
    error = response.get("error")
    if error:
        agent.chunk(sid, f"refused: {error.get('code')} {error.get('message')}")
    else:
        agent.chunk(sid, "answered: " + json.dumps(response.get("result"), sort_keys=True))


async def prompt_ask_form(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    message = "Before I deploy, a few details."
    await _ask(agent, sid, {"mode": "form", "message": message, "requestedSchema": EVERY_FIELD})
    return "end_turn"


async def prompt_ask_short(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """One required text field: quick to answer from a test."""
    schema = {"type": "object", "properties": {"colour": {"type": "string", "title": "Colour"}},
              "required": ["colour"]}  # fmt: skip
    await _ask(agent, sid, {"mode": "form", "message": "Which colour?", "requestedSchema": schema})
    return "end_turn"


async def prompt_ask_link(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    url = text.split(" ", 1)[1] if " " in text else "https://example.com/authorize?code=42"
    ask = {"mode": "url", "message": "Sign in to the tracker", "url": url, "elicitationId": "link-1"}
    response = await agent.request_raw("elicitation/create", {"sessionId": sid, **ask})
    result = response.get("result") or {}
    if result.get("action") == "accept":
        await asyncio.sleep(0.2)  # the user's browser does its part meanwhile
        agent.send(
            {"jsonrpc": "2.0", "method": "elicitation/complete", "params": {"elicitationId": "link-1"}}
        )
    error = response.get("error")
    agent.chunk(sid, f"refused: {error.get('message')}" if error else "answered: " + json.dumps(result))
    return "end_turn"


async def prompt_ask_deep(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    schema = {"type": "object", "properties": {"outer": _nested(50)}}
    await _ask(agent, sid, {"mode": "form", "message": "Deep", "requestedSchema": schema})
    return "end_turn"


async def prompt_ask_many(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    pick = {"type": "string", "title": "Pick", "enum": [f"v{i}" for i in range(10_000)]}
    schema = {"type": "object", "properties": {"pick": pick}}
    await _ask(agent, sid, {"mode": "form", "message": "Many", "requestedSchema": schema})
    return "end_turn"


def _asking_why(agent: Any, sid: str, message: str) -> asyncio.Future[Any]:
    """A one-field question ("Why"), asked and not yet answered: the whole response when it is."""
    schema = {"type": "object", "properties": {"why": {"type": "string", "title": "Why"}}}
    params = {"sessionId": sid, "mode": "form", "message": message, "requestedSchema": schema}
    return asyncio.ensure_future(agent.request_raw("elicitation/create", params))


async def prompt_ask_then_die(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    asking = _asking_why(agent, sid, "One question")
    await asyncio.sleep(0.5)  # the card is shown meanwhile
    os._exit(3)
    return await asking  # pragma: no cover


async def prompt_ask_withdrawn(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    asking = _asking_why(agent, sid, "Never mind")
    await asyncio.sleep(0.3)
    agent.send({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": agent.next_id}})
    response = await asyncio.wait_for(asking, 10)
    error = response.get("error") or {}
    agent.chunk(sid, f"withdrawn: {error.get('code')}")
    return "end_turn"


PROMPTS = {
    "ask-form": prompt_ask_form,
    "ask-short": prompt_ask_short,
    "ask-link": prompt_ask_link,
    "ask-deep": prompt_ask_deep,
    "ask-many": prompt_ask_many,
    "ask-then-die": prompt_ask_then_die,
    "ask-withdrawn": prompt_ask_withdrawn,
}
