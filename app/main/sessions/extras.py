"""What a chat service asks of the two parts every agent shares: the terminal access
(`participation/service.py`: the MCP servers a session is opened with, the hidden context of each of
the user's messages) and the terminal-action proposals (`proposals.py`: a channel per prompt, the
silent permission answer for the proposal CLI). Each chat service works without them (None).

The agent hub makes them while it is made (`ShareMaker`, given by `make_host`), handing them what they
may ask of it (`HubPorts`): they build on the hub and the hub on them, so neither is bound to the
other after it was made."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from app.contract.acp import SessionParams
from app.contract.envelopes import AgentInfo, Envelope
from app.contract.hidden_context import wrap as wrap_hidden
from app.main.mcp_servers.agent import AgentMcpServers
from app.main.mcp_servers.servers import McpServer, UserMcpServers
from app.main.rules.book import PermissionRules


class SessionExtras(Protocol):
    """What the chat service asks of the terminal access (`participation/service.py`)."""

    async def start(self) -> str | None: ...

    def start_on_first_call(self) -> None: ...

    def reserve(self) -> str | None: ...

    async def stop(self) -> None: ...

    def wanted_by(self, info: AgentInfo) -> bool: ...

    def mcp_servers(self, info: AgentInfo | None, open_id: str) -> list[dict[str, Any]]: ...

    def bind(self, open_id: str, session_key: str | None) -> None: ...

    def prompt_context(self, info: AgentInfo | None, session_key: str) -> str | None: ...

    def session_ended(self, session_key: str) -> None: ...


class ProposalsExtras(Protocol):
    """What the chat service asks of terminal-action proposals (`proposals.py`)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def prompt_context(self, session_key: str, generation: int, turn_id: str) -> str | None: ...

    def on_permission(
        self, session_key: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None: ...

    def stopped(self, session_key: str) -> None: ...

    def session_closed(self, session_key: str) -> None: ...

    def agent_gone(self) -> None: ...


class SharedProposals(ProposalsExtras, Protocol):
    """The proposals every agent shares (`proposals.py`): when one agent exits, only the cards of its
    own chats end."""

    def agent_gone(self, session_keys: Iterable[str] | None = None) -> None: ...


@dataclass(frozen=True)
class HubPorts:
    """What the shared parts may ask of the agent hub."""

    workspace: str  # the first agent's folder: the user's terminals never start outside it
    emit: Callable[[Envelope], None]  # to every view, as the hub's own envelopes
    label_of: Callable[[str], str]  # the name of a chat's agent
    session_workspace: Callable[[str, int], str | None]  # a chat's folder while open at a generation
    turn_is_current: Callable[[str, int, str], bool]  # whether a chat's turn is still the running one


class SharedParts(Protocol):
    """The parts every agent of a hub shares, made once for all of them."""

    @property
    def participation(self) -> SessionExtras: ...

    @property
    def proposals(self) -> SharedProposals: ...

    @property
    def rules(self) -> PermissionRules: ...

    @property
    def mcp_servers(self) -> UserMcpServers: ...


ShareMaker = Callable[[HubPorts], SharedParts]

Spawn = Callable[[Coroutine[Any, Any, Any], str], None]


class OpeningServers:
    """The MCP servers of one session/new|load|resume: offered with the request to an agent that takes
    them over HTTP, then bound to the session it opened, or let go when it opened none."""

    def __init__(
        self,
        participation: SessionExtras | None,
        info: AgentInfo | None,
        open_id: str,
        spawn: Spawn,
        user: AgentMcpServers | None = None,
    ) -> None:
        self._participation = participation
        self._info = info
        self._open_id = open_id  # unique across agents (one participation serves them all)
        self._spawn = spawn
        self._user = user  # the user's own servers (Settings > MCP servers)
        self._given: list[McpServer] = []
        self._cwd = ""

    def offer(self, params: SessionParams, project: tuple[dict[str, str], ...] = ()) -> None:
        """The servers given with the request: terminal access's, the user's own, and the ones the
        chat's project asks for that the user trusted (`project`: records as project_grants.py reads)."""
        participation, info = self._participation, self._info
        if participation is not None and info is not None and info.supports("mcpCapabilities", "http"):
            params["mcpServers"] = participation.mcp_servers(info, self._open_id)  # the address is bound
        if self._user is not None:
            own, self._given = self._user.params(info)
            params["mcpServers"] = [*params.get("mcpServers", []), *own]
            self._cwd = str(params.get("cwd") or "")
        for record in project:
            server = McpServer.read(record["name"], record)
            takes = server is not None and (
                server.transport == "stdio"
                or (info is not None and info.supports("mcpCapabilities", server.transport))
            )
            if server is not None and takes:
                params["mcpServers"] = [*params.get("mcpServers", []), server.params({})]
        if params.get("mcpServers") and participation is not None:
            # started by the agent's first connection (an agent that connects to the servers it was
            # given before it answers waits in the backlog while the server's modules load)
            participation.start_on_first_call()

    def opened(self, session_key: str | None) -> None:
        """The agent answered: the servers are bound to the session it opened (None: it opened none)."""
        participation, info = self._participation, self._info
        if self._user is not None and self._given and session_key is not None:  # said on the chat
            self._spawn(self._user.check(self._given, session_key, self._cwd), "mcp-servers")
        if participation is None:
            return
        participation.bind(self._open_id, session_key)
        if info is not None and participation.wanted_by(info):
            # an agent connected on its side wants the server too, once it calls
            participation.start_on_first_call()

    def failed(self) -> None:
        """The request failed: the servers' address is let go."""
        if self._participation is not None:
            self._participation.bind(self._open_id, None)


def hidden_blocks(
    participation: SessionExtras | None,
    proposals: ProposalsExtras | None,
    info: AgentInfo | None,
    key: tuple[str, int],
    message_id: str,
    context: str | None = None,
) -> list[dict[str, Any]]:
    """What the user's message carries for the agent only: `context` (a hidden block the hub adds: a
    branch's transcript), the terminal access's context (the one moment a capability is minted) and
    the prompt's proposal channel (the previous one superseded)."""
    session_key, generation = key
    blocks = [{"type": "text", "text": context}] if context else []
    if participation is not None:
        context = participation.prompt_context(info, session_key)
        if context:
            blocks.append({"type": "text", "text": context})
    if proposals is not None:
        proposal = proposals.prompt_context(session_key, generation, message_id)
        if proposal:
            blocks.append({"type": "text", "text": wrap_hidden(proposal)})
    return blocks


def _takes(info: AgentInfo | None, transport: str) -> bool:
    """Whether the agent takes a server of `transport`: stdio always (ACP requires it), http and sse
    when it declared them."""
    return transport == "stdio" or (info is not None and info.supports("mcpCapabilities", transport))
