"""The state of one demo session; kept in memory while open and mirrored to disk by the store."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from acp.utils import serialize_params
from pydantic import BaseModel

from app.demo_agent.options import DEFAULT_MODE, DEFAULT_MODEL

if TYPE_CHECKING:
    from app.demo_agent.terminal_tools_client import McpServerRef

TITLE_LENGTH = 40


class RunningTurn(Protocol):
    """What a session asks of its running turn (turn.py's `Turn`): to stop."""

    def cancel(self) -> None: ...


# Noise a replay does not need: commands are re-sent after every load, usage is a live gauge.
NOT_RECORDED = frozenset({"available_commands_update", "usage_update"})


def now_iso() -> str:
    """UTC with milliseconds and a "Z": sorts lexically, so session/list can sort strings."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def title_from(text: str) -> str:
    """A session title from its first prompt: one line, at most ~40 characters."""
    line = re.sub(r"\s+", " ", text).strip()
    if not line:
        return "Untitled"
    if len(line) <= TITLE_LENGTH:
        return line
    return line[: TITLE_LENGTH - 1].rstrip() + "…"


@dataclass
class DemoSession:
    """Everything the agent knows about a session; `history` holds wire-form session/update payloads."""

    session_id: str
    cwd: str
    mode_id: str = DEFAULT_MODE
    model: str = DEFAULT_MODEL
    title: str | None = None
    updated_at: str = field(default_factory=now_iso)
    turns: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    # In memory only: "Always allow" lasts as long as the session is open.
    always_allow_edits: bool = False
    turn: RunningTurn | None = None
    # In memory only: the HTTP MCP servers (with their bearer headers) the client named when it last
    # opened the session on this connection (new, load or resume).
    mcp_servers: list[McpServerRef] = field(default_factory=list)

    def record(self, update: BaseModel) -> None:
        """Append an update (as sent on the wire) to the replayable history."""
        payload = serialize_params(update)
        if payload.get("sessionUpdate") not in NOT_RECORDED:
            self.history.append(payload)

    def begin_turn(self, text: str) -> int:
        """Count a new turn, name the session after its first prompt and return the turn number."""
        self.turns += 1
        if self.title is None:
            self.title = title_from(text)
        self.updated_at = now_iso()
        return self.turns

    def touch(self) -> str:
        self.updated_at = now_iso()
        return self.updated_at
