"""Several agents in one window: one chat service (one child process) per agent, started when a chat
first needs it and stopped once it has had no chat for a while.

The hub is two host parts. As `sessions` it is the chat service the renderer always knew: every call
about a chat goes to that chat's agent, and "the agent" (its info, label, state, sign-in) is the agent
of the chat opened last; the state and sign-in envelopes of the other agents are held back and shown
when one of their chats is opened. As `agents` it lists the agents, says which agent a chat belongs
to and opens a new chat with a chosen one. What the user chose per agent (the last used agent, the
mode and model picked last) and each chat's agent are remembered in the data folder."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from app.contract.agents import AgentChoice, AgentsChangedEnvelope, AgentTarget
from app.contract.envelopes import (
    AgentInfo,
    Envelope,
    LoadResult,
    PromptResult,
    SessionPage,
    SessionSummary,
)
from app.contract.errors import HostError, SignInRequired
from app.contract.protocol_log import InspectorPage, ReadTrace
from app.contract.sign_in import SignInEnvelope
from app.main.agent_profiles import AgentProfile, primary_profile
from app.main.background_tasks import BackgroundTasks
from app.main.chat_service import ChatService, Listener, PromptAttachment, ProposalsExtras
from app.main.listeners import Listeners
from app.main.openclaw_agents import service_targets
from app.main.protocol_log import ProtocolLog

if TYPE_CHECKING:
    from app.contract.local_stores import StringStore
    from app.main.chat_service import SessionExtras

log = logging.getLogger(__name__)

IDLE_STOP_S = 600.0  # an agent with no chat on screen, no turn and nothing asked is stopped after this
AGENT_KINDS = frozenset({"agent_state", "sign_in", "sign_in_terminal"})  # about an agent, not a chat
LAST_USED = "lastUsed"
CHAT = "chat:"  # + session key -> its agent id
MAX_REMEMBERED_CHATS = 1_000  # chats whose agent is remembered; the oldest are forgotten past it
MODE, MODEL = "mode", "model"

ServiceFactory = Callable[[AgentProfile], ChatService]


class SharedProposals(ProposalsExtras, Protocol):
    """The proposals every agent shares (`proposals.py`): when one agent exits, only the cards of its
    own chats end."""

    def agent_gone(self, session_keys: Iterable[str] | None = None) -> None: ...


class AgentHub:
    """The `sessions` and `agents` host parts over one `ChatService` per agent."""

    def __init__(
        self,
        profiles: Sequence[AgentProfile],
        make_service: ServiceFactory,
        *,
        first: str | None = None,
        remembered: StringStore | None = None,
        idle_stop_s: float = IDLE_STOP_S,
    ) -> None:
        if not profiles:
            raise ValueError("an agent hub needs at least one agent")
        self.profiles: dict[str, AgentProfile] = {p.id: p for p in profiles}
        self._make = make_service
        self._remembered = remembered
        self.idle_stop_s = idle_stop_s
        self._services: dict[str, ChatService] = {}
        self._owners: dict[str, str] = {}  # session key -> agent id (this run; `remembered` keeps them)
        self._envelopes: Listeners[Envelope] = Listeners(
            log, "envelope listener failed for %s", lambda envelope: envelope.kind
        )
        self._held: dict[str, dict[str, Envelope]] = {}  # agent id -> kind -> its last agent envelope
        self._idle_timers: dict[str, asyncio.TimerHandle] = {}
        self._background = BackgroundTasks("agent hub work")
        self.participation: SessionExtras | None = None
        self.proposals: SharedProposals | None = None
        self.default_cwd = ""
        self._folders: list[str] | None = None  # set when Settings changed the extra folders
        self._chosen_first = first in self.profiles
        chosen = first if first in self.profiles else self._remembered_agent(LAST_USED)
        self._current = chosen or next(iter(self.profiles))
        self._last_used = self._current

    @classmethod
    def single(cls, service: ChatService, remembered: StringStore | None = None) -> AgentHub:
        """The hub around one existing chat service (tests, `clawqt smoke`): it is the only agent."""
        only = primary_profile(service.connection.command)
        hub = cls([only], lambda _profile: service, remembered=remembered)
        hub.default_cwd = service.default_cwd
        return hub

    def attach(self, participation: SessionExtras | None, proposals: SharedProposals | None) -> None:
        """The terminal access and proposals every agent shares (`make_host`)."""
        self.participation, self.proposals = participation, proposals
        for agent_id, service in self._services.items():
            self._extras(agent_id, service)

    def remember_in(self, store: StringStore) -> None:
        """Where the chats' agents and the user's choices per agent are kept; before any agent was
        used, the one used last becomes the first."""
        self._remembered = store
        if not self._chosen_first and not self._services:
            self._current = self._last_used = self._remembered_agent(LAST_USED) or self._current

    def _extras(self, agent_id: str, service: ChatService) -> None:
        service.participation = self.participation
        if self.proposals is not None:
            service.proposals = _AgentProposals(self.proposals, lambda: self._keys_of(agent_id))

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
        self._emit(AgentsChangedEnvelope(agent_id))
        return agent_id

    # --- the services ---------------------------------------------------------------------------------
    def service(self, agent_id: str) -> ChatService:
        """The agent's chat service, made on first use (its child starts with its first request)."""
        service = self._services.get(agent_id)
        if service is None:
            profile = self.profiles[agent_id]
            service = self._services[agent_id] = self._make(profile)
            service.owns_extras = False  # the hub starts and stops them once for every agent
            service.machine.permissions.prefix = f"{agent_id}-"
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
        owner = self._owners.get(session_key) or self._remembered_agent(CHAT + session_key)
        return owner or self._current

    def _service_of(self, session_key: str) -> ChatService:
        return self.service(self._owner(session_key))

    def _keys_of(self, agent_id: str) -> list[str]:
        return [key for key, owner in self._owners.items() if owner == agent_id]

    def _remembered_agent(self, key: str) -> str | None:
        value = self._remembered.get(key) if self._remembered is not None else ""
        return value if value in self.profiles else None

    def _remember(self, key: str, value: str) -> None:
        if self._remembered is not None and self._remembered.get(key) != value:
            self._remembered.set(key, value)

    def _own(self, session_key: str, agent_id: str) -> None:
        self._owners[session_key] = agent_id

    def _remember_chat(self, session_key: str, agent_id: str) -> None:
        """A chat with a message (sent here, or loaded with its history) is listed under its agent in
        later runs too, also while that agent is not running."""
        if self._remembered is None or self._remembered.get(CHAT + session_key) == agent_id:
            return
        self._remembered.set(CHAT + session_key, agent_id)
        chats = [key for key in self._remembered.items() if key.startswith(CHAT)]
        for key in chats[: max(0, len(chats) - MAX_REMEMBERED_CHATS)]:
            self._remembered.set(key, "")  # the oldest first

    # --- envelopes ------------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._envelopes.subscribe(listener)

    def _emit(self, envelope: Envelope) -> None:
        self._envelopes.emit(envelope)  # a broken view must not break routing

    def _forward(self, agent_id: str, envelope: Envelope) -> None:
        if envelope.kind in AGENT_KINDS:
            self._held.setdefault(agent_id, {})[envelope.kind] = envelope
            if envelope.kind == "agent_state":
                self._emit(AgentsChangedEnvelope(agent_id))
            if agent_id != self._current:
                return  # shown when one of its chats is
        self._emit(envelope)
        if envelope.kind == "prompt_settled":
            self._watch_idle(agent_id)

    def _make_current(self, agent_id: str) -> None:
        if agent_id == self._current:
            return
        previous, self._current = self._current, agent_id
        for kind in ("agent_state", "sign_in"):  # the newly shown agent's own state, as it was
            held = self._held.get(agent_id, {}).get(kind)
            if held is not None:
                self._emit(held)
        self._emit(AgentsChangedEnvelope(agent_id))
        self._cancel_idle(agent_id)
        self._watch_idle(previous)

    # --- stopping agents no chat needs ----------------------------------------------------------------
    def _watch_idle(self, agent_id: str) -> None:
        """Stop `agent_id` after `idle_stop_s` if by then it still has no chat on screen and nothing
        running or asked."""
        if agent_id == self._current or agent_id not in self._services:
            return
        self._cancel_idle(agent_id)
        loop = asyncio.get_running_loop()
        self._idle_timers[agent_id] = loop.call_later(self.idle_stop_s, self._idle_expired, agent_id)

    def _cancel_idle(self, agent_id: str) -> None:
        timer = self._idle_timers.pop(agent_id, None)
        if timer is not None:
            timer.cancel()

    def _idle_expired(self, agent_id: str) -> None:
        self._idle_timers.pop(agent_id, None)
        service = self._services.get(agent_id)
        if agent_id == self._current or service is None or not service.connection.is_ready:
            return
        if not service.idle:
            self._watch_idle(agent_id)  # a turn or a question still runs: look again later
            return
        minutes = max(1, round(self.idle_stop_s / 60))
        why = f"stopped: no chat needed it for {minutes} min; it starts again when one does"
        self._background.spawn(service.park(why), f"park-{agent_id}")

    # --- the `agents` host part ------------------------------------------------------------------------
    def choices(self) -> list[AgentChoice]:
        choices = []
        for agent_id, profile in self.profiles.items():
            service = self._services.get(agent_id)
            info = service.agent_info if service is not None else None
            state = service.connection.state if service is not None else "idle"
            choices.append(
                AgentChoice(
                    agent_id,
                    (info.title or info.name) if info is not None else profile.name,
                    profile.display,
                    profile.source,
                    profile.reason,
                    "stopped" if state == "idle" else state,  # type: ignore[arg-type]
                    profile.name,
                )
            )
        return choices

    @property
    def current(self) -> str:
        return self._current

    @property
    def last_used(self) -> str:
        return self._last_used

    def agent_of(self, session_key: str) -> str:
        return self._owners.get(session_key) or self._remembered_agent(CHAT + session_key) or ""

    async def new_session(self, cwd: str | None = None) -> LoadResult:
        """A new chat with the agent of the chat shown."""
        return await self.new_session_with(self._current, cwd)

    async def new_session_with(self, agent_id: str, cwd: str | None = None, target: str = "") -> LoadResult:
        """A new chat with that agent; `target`: one of its own agents (`targets`), "" for its default."""
        if agent_id not in self.profiles:
            raise HostError(f"There is no agent {agent_id!r} to start a chat with.", code="unknown-agent")
        profile = self.profiles[agent_id]
        service = self.service(agent_id)
        try:
            result = await service.new_session(cwd or profile.cwd, target)
        except SignInRequired:
            self._make_current(agent_id)  # its sign-in panel is what the user sees now
            raise
        self._own(result.session_key, agent_id)
        self._make_current(agent_id)
        self._remember(LAST_USED, agent_id)  # what the next run starts with
        if self._last_used != agent_id:
            self._last_used = agent_id
            self._emit(AgentsChangedEnvelope(agent_id))
        return await self._apply_defaults(agent_id, service, result)

    async def targets(self, agent_id: str) -> list[AgentTarget]:
        """The agents behind a running gateway agent a new chat may go to (openclaw_agents.py); [] for
        an agent that has none or is not running (it is not started just to ask)."""
        service = self._services.get(agent_id)
        return await service_targets(service) if service is not None else []

    async def _apply_defaults(self, agent_id: str, service: ChatService, result: LoadResult) -> LoadResult:
        """The agent's mode and model for new chats: what the user picked last for it, else the
        config's `defaultMode`/`defaultModel`. One the session does not offer is left alone."""
        profile = self.profiles[agent_id]
        mode = self._remembered_value(agent_id, MODE) or profile.default_mode
        modes = result.modes or {}
        offered = {m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)}
        if mode and mode in offered and modes.get("currentModeId") != mode:
            with contextlib.suppress(HostError):
                await service.set_mode(result.session_key, mode)
                result = replace(result, modes={**modes, "currentModeId": mode})
        model = self._remembered_value(agent_id, MODEL) or profile.default_model
        option = _model_option(result.config_options)
        if model and option is not None and option.get("currentValue") != model:
            values = {o.get("value") for o in option.get("options") or [] if isinstance(o, dict)}
            if model in values:
                with contextlib.suppress(HostError):
                    options = await service.set_config_option(result.session_key, option["id"], model)
                    result = replace(result, config_options=options or result.config_options)
        return result

    def _remembered_value(self, agent_id: str, what: str) -> str:
        return self._remembered.get(f"{agent_id}.{what}") if self._remembered is not None else ""

    # --- the `sessions` host part ----------------------------------------------------------------------
    @property
    def agent_info(self) -> AgentInfo | None:
        service = self._services.get(self._current)
        return service.agent_info if service is not None else None

    @property
    def agent_label(self) -> str:
        service = self._services.get(self._current)
        info = service.agent_info if service is not None else None
        return (info.title or info.name) if info is not None else self.profiles[self._current].name

    def label_of(self, session_key: str) -> str:
        """The name of the agent a chat belongs to (its own name once it said it)."""
        agent_id = self._owner(session_key)
        service = self._services.get(agent_id)
        info = service.agent_info if service is not None else None
        return (info.title or info.name) if info is not None else self.profiles[agent_id].name

    @property
    def last_active_key(self) -> str | None:
        return self._current_service.last_active_key

    async def start(self) -> AgentInfo:
        """The first agent (the one used last, or the first offered) starts; the others wait for a
        chat that needs them."""
        if self.proposals is not None:
            self._background.spawn(self.proposals.start(), "proposals")
        return await self._current_service.start()

    async def shutdown(self) -> None:
        """Quit: every agent's process group is killed, then what they shared ends."""
        for timer in self._idle_timers.values():
            timer.cancel()
        self._idle_timers.clear()
        await self._background.close()
        results = await asyncio.gather(
            *(service.shutdown() for service in self._services.values()), return_exceptions=True
        )
        for result in results:
            if isinstance(result, BaseException):
                log.error("an agent did not shut down cleanly", exc_info=result)
        if self.participation is not None:
            await self.participation.stop()
        if self.proposals is not None:
            await self.proposals.stop()

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        return await self._opened(session_key, self._service_of(session_key).load_session(session_key, cwd))

    async def resume_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        return await self._opened(session_key, self._service_of(session_key).resume_session(session_key, cwd))

    async def activate_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        service = self._service_of(session_key)
        return await self._opened(session_key, service.activate_session(session_key, cwd))

    async def _opened(self, session_key: str, opening: Any) -> LoadResult:
        agent_id = self._owner(session_key)
        try:
            result: LoadResult = await opening
        except SignInRequired:
            self._make_current(agent_id)
            raise
        self._own(result.session_key, agent_id)
        if result.has_history:
            self._remember_chat(result.session_key, agent_id)
        self._make_current(agent_id)
        return result

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage:
        """The first page of every running agent that lists its sessions (agents not running are not
        started for it); then, page by page, the rest of each. The cursor holds what each agent has
        left. Each chat listed is remembered as its agent's."""
        if cursor is None:
            pending = [(agent_id, None) for agent_id in self._listing_agents()]
        else:
            try:
                pending = [(str(a), c if isinstance(c, str) else None) for a, c in json.loads(cursor)]
            except (ValueError, TypeError) as exc:
                raise HostError("That list of sessions cannot be continued.", code="bad-cursor") from exc
            pending = [(a, c) for a, c in pending if a in self.profiles]
        sessions: list[SessionSummary] = []
        left: list[tuple[str, str | None]] = []
        for index, (agent_id, own_cursor) in enumerate(pending):
            if cursor is not None and index > 0:
                left.append((agent_id, own_cursor))  # one more page at a time
                continue
            page = await self.service(agent_id).list_sessions(own_cursor, cwd)
            for summary in page.sessions:
                self._owners.setdefault(summary.session_key, agent_id)
            sessions.extend(page.sessions)
            if page.next_cursor:
                left.append((agent_id, page.next_cursor))
        if cursor is None:
            sessions.sort(key=lambda s: s.updated_at or "", reverse=True)
            listed = {agent_id for agent_id, _ in pending}
            sessions += self._remembered_chats(exclude=listed, known={s.session_key for s in sessions})
        return SessionPage(tuple(sessions), json.dumps(left) if left else None)

    def _remembered_chats(self, exclude: set[str], known: set[str]) -> list[SessionSummary]:
        """Chats remembered from earlier runs whose agent was not asked for its list (not running, or
        it cannot list): listed newest first, opened by starting their agent and loading them."""
        if self._remembered is None:
            return []
        chats = []
        for key, agent_id in reversed(self._remembered.items().items()):
            session_key = key.removeprefix(CHAT)
            wanted = key.startswith(CHAT) and agent_id in self.profiles and agent_id not in exclude
            if wanted and session_key not in known:
                chats.append(SessionSummary(session_key, None, None, None, {"clawqtRemembered": True}))
        return chats

    def _listing_agents(self) -> list[str]:
        """The running agents that list sessions (listing never starts or restarts one)."""
        agents = []
        for agent_id, service in self._services.items():
            info = service.agent_info
            if (
                service.connection.is_ready
                and info is not None
                and info.supports("sessionCapabilities", "list")
            ):
                agents.append(agent_id)
        return agents

    async def close_session(self, session_key: str) -> None:
        await self._service_of(session_key).close_session(session_key)
        self._forget_chat(session_key)

    async def delete_session(self, session_key: str) -> None:
        await self._service_of(session_key).delete_session(session_key)
        self._forget_chat(session_key)

    def _forget_chat(self, session_key: str) -> None:
        self._owners.pop(session_key, None)
        self._remember(CHAT + session_key, "")

    def is_live(self, session_key: str) -> bool:
        service = self._services.get(self._owner(session_key))
        return service is not None and service.is_live(session_key)

    def session_workspace(self, session_key: str, generation: int) -> str | None:
        service = self._services.get(self._owner(session_key))
        return service.session_workspace(session_key, generation) if service is not None else None

    async def prompt(
        self,
        session_key: str,
        text: str,
        attachments: tuple[PromptAttachment, ...] = (),
        client_message_id: str | None = None,
        cwd: str | None = None,
    ) -> PromptResult:
        agent_id = self._owner(session_key)
        self._remember_chat(session_key, agent_id)
        return await self.service(agent_id).prompt(session_key, text, attachments, client_message_id, cwd)

    async def cancel(self, session_key: str) -> bool:
        return await self._service_of(session_key).cancel(session_key)

    def answer_permission(self, request_id: str, option_id: str | None) -> bool:
        """Request ids carry their agent's prefix, so at most one agent knows each."""
        return any(s.answer_permission(request_id, option_id) for s in list(self._services.values()))

    @property
    def pending_permissions(self) -> int:
        return sum(s.pending_permissions for s in self._services.values())

    async def set_mode(self, session_key: str, mode_id: str) -> None:
        agent_id = self._owner(session_key)
        await self.service(agent_id).set_mode(session_key, mode_id)
        self._remember(f"{agent_id}.{MODE}", mode_id)  # the agent's next chats start in it

    async def set_config_option(
        self, session_key: str, config_id: str, value: str | bool
    ) -> tuple[dict[str, Any], ...]:
        agent_id = self._owner(session_key)
        options = await self.service(agent_id).set_config_option(session_key, config_id, value)
        model = _model_option(options)
        if model is not None and model.get("id") == config_id and isinstance(value, str):
            self._remember(f"{agent_id}.{MODEL}", value)
        return options

    # --- what the other host parts ask ----------------------------------------------------------------
    @property
    def files(self) -> _FilesByChat:
        return _FilesByChat(self)

    @property
    def current_service(self) -> ChatService:
        """The chat service of the agent shown (its sign-in, its command for the terminal access)."""
        return self._current_service

    def turn_is_current(self, session_key: str, generation: int, turn_id: str) -> bool:
        service = self._services.get(self._owner(session_key))
        live = service.machine.live.get(session_key) if service is not None else None
        return live is not None and live.generation == generation and live.client_message_id == turn_id


def _model_option(options: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The session's model choice among its config options (category "model"), if it offers one."""
    return next((o for o in options if o.get("category") == "model" and o.get("type") == "select"), None)


class InspectorOfCurrent:
    """The inspector host part: the protocol log of the agent chats are with now (each agent keeps its
    own; switching agents shows the other's)."""

    def __init__(self, hub: AgentHub) -> None:
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

    def __init__(self, hub: AgentHub) -> None:
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


class _FilesByChat:
    """The file-changes host part: each chat's changes are kept by its agent's service."""

    def __init__(self, hub: AgentHub) -> None:
        self._hub = hub

    def turns(self, session_key: str) -> list[str]:
        return self._hub._service_of(session_key).files.turns(session_key)

    def changes(self, session_key: str, turn_id: str) -> Any:
        return self._hub._service_of(session_key).files.changes(session_key, turn_id)

    def revert(self, session_key: str, turn_id: str, path: str) -> None:
        self._hub._service_of(session_key).files.revert(session_key, turn_id, path)


class _AgentProposals:
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
