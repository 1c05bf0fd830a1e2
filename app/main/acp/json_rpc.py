"""JSON-RPC basics: what makes a parsed JSON object a message ClawQt can take (the live reader and the
trace replay drop the same lines for the same reasons), and the error an answer carries."""

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


class RpcError(Exception):
    """A JSON-RPC error: raised by a handler to answer the agent with it, and raised for an agent's
    error answer to one of ClawQt's requests. `str()` is the message."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data

    @classmethod
    def method_not_found(cls, method: str) -> RpcError:
        return cls(-32601, "Method not found", {"method": method})

    @classmethod
    def invalid_params(cls, details: str) -> RpcError:
        return cls(-32602, "Invalid params", {"details": details})

    def to_error(self) -> dict[str, Any]:
        """The `error` member of an answer."""
        error: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.data is not None:
            error["data"] = self.data
        return error


__all__ = ["RpcError", "jsonrpc_problem"]
