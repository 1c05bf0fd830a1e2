"""The host parts the agent hub hands out over the agent a chat belongs to: the file changes by chat,
and the shared proposals as one agent's service sees them; `Agents` is what every hub part asks of
the hub."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from app.contract.envelopes import FileChangeView, ReviewFileView
from app.main.sessions.extras import SharedProposals

if TYPE_CHECKING:
    from app.main.sessions.service import ChatService


class Agents(Protocol):
    """What the parts ask of the hub (`hub.py`): the service of the agent shown, its name, and
    the service of the agent a chat belongs to."""

    @property
    def current_service(self) -> ChatService: ...

    @property
    def agent_label(self) -> str: ...

    def service_of(self, session_key: str) -> ChatService: ...


class FilesByChat:
    """The file-changes host part: each chat's changes are kept by its agent's service."""

    def __init__(self, hub: Agents) -> None:
        self._hub = hub

    def turns(self, session_key: str) -> list[str]:
        return self._hub.service_of(session_key).files.turns(session_key)

    def changes(self, session_key: str, turn_id: str) -> Any:
        return self._hub.service_of(session_key).files.changes(session_key, turn_id)

    def revert(self, session_key: str, turn_id: str, path: str) -> None:
        self._hub.service_of(session_key).files.revert(session_key, turn_id, path)

    def review(self, session_key: str, turn_id: str) -> list[ReviewFileView]:
        return self._hub.service_of(session_key).files.review(session_key, turn_id)

    def undo_hunk(self, session_key: str, turn_id: str, path: str, hunk_id: str) -> None:
        self._hub.service_of(session_key).files.undo_hunk(session_key, turn_id, path, hunk_id)

    def keep_hunks(self, session_key: str, turn_id: str, path: str, hunk_ids: list[str]) -> None:
        self._hub.service_of(session_key).files.keep_hunks(session_key, turn_id, path, hunk_ids)

    def undo_turn(self, session_key: str, turn_id: str) -> list[str]:
        return self._hub.service_of(session_key).files.undo_turn(session_key, turn_id)

    def outside(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        return self._hub.service_of(session_key).files.outside(session_key, turn_id)

    def outside_turns(self, session_key: str) -> list[str]:
        return self._hub.service_of(session_key).files.outside_turns(session_key)

    async def plan_restore(self, session_key: str, turn_id: str) -> list[FileChangeView]:
        return await self._hub.service_of(session_key).files.plan_restore(session_key, turn_id)

    def restore(self, session_key: str, turn_id: str) -> list[str]:
        return self._hub.service_of(session_key).files.restore(session_key, turn_id)


class AgentProposals:
    """The shared proposals as one agent's service sees them (`ProposalsExtras`): when that agent
    exits, only the cards of its own chats end; everything else is passed on as it is."""

    def __init__(self, proposals: SharedProposals, keys: Callable[[], list[str]]) -> None:
        self._proposals = proposals
        self._keys = keys

    async def start(self) -> None:
        await self._proposals.start()

    async def stop(self) -> None:
        await self._proposals.stop()

    def prompt_context(self, session_key: str, generation: int, turn_id: str) -> str | None:
        return self._proposals.prompt_context(session_key, generation, turn_id)

    def on_permission(
        self, session_key: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        return self._proposals.on_permission(session_key, tool_call, options)

    def stopped(self, session_key: str) -> None:
        self._proposals.stopped(session_key)

    def session_closed(self, session_key: str) -> None:
        self._proposals.session_closed(session_key)

    def agent_gone(self) -> None:
        self._proposals.agent_gone(self._keys())
