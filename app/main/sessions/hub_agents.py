"""The hub's `agents` host part (hub.py's AgentHub is one): the agents offered and their state, which
agent a chat belongs to, the agent a new chat starts with (its folder's project's, else the one used
last), a new chat with a chosen agent in its project's mode and model, and a gateway agent's targets."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from app.contract.agents import AgentChoice, AgentsChangedEnvelope, AgentTarget
from app.contract.envelopes import Envelope, LoadResult, run_state
from app.contract.errors import HostError, SignInRequired
from app.main.agents.profiles import AgentProfile
from app.main.openclaw.agents import service_targets
from app.main.sessions.chat_memory import ChatMemory
from app.main.stores.projects import Projects

if TYPE_CHECKING:
    from app.main.sessions.service import ChatService


class HubAgents:
    """What the hub keeps that this part reads (made by AgentHub.__init__)."""

    profiles: dict[str, AgentProfile]
    _services: dict[str, ChatService]
    _owners: dict[str, str]
    _current: str
    _last_used: str
    memory: ChatMemory
    projects: Projects
    default_cwd: str | None

    def service(self, agent_id: str) -> ChatService:
        raise NotImplementedError

    def emit(self, envelope: Envelope) -> None:
        raise NotImplementedError

    def _own(self, session_key: str, agent_id: str) -> None:
        raise NotImplementedError

    def _make_current(self, agent_id: str) -> None:
        raise NotImplementedError

    def choices(self) -> list[AgentChoice]:
        choices = []
        for agent_id, profile in self.profiles.items():
            service = self._services.get(agent_id)
            state = run_state(service.connection.state) if service is not None else "stopped"
            row = (profile.display, profile.source, profile.reason, state, profile.name)
            choices.append(AgentChoice(agent_id, self._label(agent_id), *row))
        return choices

    def choice_names(self) -> list[str]:  # the names of the agents offered now (a new one may not take one)
        return [choice.name for choice in self.choices()]

    def _label(self, agent_id: str) -> str:
        """The agent's own name once it said it, else its configured one."""
        service = self._services.get(agent_id)
        info = service.agent_info if service is not None else None
        return (info.title or info.name) if info is not None else self.profiles[agent_id].name

    @property
    def current(self) -> str:
        return self._current

    @property
    def last_used(self) -> str:
        return self._last_used

    def agent_of(self, session_key: str) -> str:
        return self._owners.get(session_key) or self.memory.agent_of_chat(session_key) or ""

    def agent_for_new_chat(self, cwd: str = "") -> str:
        """The agent a new chat starts with when the user names none: the one its folder's project
        settings name (one of the agents offered), else the one the user made a chat with last."""
        offered = {a: (a, p.name, self._label(a)) for a, p in self.profiles.items()}
        return self.projects.agent_for(cwd or self.default_cwd or os.getcwd(), offered) or self._last_used

    def project_settings(self, cwd: str = "") -> dict[str, str] | None:
        return self.projects.shown(cwd or self.default_cwd or os.getcwd())

    def trust_project(self, cwd: str, trusted: bool) -> str:
        return self.projects.set_trusted(cwd or self.default_cwd or os.getcwd(), trusted)

    async def new_session_with(self, agent_id: str, cwd: str | None = None, target: str = "") -> LoadResult:
        """A new chat with that agent; `target`: one of its own agents (`targets`), "" for its default."""
        if agent_id not in self.profiles:
            raise HostError(f"There is no agent {agent_id!r} to start a chat with.", code="unknown-agent")
        profile = self.profiles[agent_id]
        service = self.service(agent_id)
        folder = cwd or profile.cwd
        try:
            result = await service.new_session(folder, target)
        except SignInRequired:
            self._make_current(agent_id)  # its sign-in panel is what the user sees now
            raise
        self._own(result.session_key, agent_id)
        self._make_current(agent_id)
        self.memory.use(agent_id)  # what the next run starts with
        if self._last_used != agent_id:
            self._last_used = agent_id
            self.emit(AgentsChangedEnvelope(agent_id))
        project = self.projects.of(result.cwd or folder or self.default_cwd or os.getcwd())
        return await self.memory.apply_defaults(agent_id, profile, service, result, project)

    async def targets(self, agent_id: str) -> list[AgentTarget]:
        """The agents behind a running gateway agent a new chat may go to ([]: none, or not running)."""
        service = self._services.get(agent_id)
        return await service_targets(service) if service is not None else []
