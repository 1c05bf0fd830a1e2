"""Chats that continue another one ("Continue from here", "Edit and resend"), as the renderer asks for
them and shows where they came from. Part of the host API (host_api.py); the main side
(`app/main/sessions/branching.py`) decides how the new chat starts: `session/fork` where the agent
offers it and the point is the chat's end, else a new session whose first message carries the
transcript the renderer made (`app/renderer/timeline/handover.py`) as hidden context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.contract.envelopes import LoadResult


@dataclass(frozen=True)
class BranchOrigin:
    """Where a chat came from: the chat it continues, at which of its messages, and how."""

    source_key: str
    source_title: str
    message_id: str
    source_agent: str  # the name of the agent of the chat it continues
    forked: bool  # the agent forked its own session; else it was handed the transcript
    handed_over: bool  # the transcript went with the first message (always True when forked)
    exchanges: int  # how many of the user's messages it carries


@dataclass(frozen=True)
class BranchRequest:
    """What the user chose on a message of the chat shown."""

    source_key: str
    source_title: str
    message_id: str
    agent_id: str  # the agent the new chat is with ("" for the chat's own)
    cwd: str  # the chat's folder: the new chat works in it too
    handover: str  # the transcript up to the point ("" when nothing comes before it)
    exchanges: int
    at_end: bool  # the point is the chat's end, its last turn included: a fork carries the same


class BranchesHost(Protocol):
    async def branch(self, request: BranchRequest) -> LoadResult:
        """Open the new chat (shown by the caller); the chat it continues is left as it was."""
        ...

    def origin(self, session_key: str) -> BranchOrigin | None:
        """Where `session_key` came from (None for a chat that continues none)."""
        ...
