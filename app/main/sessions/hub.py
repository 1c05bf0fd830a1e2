"""Several agents in one window: one chat service (one child process) per agent, started when a chat
first needs it and stopped once it has had no chat for a while. The hub is two host parts. As
`sessions` it is the chat service the renderer always knew: every call about a chat goes to that
chat's agent, and "the agent" (its info, label, state, sign-in) is the agent of the chat opened last;
the other agents' state and sign-in envelopes are held back until one of their chats is opened. As
`agents` it lists the agents, says which agent a chat belongs to and opens a new chat with a chosen
one. The user's choices per agent (the last used agent, its mode and model) and each chat's agent
are remembered in the data folder."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Unpack

from app.contract.agents import AgentsChangedEnvelope
from app.contract.elicitation import QuestionAction
from app.contract.envelopes import AgentInfo, Envelope, LoadResult, PromptResult, SessionPage
from app.contract.errors import SignInRequired
from app.contract.host_api import EnvelopeListener, PromptOptions
from app.main.agents.profiles import AgentProfile, primary_profile
from app.main.core.background_tasks import BackgroundTasks
from app.main.core.listeners import Listeners
from app.main.mcp_servers.agent import AgentMcpServers
from app.main.rules.book import AgentRules
from app.main.sessions.branching import ChatBranches
from app.main.sessions.chat_memory import MODE, MODEL, ChatMemory, model_option
from app.main.sessions.extras import HubPorts
from app.main.sessions.hub_agents import HubAgents
from app.main.sessions.hub_parts import AgentProposals, FilesByChat
from app.main.sessions.idle import IDLE_STOP_S, IdleStops
from app.main.sessions.listing import list_pages, listing_agents
from app.main.sessions.questions import UNKNOWN_QUESTION
from app.main.sessions.service import ChatService
from app.main.stores.projects import Projects

if TYPE_CHECKING:
    from app.contract.local_stores import StringStore
    from app.main.sessions.extras import SharedParts, ShareMaker

log = logging.getLogger(__name__)

AGENT_KINDS = frozenset({"agent_state", "sign_in", "sign_in_terminal"})  # about an agent, not a chat

ServiceFactory = Callable[[AgentProfile], ChatService]


class AgentHub(HubAgents):
    """The `sessions` and `agents` host parts over one `ChatService` per agent (the `agents` part
    in hub_agents.py)."""

    def __init__(
        self,
        profiles: Sequence[AgentProfile],
        make_service: ServiceFactory,
        *,
        first: str | None = None,
        remembered: StringStore | None = None,
        branches: StringStore | None = None,
        idle_stop_s: float = IDLE_STOP_S,
        share: ShareMaker | None = None,
        default_cwd: str = "",
    ) -> None:
        """`share` makes the parts every agent shares (`make_host`): made here, with the first agent's
        service for their folder, so the hub is whole once made."""
        if not profiles:
            raise ValueError("an agent hub needs at least one agent")
        self.profiles: dict[str, AgentProfile] = {p.id: p for p in profiles}
        self._make = make_service
        self.memory = ChatMemory(remembered, lambda agent_id: agent_id in self.profiles)
        self.branches = ChatBranches(self, branches)  # which chat continues which
        self._services: dict[str, ChatService] = {}
        self._owners: dict[str, str] = {}  # session key -> agent id (this run; `remembered` keeps them)
        self._envelopes = Listeners[Envelope](log, "envelope listener failed for %s", lambda e: e.kind)
        self.opened_chats = Listeners[LoadResult](log, "a chat opening listener failed")  # search reads them
        self.deleted_chats = Listeners[str](log, "a chat deletion listener failed")  # search forgets them
        self._held: dict[str, dict[str, Envelope]] = {}  # agent id -> kind -> its last agent envelope
        self._background = BackgroundTasks("agent hub work")
        self._idle = IdleStops(self._services, lambda: self._current, self._background, idle_stop_s)
        self.shared: SharedParts | None = None
        self.default_cwd = default_cwd
        self.projects = Projects()  # a `.clawqt.json` of the chat's folder (make_host reports its problems)
        self._folders: list[str] | None = None  # set when Settings changed the extra folders
        chosen = first if first in self.profiles else self.memory.last_used()
        self._current = chosen or next(iter(self.profiles))
        self._last_used = self._current
        if share is not None:
            workspace = self._current_service.default_cwd  # made now; its child starts later
            ports = (workspace, self.emit, self.label_of, self.session_workspace, self.turn_is_current)
            self.shared = share(HubPorts(*ports))
            for agent_id, service in self._services.items():
                self._extras(agent_id, service)

    @classmethod
    def single(cls, service: ChatService, **parts: Any) -> AgentHub:
        """The hub around one existing chat service (tests, `clawqt smoke`): it is the only agent;
        `parts`: the keywords `hub_parts` gives (the remembered chats, the branches, the shared parts)."""
        only = primary_profile(service.connection.command)
        return cls([only], lambda _profile: service, default_cwd=service.default_cwd, **parts)

    def _extras(self, agent_id: str, service: ChatService) -> None:
        service.opening.grants = service.files.grants = lambda cwd: self.projects.grants(cwd)
        if self.shared is not None:
            service.participation = self.shared.participation
            service.proposals = AgentProposals(self.shared.proposals, lambda: self._keys_of(agent_id))
            service.rules = AgentRules(self.shared.rules, agent_id)
            service.mcp_servers = AgentMcpServers(self.shared.mcp_servers, agent_id, self.emit)

    def set_additional_directories(self, folders: list[str]) -> None:
        """The extra folders every agent may use, changed in Settings: applied to each agent's service
        now and to the ones made later."""
        self._folders = list(folders)
        for service in self._services.values():
            service.set_additional_directories(self._folders)

    def add_profile(self, profile: AgentProfile) -> str:
        """An agent added in Settings, offered at once (under an id no other agent has)."""
        agent_id, number = profile.id, 1
        while agent_id in self.profiles:
            number += 1
            agent_id = f"{profile.id}-{number}"
        self.profiles[agent_id] = replace(profile, id=agent_id)
        self.emit(AgentsChangedEnvelope(agent_id))
        return agent_id

    # --- the services ---------------------------------------------------------------------------------
    def started(self, agent_id: str) -> ChatService | None:
        """The agent's chat service if one was made (its child may be starting, running or gone)."""
        return self._services.get(agent_id)

    def service(self, agent_id: str) -> ChatService:
        """The agent's chat service, made on first use (its child starts with its first request)."""
        service = self._services.get(agent_id)
        if service is None:
            profile = self.profiles[agent_id]
            service = self._services[agent_id] = self._make(profile)
            service.owns_extras = False  # the hub starts and stops them once for every agent
            service.machine.permissions.prefix = service.machine.questions.prefix = f"{agent_id}-"
            self._extras(agent_id, service)
            if self._folders is not None:
                service.set_additional_directories(self._folders)
            service.subscribe(lambda envelope: self._forward(agent_id, envelope))
            if not self.default_cwd:
                self.default_cwd = service.default_cwd
        return service

    @property
    def _current_service(self) -> ChatService:
        return self.service(self._current)

    def _owner(self, session_key: str) -> str:
        owner = self._owners.get(session_key) or self.memory.agent_of_chat(session_key)
        return owner or self._current

    def service_of(self, session_key: str) -> ChatService:
        """The chat service of the agent `session_key` belongs to."""
        return self.service(self._owner(session_key))

    def _keys_of(self, agent_id: str) -> list[str]:
        return [key for key, owner in self._owners.items() if owner == agent_id]

    def _own(self, session_key: str, agent_id: str) -> None:
        self._owners[session_key] = agent_id

    # --- envelopes ------------------------------------------------------------------------------------
    def subscribe(self, listener: EnvelopeListener) -> Callable[[], None]:
        return self._envelopes.subscribe(listener)

    def emit(self, envelope: Envelope) -> None:
        """Tell every subscriber (also for the parts the hub shares, like the proposals)."""
        self._envelopes.emit(envelope)  # a broken view must not break routing

    def _forward(self, agent_id: str, envelope: Envelope) -> None:
        if envelope.kind in AGENT_KINDS:
            self._held.setdefault(agent_id, {})[envelope.kind] = envelope
            if envelope.kind == "agent_state":
                self.emit(AgentsChangedEnvelope(agent_id))
            if agent_id != self._current:
                return  # shown when one of its chats is
        self.emit(envelope)
        if envelope.kind == "prompt_settled":
            self._idle.watch(agent_id)

    def _make_current(self, agent_id: str) -> None:
        if agent_id == self._current:
            return
        previous, self._current = self._current, agent_id
        for kind in ("agent_state", "sign_in"):  # the newly shown agent's own state, as it was
            held = self._held.get(agent_id, {}).get(kind)
            if held is not None:
                self.emit(held)
        self.emit(AgentsChangedEnvelope(agent_id))
        self._idle.cancel(agent_id)
        self._idle.watch(previous)

    # --- the `sessions` host part ----------------------------------------------------------------------
    async def new_session(self, cwd: str | None = None) -> LoadResult:
        """A new chat with the agent of the chat shown."""
        return await self.new_session_with(self._current, cwd)

    @property
    def agent_info(self) -> AgentInfo | None:
        service = self._services.get(self._current)
        return service.agent_info if service is not None else None

    @property
    def agent_label(self) -> str:
        return self._label(self._current)

    def label_of(self, session_key: str) -> str:  # the name of the agent a chat belongs to
        return self._label(self._owner(session_key))

    @property
    def last_active_key(self) -> str | None:
        return self._current_service.last_active_key

    async def start(self) -> AgentInfo:
        """The first agent (used last, or first offered) starts; the others wait for a chat's need."""
        if self.shared is not None:
            self._background.spawn(self.shared.proposals.start(), "proposals")
        return await self._current_service.start()

    async def shutdown(self) -> None:
        """Quit: every agent's process group is killed, then what they shared ends."""
        self._idle.close()
        await self._background.close()
        results = await asyncio.gather(
            *(service.shutdown() for service in self._services.values()), return_exceptions=True
        )
        for result in results:
            if isinstance(result, BaseException):
                log.error("an agent did not shut down cleanly", exc_info=result)
        if self.shared is not None:
            await self.shared.participation.stop()
            await self.shared.proposals.stop()

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        return await self.opened(session_key, self.service_of(session_key).load_session(session_key, cwd))

    async def resume_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        return await self.opened(session_key, self.service_of(session_key).resume_session(session_key, cwd))

    async def activate_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        service = self.service_of(session_key)
        return await self.opened(session_key, service.activate_session(session_key, cwd))

    async def opened(self, session_key: str, opening: Any) -> LoadResult:
        agent_id = self._owner(session_key)
        try:
            result: LoadResult = await opening
        except SignInRequired:
            self._make_current(agent_id)
            raise
        self._own(result.session_key, agent_id)
        self.opened_chats.emit(result)  # its history as the agent gave it (the search index reads it)
        if result.has_history:
            self.memory.remember_chat(result.session_key, agent_id)
        self._make_current(agent_id)
        return result

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage:
        """Every running agent's list, page by page (listing.py); agents not running are not
        started for it. Each chat listed is taken as its agent's."""
        page, owners = await list_pages(
            cursor,
            listing_agents(self._services),
            lambda agent_id, own: self.service(agent_id).list_sessions(own, cwd),
            self.memory,
            lambda agent_id: agent_id in self.profiles,
        )
        for agent_id, summary in owners:
            self._owners.setdefault(summary.session_key, agent_id)
        return page

    async def close_session(self, session_key: str) -> None:
        await self.service_of(session_key).close_session(session_key)
        self._forget_chat(session_key)

    async def delete_session(self, session_key: str) -> None:
        await self.service_of(session_key).delete_session(session_key)
        self._forget_chat(session_key)
        self.deleted_chats.emit(session_key)

    def _forget_chat(self, session_key: str) -> None:
        self._owners.pop(session_key, None)
        self.memory.forget_chat(session_key)

    def is_live(self, session_key: str) -> bool:
        service = self._services.get(self._owner(session_key))
        return service is not None and service.is_live(session_key)

    def shown_elsewhere(self, session_key: str) -> bool:
        service = self._services.get(self._owner(session_key))
        return service is not None and service.shown_elsewhere(session_key)

    def session_workspace(self, session_key: str, generation: int) -> str | None:
        service = self._services.get(self._owner(session_key))
        return service.session_workspace(session_key, generation) if service is not None else None

    async def prompt(self, session_key: str, text: str, **options: Unpack[PromptOptions]) -> PromptResult:
        agent_id = self._owner(session_key)
        self.memory.remember_chat(session_key, agent_id)
        context = self.branches.context(session_key)  # a branch's first message: its transcript too
        if context:
            options["context"] = context
        result = await self.service(agent_id).prompt(session_key, text, **options)
        self.branches.handed_over(session_key)
        return result

    async def cancel(self, session_key: str) -> bool:
        return await self.service_of(session_key).cancel(session_key)

    def answer_permission(self, request_id: str, option_id: str | None) -> bool:
        """Request ids carry their agent's prefix, so at most one agent knows each."""
        return any(s.answer_permission(request_id, option_id) for s in list(self._services.values()))

    def answer_question(
        self, request_id: str, action: QuestionAction, values: dict[str, Any]
    ) -> dict[str, str]:
        answers = (s.answer_question(request_id, action, values) for s in list(self._services.values()))
        return next((problems for problems in answers if problems != UNKNOWN_QUESTION), UNKNOWN_QUESTION)

    @property
    def pending_permissions(self) -> int:
        return sum(s.pending_permissions for s in self._services.values())

    async def set_mode(self, session_key: str, mode_id: str) -> None:
        agent_id = self._owner(session_key)
        await self.service(agent_id).set_mode(session_key, mode_id)
        self.memory.choose(agent_id, MODE, mode_id)  # the agent's next chats start in it

    async def set_config_option(
        self, session_key: str, config_id: str, value: str | bool
    ) -> tuple[dict[str, Any], ...]:
        agent_id = self._owner(session_key)
        options = await self.service(agent_id).set_config_option(session_key, config_id, value)
        model = model_option(options)
        if model is not None and model.get("id") == config_id and isinstance(value, str):
            self.memory.choose(agent_id, MODEL, value)
        return options

    # --- what the other host parts ask ----------------------------------------------------------------
    @property
    def files(self) -> FilesByChat:
        return FilesByChat(self)

    @property
    def current_service(self) -> ChatService:
        """The chat service of the agent shown (its sign-in, its command for the terminal access)."""
        return self._current_service

    def turn_is_current(self, session_key: str, generation: int, turn_id: str) -> bool:
        service = self._services.get(self._owner(session_key))
        live = service.machine.live.get(session_key) if service is not None else None
        return live is not None and live.generation == generation and live.client_message_id == turn_id
