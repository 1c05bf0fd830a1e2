"""The scripted agent's side of `$/cancel_request` (registered in scripted_agent.py): `permission-withdrawn`
asks the user's permission, withdraws the request 0.3 s later and says the error it was answered with;
`_test/hang` is a request it never answers, and the `$/cancel_request`s ClawQt sends are kept and
reported by `cancelled-requests`; `logout` forgets the sign-in."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


async def prompt_permission_withdrawn(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    tool = {"toolCallId": "t-withdrawn", "title": "rm -rf build", "kind": "execute"}
    options = [
        {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
        {"optionId": "deny", "name": "Deny", "kind": "reject_once"},
    ]
    request = {"sessionId": sid, "toolCall": tool, "options": options}
    asking = asyncio.ensure_future(agent.request_raw("session/request_permission", request))
    await asyncio.sleep(0.3)  # the card is shown meanwhile
    agent.send({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": agent.next_id}})
    response = await asyncio.wait_for(asking, 10)
    error = response.get("error") or {}
    agent.chunk(sid, f"withdrawn: {error.get('code')} {error.get('message')}")
    return "end_turn"


async def on_cancel_request(agent: Any, msg_id: Any, params: dict[str, Any]) -> None:
    agent.__dict__.setdefault("cancel_requests", []).append(params.get("requestId"))


async def on_hang(agent: Any, msg_id: Any, params: dict[str, Any]) -> None:
    """Never answered: the client gives up and cancels it."""


async def prompt_cancelled_requests(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.chunk(sid, json.dumps({"cancelled": agent.__dict__.get("cancel_requests", [])}))
    return "end_turn"


async def on_logout(agent: Any, msg_id: Any, params: dict[str, Any]) -> None:
    """ACP `logout` (offered with --caps naming auth.logout): the sign-in is forgotten."""
    agent.authenticated = False
    sys.stderr.write("logout\n")
    sys.stderr.flush()
    agent.respond(msg_id, {})


async def prompt_tokens(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`tokens`: a reply whose PromptResponse says the turn's tokens (ACP's unstable `usage`), with
    fields an agent should not send (a string, a negative count) that ClawQt leaves out; its context
    use said before (`usage_update`: 62,000 of 200,000)."""
    agent.chunk(sid, "Counted.")
    agent.update(sid, {"sessionUpdate": "usage_update", "used": 62_000, "size": 200_000})
    agent.next_usage = {
        "totalTokens": 1534,
        "inputTokens": 1200,
        "outputTokens": 334,
        "thoughtTokens": "many",
        "cachedReadTokens": -5,
    }
    return "end_turn"


HANDLERS = {"$/cancel_request": on_cancel_request, "_test/hang": on_hang, "logout": on_logout}
PROMPTS = {
    "permission-withdrawn": prompt_permission_withdrawn,
    "cancelled-requests": prompt_cancelled_requests,
    "tokens": prompt_tokens,
}
