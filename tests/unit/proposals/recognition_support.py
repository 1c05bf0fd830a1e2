"""A permission request naming the proposal CLI, as the agents send one, and what it is taken for."""

from __future__ import annotations

from typing import Any

from app.contract.proposals import canonical_invocation, compact_payload
from app.main.proposals.recognition import recognise

EXE = "/opt/clawqt/bin/clawqt"
CHANNEL = "v1." + "a" * 32 + "." + "b" * 32
PAYLOAD = compact_payload(
    {
        "schema_version": 1,
        "origin": "terminal_agent",
        "choices": [
            {"choice": 1, "title": "Don't panic", "actions": [{"type": "send", "input": "make test"}]}
        ],
    }
)
CANONICAL = canonical_invocation(EXE, CHANNEL, PAYLOAD)


def call(command: Any = CANONICAL, kind: str | None = "execute", **raw: Any) -> dict[str, Any]:
    tool_call: dict[str, Any] = {
        "toolCallId": "call-1",
        "title": "run",
        "rawInput": {"command": command, **raw},
    }
    if kind is not None:
        tool_call["kind"] = kind
    return tool_call


def kind_of(tool_call: Any, executable: str = EXE) -> str:
    return recognise(tool_call, executable).kind
