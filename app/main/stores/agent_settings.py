"""The agents part of Settings: adding an agent (a name, a command line and optionally its folder and
environment), showing and editing the details of one the config file lists, and removing one. Each
change is checked, written into the config file's "agents" (every other entry and every field ClawQt does
not edit kept), and an added agent is offered at once; an edited one starts with its new details from the
next start (the running agent keeps its process); a removed one is no longer offered from the next start
(its chats may still be open now)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.contract.registry import Catalog, InstalledAgent
from app.main.agents.installs import Installs
from app.main.agents.profiles import KEY, AgentProfile, slug
from app.main.agents.registry import Registry
from app.main.core.json_files import parse_object
from app.main.core.paths import shown
from app.main.files.regular_files import read_user_file
from app.main.stores.settings_file import SettingsFile

MAX_NAME_CHARS = 60
VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _NotInFile(Exception):
    """The entry to edit is no longer in the config file (nothing is written then)."""


class AgentSettings:
    """The `agent_settings` host part."""

    def __init__(
        self,
        settings: SettingsFile,
        configured: tuple[AgentProfile, ...] = (),
        offered: Callable[[], list[str]] = list,
        which: Callable[[str], str | None] = shutil.which,
        on_added: Callable[[AgentProfile], object] | None = None,
    ) -> None:
        self._settings = settings
        self._configured = [agent.name for agent in configured]
        self._offered = offered  # the names offered now (a new agent may not take one)
        self._which = which
        self.on_added = on_added  # the hub offers an added agent at once
        self.catalog: Registry | None = None  # the ACP registry (make_host gives it the data folder)
        self.installs: Installs | None = None  # the agents installed from it (make_host or build_host)

    def registry(self) -> Catalog:
        if self.catalog is None:
            return Catalog((), "bundled", "The ACP registry is not available here.")
        return self.catalog.catalog()

    async def refresh_registry(self) -> Catalog:
        if self.catalog is None:
            return self.registry()
        return await self.catalog.refresh()

    # --- agents installed from the registry --------------------------------------------------------
    def installed(self) -> list[InstalledAgent]:
        return self.installs.installed() if self.installs is not None else []

    def installing(self) -> list[str]:
        return self.installs.installing() if self.installs is not None else []

    async def install(self, agent_id: str, progress: Callable[[str], None]) -> str:
        """The registry's agent `agent_id` at the catalog's version (installed, or updated to it)."""
        agent = next((a for a in self.registry().agents if a.id == agent_id), None)
        if agent is None or self.installs is None:
            return f"The ACP registry lists no agent {agent_id!r}."
        return await self.installs.install(agent, progress)

    def cancel_install(self, agent_id: str) -> bool:
        return self.installs is not None and self.installs.cancel(agent_id)

    def pin(self, agent_id: str, pinned: bool) -> str:
        return self.installs.pin(agent_id, pinned) if self.installs is not None else "Nothing is installed."

    def roll_back(self, agent_id: str) -> str:
        return self.installs.roll_back(agent_id) if self.installs is not None else "Nothing is installed."

    async def uninstall(self, agent_id: str) -> str:
        if self.installs is None:
            return "Nothing is installed."
        return await self.installs.uninstall(agent_id)

    def configured(self) -> list[str]:
        """The names of the agents the config file lists (the ones Settings may edit and remove)."""
        return list(self._configured)

    def details(self, name: str) -> dict[str, str]:
        """The entry named `name` as the config file holds it now, as the texts Settings shows: "name",
        "command" (the whole command line, its args included), "folder", "env" (one KEY=value a line, in
        the file's order), "defaultMode", "defaultModel" ("" when absent); {} when the file cannot be
        read or lists no such agent."""
        try:
            data = parse_object(read_user_file(self._settings.path))
        except (OSError, ValueError):
            return {}
        entry = _entry_named(data.get(KEY) if isinstance(data, dict) else None, name)
        if entry is None:
            return {}
        env = entry.get("env")
        env_lines = []
        if isinstance(env, dict) and all(isinstance(value, str) for value in env.values()):
            env_lines = [f"{key}={value}" for key, value in env.items()]
        return {
            "name": name,
            "command": _command_line(entry.get("command"), entry.get("args")),
            "folder": _text(entry.get("cwd")),
            "env": "\n".join(env_lines),
            "defaultMode": _text(entry.get("defaultMode")),
            "defaultModel": _text(entry.get("defaultModel")),
        }

    async def add(self, name: str, command: str, *, folder: str = "", env_text: str = "") -> str:
        """Add {"name", "command", "cwd", "env"} to the config's agents (the last two when given) and
        offer the agent at once; "" when written, else why not (nothing is added when the name, the
        command, the folder or the environment cannot be used)."""
        name, command, folder = name.strip(), command.strip(), folder.strip()
        env, why = _parse_env(env_text)
        why = self._name_problem(name) or self._command_problem(command) or _folder_problem(folder) or why
        if why:
            return f"The agent was not added: {why}."
        argv = tuple(shlex.split(command))
        cwd = os.path.expanduser(folder) if folder else None
        profile = AgentProfile(slug(name), name, argv, "config", "added in Settings", tuple(env.items()), cwd)
        if self.on_added is not None:
            self.on_added(profile)
        self._configured.append(name)
        entry: dict[str, Any] = {"name": name, "command": command}
        _set_or_drop(entry, "cwd", folder)
        _set_or_drop(entry, "env", env)

        def append(data: dict[str, Any]) -> None:
            agents = data.get(KEY)
            data[KEY] = [*(agents if isinstance(agents, list) else []), entry]

        return await self._settings.update(append)

    async def edit(
        self, name: str, command: str, folder: str, env_text: str, default_mode: str, default_model: str
    ) -> str:
        """Write new details into the config's entry named `name`: "command" (as typed; "args" is taken
        out, the command line holds them), "cwd", "env", "defaultMode" and "defaultModel" (each taken out
        when empty); its other fields and every other entry are kept. They apply from the next start
        (the running agent keeps its process). "" when written, else why not (then nothing is written)."""
        if name not in self._configured:
            return f"The agent {name!r} is not one your config file lists; nothing was changed."
        command, folder = command.strip(), folder.strip()
        env, why = _parse_env(env_text)
        why = self._command_problem(command) or _folder_problem(folder) or why
        if why:
            return f"The agent was not changed: {why}."
        fields: dict[str, Any] = {
            "cwd": folder,
            "env": env,
            "defaultMode": default_mode.strip(),
            "defaultModel": default_model.strip(),
        }

        def change(data: dict[str, Any]) -> None:
            entry = _entry_named(data.get(KEY), name)
            if entry is None:
                raise _NotInFile
            entry["command"] = command
            entry.pop("args", None)
            for key, value in fields.items():
                _set_or_drop(entry, key, value)

        try:
            return await self._settings.update(change)
        except _NotInFile:
            return f"The agent {name!r} is no longer in your config file; nothing was changed."

    async def remove(self, name: str) -> str:
        """Take the agent named `name` out of the config's agents (from the next start on)."""
        if name not in self._configured:
            return f"The agent {name!r} is not one your config file lists; nothing was changed."
        self._configured.remove(name)

        def drop(data: dict[str, Any]) -> None:
            agents = data.get(KEY)
            if isinstance(agents, list):
                data[KEY] = [a for a in agents if not _is_named(a, name)]

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


def _entry_named(agents: object, name: str) -> dict[str, Any] | None:
    """The first entry of the config's "agents" named `name` (as read_agents reads names: trimmed)."""
    if not isinstance(agents, list):
        return None
    return next((entry for entry in agents if _is_named(entry, name)), None)


def _is_named(entry: object, name: str) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"].strip() == name


def _command_line(command: object, args: object) -> str:
    """An entry's "command" and "args" as one command line: the text as written when it has no args."""
    args = args if isinstance(args, list) and all(isinstance(arg, str) for arg in args) else []
    if isinstance(command, str):
        if not args:
            return command
        try:
            return shlex.join([*shlex.split(command), *args])
        except ValueError:  # read_agents drops such an entry; show what is written
            return f"{command} {shlex.join(args)}"
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        return shlex.join([*command, *args])
    return ""


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _folder_problem(folder: str) -> str:
    """Why `folder` cannot be an agent's folder ("" when it can: empty, or the full path, "~" allowed,
    of a folder that exists now)."""
    if not folder:
        return ""
    path = Path(folder).expanduser()
    if "\0" in folder or not path.is_absolute():
        return f"its folder must be a full path, and {folder!r} is not one"
    if not path.is_dir():
        return f"there is no folder {shown(path)}"
    return ""


def _parse_env(text: str) -> tuple[dict[str, str], str]:
    """The variables `text` sets, one KEY=value a line (blank lines ignored), in its order; and why it
    cannot be used ("" when it can), naming the line."""
    env: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, equals, value = line.partition("=")
        key = key.strip()
        if not equals:
            return {}, f"line {number} of its environment is not KEY=value"
        if not VARIABLE_NAME.fullmatch(key):
            why = "letters, digits and _, not starting with a digit"
            return {}, f"line {number} of its environment names {key!r}, which is not a variable name ({why})"
        if "\0" in value:
            return {}, f"line {number} of its environment holds a NUL character"
        if key in env:
            return {}, f"line {number} of its environment sets {key} a second time"
        env[key] = value
    return env, ""


def _set_or_drop(entry: dict[str, Any], key: str, value: str | dict[str, str]) -> None:
    """Set `entry[key]`, or take the key out when `value` is empty."""
    if value:
        entry[key] = value
    else:
        entry.pop(key, None)
