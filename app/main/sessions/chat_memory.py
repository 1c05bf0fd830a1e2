"""What the agent hub remembers between runs in the data folder: the agent each chat belongs to (a chat
is listed under its agent in later runs, also while that agent is not running), the agent used last
(the next run starts with it), and the mode and model the user picked last for each agent (its new
chats start in them, else in the config's `defaultMode`/`defaultModel`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from app.contract.envelopes import LoadResult, SessionSummary
from app.contract.errors import HostError

if TYPE_CHECKING:
    from app.contract.local_stores import StringStore
    from app.main.agents.profiles import AgentProfile
    from app.main.sessions.service import ChatService
    from app.main.stores.projects import Project

LAST_USED = "lastUsed"
CHAT = "chat:"  # + session key -> its agent id
MAX_REMEMBERED_CHATS = 1_000  # chats whose agent is remembered; the oldest are forgotten past it
MODE, MODEL = "mode", "model"


class ChatMemory:
    """The hub's remembered choices over a string store (None: nothing is remembered)."""

    def __init__(self, store: StringStore | None, known: Callable[[str], bool]) -> None:
        self.store = store
        self._known = known  # whether an agent id is one of the hub's agents now

    def _agent(self, key: str) -> str | None:
        value = self.store.get(key) if self.store is not None else ""
        return value if self._known(value) else None

    def _set(self, key: str, value: str) -> None:
        if self.store is not None and self.store.get(key) != value:
            self.store.set(key, value)

    def last_used(self) -> str | None:
        return self._agent(LAST_USED)

    def use(self, agent_id: str) -> None:
        """`agent_id` started a chat: the next run starts with it."""
        self._set(LAST_USED, agent_id)

    def agent_of_chat(self, session_key: str) -> str | None:
        return self._agent(CHAT + session_key)

    def remember_chat(self, session_key: str, agent_id: str) -> None:
        """A chat with a message (sent, or loaded with its history) stays its agent's in later runs;
        past MAX_REMEMBERED_CHATS the oldest are forgotten."""
        if self.store is None or self.store.get(CHAT + session_key) == agent_id:
            return
        self.store.set(CHAT + session_key, agent_id)
        chats = [key for key in self.store.items() if key.startswith(CHAT)]
        for key in chats[: max(0, len(chats) - MAX_REMEMBERED_CHATS)]:
            self.store.set(key, "")  # the oldest first

    def forget_chat(self, session_key: str) -> None:
        self._set(CHAT + session_key, "")

    def choice(self, agent_id: str, what: str) -> str:
        """The `MODE` or `MODEL` the user picked last for `agent_id` ("" when none)."""
        return self.store.get(f"{agent_id}.{what}") if self.store is not None else ""

    def choose(self, agent_id: str, what: str, value: str) -> None:
        self._set(f"{agent_id}.{what}", value)

    def chats(self, exclude: set[str], known: set[str]) -> list[SessionSummary]:
        """Chats remembered from earlier runs whose agent was not asked for its list (not running, or
        it cannot list), newest first: opened by starting their agent and loading them."""
        if self.store is None:
            return []
        chats = []
        for key, agent_id in reversed(self.store.items().items()):
            session_key = key.removeprefix(CHAT)
            wanted = key.startswith(CHAT) and self._known(agent_id) and agent_id not in exclude
            if wanted and session_key not in known:
                chats.append(SessionSummary(session_key, None, None, None, {"clawqtRemembered": True}))
        return chats

    async def apply_defaults(
        self,
        agent_id: str,
        profile: AgentProfile,
        service: ChatService,
        result: LoadResult,
        project: Project | None = None,
    ) -> LoadResult:
        """A new chat of `agent_id` in the mode and model its folder's project settings name, else the
        ones the user picked last for it, else the config's defaults. One the session does not offer
        is left alone."""
        mode = (project.mode if project else "") or self.choice(agent_id, MODE) or profile.default_mode
        modes = result.modes or {}
        offered = {m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)}
        if mode and mode in offered and modes.get("currentModeId") != mode:
            with contextlib.suppress(HostError):
                await service.set_mode(result.session_key, mode)
                result = replace(result, modes={**modes, "currentModeId": mode})
        model = (project.model if project else "") or self.choice(agent_id, MODEL) or profile.default_model
        option = model_option(result.config_options)
        if model and option is not None and option.get("currentValue") != model:
            values = {o.get("value") for o in option.get("options") or [] if isinstance(o, dict)}
            if model in values:
                with contextlib.suppress(HostError):
                    options = await service.set_config_option(result.session_key, option["id"], model)
                    result = replace(result, config_options=options or result.config_options)
        return result


def model_option(options: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The session's model choice among its config options (category "model"), if it offers one."""
    return next((o for o in options if o.get("category") == "model" and o.get("type") == "select"), None)
