"""What makes a parsed JSON object a JSON-RPC message ClawQt can take: the live reader and the trace
replay drop the same lines for the same reasons."""

from __future__ import annotations

from typing import Any


def jsonrpc_problem(message: dict[str, Any]) -> str:
    """Why `message` is no JSON-RPC message ClawQt can take ("" when it is one): ids are strings,
    numbers or null (a list or an object cannot even be looked up), methods are strings."""
    if "id" in message:
        msg_id = message["id"]
        if isinstance(msg_id, bool) or not isinstance(msg_id, str | int | float | type(None)):
            return f"has an id JSON-RPC does not allow ({type(msg_id).__name__})"
    if "method" in message and not isinstance(message["method"], str):
        return "has a method that is not a string"
    return ""


__all__ = ["jsonrpc_problem"]
