"""Which session an incoming `session/update` belongs to, and with which generation.

Order (chat-timeline.md, "Main side"): the live prompt that owns the ACP id wins; then a running load
whose ACP id matches (its updates are buffered and sent on in ReplayEnvelopes of `REPLAY_CHUNK`, the
rest with the load result); then the active
session; then a load whose ACP id is not known yet (`session/new` before its response); otherwise the
update is dropped and counted. The notification is copied with `sessionId` rewritten to the key; every
other field, `_meta` and unknown update kinds included, is kept.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from app.contract.envelopes import ReplayEnvelope, SessionUpdateEnvelope

_FINISHED_TOOL_STATUSES = frozenset({"completed", "failed"})
# replayed updates sent on together while a load runs: few envelopes for a long history, and never more
# than this many decoded updates held at once
REPLAY_CHUNK = 256


@dataclass
class ActiveSession:
    """The session the user is looking at, as opened in the current agent child."""

    key: str
    acp_id: str
    generation: int
    cwd: str
    historical: bool = True


@dataclass
class LivePrompt:
    """A running `session/prompt`: its routing context survives switching to another session."""

    key: str
    acp_id: str
    generation: int
    cwd: str
    client_message_id: str
    started: float = field(default_factory=time.monotonic)
    open_tool_calls: set[str] = field(default_factory=set)
    cancel_requested: bool = False
    settled: bool = False  # ended by ClawQt after Stop went unanswered; the agent's answer is late

    def track_tool(self, update: dict[str, Any]) -> None:
        """Remember tool calls still open, so cancel can mark them cancelled."""
        tool_id = update.get("toolCallId")
        if not isinstance(tool_id, str):
            return
        status = update.get("status")
        if not isinstance(status, str | None):
            return
        if status in _FINISHED_TOOL_STATUSES:
            self.open_tool_calls.discard(tool_id)
        elif update.get("sessionUpdate") == "tool_call" or status is not None:
            self.open_tool_calls.add(tool_id)


@dataclass
class LoadTransaction:
    """An in-flight `session/new|load|resume`: its updates are held until the response commits them,
    except that, once its ACP id is known, every `REPLAY_CHUNK` of them is sent on ahead."""

    key: str
    generation: int
    acp_id: str | None
    buffer: list[dict[str, Any]] = field(default_factory=list)
    replayed: int = 0  # updates already sent on in ReplayEnvelopes

    def replay_envelopes(self, updates: Iterable[dict[str, Any]]) -> tuple[SessionUpdateEnvelope, ...]:
        """Buffered notifications as this load's historical updates, under its key."""
        key, generation = self.key, self.generation
        return tuple(SessionUpdateEnvelope(key, generation, True, rewrite(p, key)) for p in updates)

    def take_chunk(self) -> ReplayEnvelope:
        """The buffered updates as one ReplayEnvelope; the buffer starts again."""
        chunk = self.replay_envelopes(self.buffer)
        self.replayed += len(chunk)
        self.buffer = []
        return ReplayEnvelope(self.key, self.generation, chunk)


RouteKind = Literal["live", "load", "active", "dropped", "malformed"]


@dataclass(frozen=True)
class Route:
    kind: RouteKind
    envelope: SessionUpdateEnvelope | ReplayEnvelope | None = None
    reason: str = ""


def rewrite(params: dict[str, Any], key: str) -> dict[str, Any]:
    """A shallow copy of the notification params with the session id replaced by the key."""
    copy = dict(params)
    copy["sessionId"] = key
    return copy


def route_update(
    params: Any,
    live_by_acp: dict[str, LivePrompt],
    loading: LoadTransaction | None,
    active: ActiveSession | None,
) -> Route:
    """Decide where one `session/update` goes. Pure apart from buffering into `loading`."""
    if not isinstance(params, dict) or not isinstance(params.get("sessionId"), str):
        return Route("malformed", reason="session/update without a string sessionId")
    if not isinstance(params.get("update"), dict):
        return Route("malformed", reason="session/update without an update object")
    acp_id: str = params["sessionId"]
    live = live_by_acp.get(acp_id)
    if live is not None:
        if params["update"].get("sessionUpdate") in ("tool_call", "tool_call_update"):
            live.track_tool(params["update"])
        return Route(
            "live", SessionUpdateEnvelope(live.key, live.generation, False, rewrite(params, live.key))
        )
    if loading is not None and loading.acp_id == acp_id:
        loading.buffer.append(params)
        return Route("load", loading.take_chunk() if len(loading.buffer) >= REPLAY_CHUNK else None)
    if active is not None and active.acp_id == acp_id:
        return Route(
            "active",
            SessionUpdateEnvelope(
                active.key, active.generation, active.historical, rewrite(params, active.key)
            ),
        )
    if loading is not None and loading.acp_id is None:
        loading.buffer.append(params)
        return Route("load")
    return Route("dropped", reason=f"update for unknown session {acp_id!r}")
