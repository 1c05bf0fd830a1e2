"""The user's config file, read once (`read_config`): the agent's command, the agents listed, the extra
folders, the terminal tools' port, the appearance and notifications Settings wrote. What is wrong with it
is reported (each a sentence for the window) and ignored, never fatal."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from app.contract.local_stores import LocalProblem
from app.main.agents.profiles import AgentProfile, read_agents
from app.main.core.json_files import Unusable, json_kind, parse_object
from app.main.core.paths import shown
from app.main.files.regular_files import read_user_file
from app.main.stores.settings_file import (
    DEFAULT_SEARCH_MB,
    MAX_SEARCH_MB,
    MIN_SEARCH_MB,
    NOTIFICATIONS_KEY,
    SEARCH_SIZE_KEY,
    Appearance,
    Notifications,
    read_appearance,
    read_notifications,
)
from app.main.stores.settings_file import KEY as APPEARANCE_KEY


@dataclass(frozen=True)
class Config:
    """What ClawQt uses from the user's config file, and what is wrong with it (each a sentence for
    the window). ClawQt writes this file only from Settings and never when it cannot read it
    (settings_file.py), so a bad one stays as it is, reported at every start until it is fixed;
    whatever is wrong is ignored and its default applies."""

    path: Path
    agent_argv: tuple[str, ...] | None = None
    agent_origin: str = ""  # "agent.command", or "agent" when given as a plain command string
    additional_directories: tuple[str, ...] = ()
    problems: tuple[LocalProblem, ...] = ()
    terminal_tools_port: int | None = None  # the loopback port of the terminal tools (None: ClawQt picks)
    appearance: Appearance = field(default_factory=Appearance)  # theme, text size, motion (Settings)
    notifications: Notifications = field(default_factory=Notifications)  # calling the user (Settings)
    agents: tuple[AgentProfile, ...] = ()  # the agents the user listed under "agents" (agents/profiles.py)
    search_megabytes: int = DEFAULT_SEARCH_MB  # the search index's bound (Settings)


def read_config(path: Path) -> Config:
    """The config file, read once; never raises (a missing file is the defaults, without a word)."""
    try:
        raw = read_user_file(path)
    except FileNotFoundError:
        return Config(path)
    except OSError as exc:
        return Config(path, problems=(_whole_file(path, f"cannot be read ({exc.strerror})", str(exc)),))
    data = parse_object(raw)
    if isinstance(data, Unusable):
        return Config(path, problems=(_whole_file(path, data.why, data.details),))
    problems: list[LocalProblem] = []
    argv, origin = _agent(data.get("agent"), path, problems)
    directories = _additional_directories(data.get("additionalDirectories", []), path, problems)
    port = _port(data.get("terminalToolsPort"), path, problems)
    appearance = read_appearance(data.get(APPEARANCE_KEY), path, problems)
    notifications = read_notifications(data.get(NOTIFICATIONS_KEY), path, problems)
    agents = read_agents(data.get("agents"), path, problems)
    search_mb = _search_megabytes(data.get(SEARCH_SIZE_KEY), path, problems)
    return Config(
        path, argv, origin, directories, tuple(problems), port, appearance, notifications, agents, search_mb
    )


def _search_megabytes(value: object, path: Path, problems: list[LocalProblem]) -> int:
    if value is None:
        return DEFAULT_SEARCH_MB
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SEARCH_MB <= value <= MAX_SEARCH_MB:
        why = f"it must be a whole number of megabytes from {MIN_SEARCH_MB} to {MAX_SEARCH_MB:,}"
        problems.append(_ignored(SEARCH_SIZE_KEY, path, why))
        return DEFAULT_SEARCH_MB
    return value


def _port(value: object, path: Path, problems: list[LocalProblem]) -> int | None:
    """`terminalToolsPort`: 1024-65535 (an unprivileged port on 127.0.0.1); anything else is named."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1024 <= value <= 65535:
        problems.append(_ignored("terminalToolsPort", path, "it must be a port number from 1024 to 65535"))
        return None
    return value


def _whole_file(path: Path, why: str, details: str) -> LocalProblem:
    text = f"Your config file {shown(path)} {why}: it is ignored and the defaults are used until it is fixed."
    return LocalProblem(text, details, str(path))


def _ignored(key: str, path: Path, why: str) -> LocalProblem:
    return LocalProblem(f'"{key}" in your config file {shown(path)} is ignored: {why}.', "", str(path))


def _agent(value: object, path: Path, problems: list[LocalProblem]) -> tuple[tuple[str, ...] | None, str]:
    """`agent: {"command": "CMD ARGS"}`; a plain string is taken as the command (what a user writing
    `"agent": "openclaw acp"` obviously means)."""
    if value is None:
        return None, ""
    command: object
    if isinstance(value, str):
        key, command = "agent", value
    elif isinstance(value, dict):
        key, command = "agent.command", value.get("command")
        if command is None:  # a typo such as "cmd" would otherwise be a silent fallback
            problems.append(
                _ignored("agent", path, 'it must be {"command": "CMD ARGS"}, and "command" is missing')
            )
            return None, ""
        if not isinstance(command, str):
            why = f"it must be a command line (text), not {json_kind(command)}"
            problems.append(_ignored(key, path, why))
            return None, ""
    else:
        why = f'it must be {{"command": "CMD ARGS"}}, not {json_kind(value)}'
        problems.append(_ignored("agent", path, why))
        return None, ""
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        problems.append(_ignored(key, path, f"it cannot be parsed ({exc})"))
        return None, ""
    if not argv:
        problems.append(_ignored(key, path, "it is empty"))
        return None, ""
    return argv, key


def _additional_directories(value: object, path: Path, problems: list[LocalProblem]) -> tuple[str, ...]:
    """`additionalDirectories`: folder paths; anything else in it is named and left out."""
    if not isinstance(value, list):
        why = f"it must be a list of folder paths, not {json_kind(value)}"
        problems.append(_ignored("additionalDirectories", path, why))
        return ()
    folders = tuple(d for d in value if isinstance(d, str))
    wrong = len(value) - len(folders)
    if wrong:
        entries = "1 entry" if wrong == 1 else f"{wrong} entries"
        verb = "is" if wrong == 1 else "are"
        text = (
            f'{entries} of "additionalDirectories" in your config file {shown(path)} {verb} ignored: '
            "each must be a folder path (text)."
        )
        problems.append(LocalProblem(text, config_file=str(path)))
    return folders
