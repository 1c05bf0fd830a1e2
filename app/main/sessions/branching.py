"""Chats that continue another one (contract: `BranchesHost`). The chat continued is never touched:
the new chat is `session/fork` of it when the agent offers forking, the agent is the chat's own and
the point is the chat's end; otherwise a new session (with the same agent or another one) whose first
message carries the transcript the renderer made as hidden context, the one way every ACP agent can
be handed a conversation. Which chat came from which, and a transcript not sent yet, are remembered
in the data folder: a restart or an agent crash before the first message loses neither."""

from __future__ import annotations

import json
from collections.abc import Awaitable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from app.contract.branches import BranchOrigin, BranchRequest
from app.contract.envelopes import LoadResult
from app.contract.hidden_context import wrap as wrap_hidden

if TYPE_CHECKING:
    from app.contract.local_stores import StringStore
    from app.main.sessions.service import ChatService


class BranchHub(Protocol):
    """What the branches ask of the agent hub that holds them (`hub.py`)."""

    def agent_of(self, session_key: str) -> str: ...

    def label_of(self, session_key: str) -> str: ...

    def service(self, agent_id: str) -> ChatService: ...

    async def opened(self, session_key: str, opening: Awaitable[LoadResult]) -> LoadResult: ...

    async def new_session_with(self, agent_id: str, cwd: str | None = None) -> LoadResult: ...


MAX_REMEMBERED_BRANCHES = 1_000  # the oldest links are forgotten past it
PENDING = "pending"  # the transcript still to go with the chat's first message


def _origin(value: str) -> tuple[BranchOrigin, str] | None:
    """A stored link and its pending transcript; None for a value that is not one (a hand edit)."""
    try:
        record = json.loads(value) if value else None
        if not isinstance(record, dict):
            return None
        pending = str(record.pop(PENDING, "") or "")
        return BranchOrigin(**record), pending
    except (ValueError, TypeError):
        return None


class ChatBranches:
    """The branches of one agent hub, over a string store (None: nothing outlives the run)."""

    def __init__(self, hub: BranchHub, store: StringStore | None) -> None:
        self._hub = hub
        self._store = store
        self._run: dict[str, str] = {}  # when there is no store

    def _get(self, key: str) -> str:
        return self._store.get(key) if self._store is not None else self._run.get(key, "")

    def _set(self, key: str, value: str) -> None:
        if self._store is None:
            self._run[key] = value
            return
        self._store.set(key, value)
        links = [k for k, v in self._store.items().items() if v]
        for old in links[: max(0, len(links) - MAX_REMEMBERED_BRANCHES)]:
            self._store.set(old, "")

    async def branch(self, request: BranchRequest) -> LoadResult:
        hub = self._hub
        own = hub.agent_of(request.source_key)
        agent_id = request.agent_id or own
        forked = False
        if agent_id == own and request.at_end and await self._can_fork(own):
            forking = hub.service(own).opening.fork(request.source_key, request.cwd)
            result = await hub.opened(request.source_key, forking)
            forked = True
        else:
            result = await hub.new_session_with(agent_id, request.cwd)
        origin = BranchOrigin(
            source_key=request.source_key,
            source_title=request.source_title,
            message_id=request.message_id,
            source_agent=hub.label_of(request.source_key),
            forked=forked,
            handed_over=forked or not request.handover,
            exchanges=request.exchanges,
        )
        record: dict[str, Any] = asdict(origin)
        if not origin.handed_over:
            record[PENDING] = request.handover
        self._set(result.session_key, json.dumps(record))
        return result

    async def _can_fork(self, agent_id: str) -> bool:
        service = self._hub.service(agent_id)
        await service.connection.ensure_ready()
        info = service.connection.info
        return info is not None and info.supports("sessionCapabilities", "fork")

    def origin(self, session_key: str) -> BranchOrigin | None:
        found = _origin(self._get(session_key))
        return found[0] if found is not None else None

    def context(self, session_key: str) -> str | None:
        """The hidden block `session_key`'s next message is to carry: its transcript, if still due."""
        found = _origin(self._get(session_key))
        return wrap_hidden(found[1]).lstrip() if found is not None and found[1] else None

    def handed_over(self, session_key: str) -> None:
        """The chat's first message went to the agent: its transcript is not sent again."""
        found = _origin(self._get(session_key))
        if found is not None and found[1]:
            origin = BranchOrigin(**{**asdict(found[0]), "handed_over": True})
            self._set(session_key, json.dumps(asdict(origin)))
