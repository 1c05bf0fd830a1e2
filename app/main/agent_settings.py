"""The agents part of Settings: adding an agent (a name and a command line) and removing one the
config file lists. Each change is checked, written into the config file's "agents" (every other
entry and every field ClawQt does not edit kept), and an added agent is offered at once; a removed one
is no longer offered from the next start (its chats may still be open now)."""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Callable
from typing import Any

from app.main.agent_profiles import KEY, AgentProfile, slug
from app.main.settings_file import SettingsFile

MAX_NAME_CHARS = 60


class AgentSettings:
    """The `agent_settings` host part."""

    def __init__(
        self,
        settings: SettingsFile,
        configured: tuple[AgentProfile, ...] = (),
        offered: Callable[[], list[str]] = list,
        which: Callable[[str], str | None] = shutil.which,
    ) -> None:
        self._settings = settings
        self._configured = [agent.name for agent in configured]
        self._offered = offered  # the names offered now (a new agent may not take one)
        self._which = which
        self.on_added: Callable[[AgentProfile], None] | None = None  # the hub offers it at once

    def configured(self) -> list[str]:
        """The names of the agents the config file lists (the ones Settings may remove)."""
        return list(self._configured)

    async def add(self, name: str, command: str) -> str:
        """Add {"name", "command"} to the config's agents; "" when written, else why not (nothing is
        added when the name or the command cannot be used)."""
        name = name.strip()
        why = self._name_problem(name) or self._command_problem(command)
        if why:
            return f"The agent was not added: {why}."
        argv = tuple(shlex.split(command))
        profile = AgentProfile(slug(name), name, argv, "config", "added in Settings")
        if self.on_added is not None:
            self.on_added(profile)
        self._configured.append(name)

        def append(data: dict[str, Any]) -> None:
            agents = data.get(KEY)
            data[KEY] = [*(agents if isinstance(agents, list) else []), {"name": name, "command": command}]

        return await self._settings.update(append)

    async def remove(self, name: str) -> str:
        """Take the agent named `name` out of the config's agents (from the next start on)."""
        if name not in self._configured:
            return f"The agent {name!r} is not one your config file lists; nothing was changed."
        self._configured.remove(name)

        def drop(data: dict[str, Any]) -> None:
            agents = data.get(KEY)
            if isinstance(agents, list):
                data[KEY] = [a for a in agents if not (isinstance(a, dict) and a.get("name") == name)]

        return await self._settings.update(drop)

    def _name_problem(self, name: str) -> str:
        if not name:
            return "give it a name"
        if len(name) > MAX_NAME_CHARS:
            return f"its name must be at most {MAX_NAME_CHARS} characters"
        taken = {offered.casefold() for offered in [*self._offered(), *self._configured]}
        if name.casefold() in taken:
            return f'there is an agent named "{name}" already'
        return ""

    def _command_problem(self, command: str) -> str:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            return f"its command line cannot be read ({exc})"
        if not argv:
            return "give the command line that starts it"
        if self._which(argv[0]) is None:
            return f"there is no program {argv[0]!r} on your PATH"
        return ""
