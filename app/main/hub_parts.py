"""The host parts the agent hub hands out, each over the agent whose chat is shown or the agent a
chat belongs to: the inspector (that agent's protocol log), the sign-in, the file changes by chat, and
the shared proposals as one agent's service sees them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from app.contract.protocol_log import InspectorPage, ReadTrace
from app.contract.sign_in import SignInEnvelope
from app.main.session_extras import SharedProposals

if TYPE_CHECKING:
    from app.main.chat_service import ChatService
    from app.main.protocol_log import ProtocolLog


class Agents(Protocol):
    """What the parts ask of the hub (`agent_hub.py`): the service of the agent shown, its name, and
    the service of the agent a chat belongs to."""

    @property
    def current_service(self) -> ChatService: ...

    @property
    def agent_label(self) -> str: ...

    def service_of(self, session_key: str) -> ChatService: ...


class InspectorOfCurrent:
    """The inspector host part: the protocol log of the agent chats are with now (each agent keeps its
    own; switching agents shows the other's)."""

    def __init__(self, hub: Agents) -> None:
        self._hub = hub
        self._watched = False

    @property
    def _log(self) -> ProtocolLog:
        log = self._hub.current_service.protocol_log
        if log.watched != self._watched:  # chats moved to another agent while the inspector is open
            log.watch(self._watched)
        return log

    def read(self, after: int) -> InspectorPage:
        return self._log.read(self._hub.agent_label, after)

    def text(self, seq: int, pretty: bool = False) -> str:
        return self._log.text(seq, pretty)

    async def save_trace(self, path: str) -> int:
        return await self._log.save_trace(path)

    async def open_trace(self, path: str) -> ReadTrace:
        from app.main.trace_opening import open_trace  # the replay's modules load when first used

        return await open_trace(path)

    def clear(self) -> None:
        self._log.clear()

    def watch(self, watched: bool) -> None:
        self._watched = watched
        self._log.watch(watched)


class SignInOfShown:
    """The sign-in host part: the sign-in of the agent whose chat is shown (each agent signs in on
    its own; the others' panels wait until one of their chats is opened)."""

    def __init__(self, hub: Agents) -> None:
        self._hub = hub

    @property
    def _shown(self) -> Any:
        return self._hub.current_service.sign_in

    @property
    def state(self) -> SignInEnvelope | None:
        return self._shown.state

    async def authenticate(self, method_id: str) -> bool:
        return await self._shown.authenticate(method_id)

    async def use_env(self, method_id: str, values: dict[str, str]) -> bool:
        return await self._shown.use_env(method_id, values)

    async def start_terminal(self, method_id: str) -> None:
        await self._shown.start_terminal(method_id)

    def terminal_input(self, text: str) -> None:
        self._shown.terminal_input(text)

    async def retry(self) -> bool:
        return await self._shown.retry()

    def stop_terminal(self) -> None:
        self._shown.stop_terminal()


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
