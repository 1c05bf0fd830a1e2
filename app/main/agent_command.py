"""Choose which agent command to run, and say why (the UI and the log show both).

Order: the `--agent "CMD ARGS"` flag, then `agent.command` in the config file, then `openclaw acp` when
`openclaw` is on PATH, else the built-in demo agent (this same program run as `demo-agent`). The config
file is read once (`read_config`): what is wrong with it is reported and ignored, never fatal.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from app.contract.local_stores import LocalProblem
from app.main.json_files import Unusable, json_kind, parse_object
from app.main.paths import shown
from app.main.regular_files import read_user_file
from app.main.settings_file import KEY as APPEARANCE_KEY
from app.main.settings_file import (
    NOTIFICATIONS_KEY,
    Appearance,
    Notifications,
    read_appearance,
    read_notifications,
)

if TYPE_CHECKING:
    from app.main.agent_profiles import AgentProfile

AgentSource = Literal["flag", "config", "openclaw", "path", "demo"]


@dataclass(frozen=True)
class AgentCommand:
    """A resolved agent command line, where it came from, and a sentence saying why."""

    argv: tuple[str, ...]
    source: AgentSource
    reason: str
    env: tuple[tuple[str, str], ...] = ()  # added to the child's environment (an agent's API key, ...)

    @property
    def display(self) -> str:
        return shlex.join(self.argv)

    @property
    def name(self) -> str:
        """What to call the agent when it does not say (no `agentInfo`): the command's own name, past
        the interpreter or runner that starts it (`npx @zed-industries/codex-acp` -> codex-acp,
        `python -m app demo-agent` -> demo-agent, `python agents/echo_agent.py` -> echo_agent)."""
        words = [w for w in self.argv if w]
        while len(words) > 1 and _program(words[0]) in RUNNERS:
            words = [w for w in words[1:] if w not in ("-m", "-y", "--yes", "exec", "run", "x")] or words[1:]
            if words and words[0] == "app" and len(words) > 1:  # this app's own sub-commands
                words = words[1:]
        return _program(words[0]) if words else "agent"


RUNNERS = frozenset({"python", "python3", "node", "npx", "bunx", "bun", "deno", "uv", "uvx", "pnpm", "pipx"})


def _program(word: str) -> str:
    """`/usr/bin/python3.12` -> python3, `@scope/pkg@1.2` -> pkg, `echo_agent.py` -> echo_agent."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1]
    if name.startswith("python3") or name.startswith("python"):
        return "python3" if name.startswith("python3") else "python"
    name = name.split("@", 1)[0] or name
    for suffix in (".py", ".js", ".mjs", ".cjs", ".ts", ".exe"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


class AgentCommandError(ValueError):
    """The --agent flag names an unusable command (empty, bad quoting). A bad config file is never an
    error: `read_config` says what is wrong with it and the defaults apply."""


def demo_agent_argv() -> tuple[str, ...]:
    """The embedded demo agent, run by the current interpreter so it works from a venv or a bundle."""
    if getattr(sys, "frozen", False):
        return (sys.executable, "demo-agent")
    return (sys.executable, "-m", "app", "demo-agent")


def _split(command: str, origin: str) -> tuple[str, ...]:
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise AgentCommandError(f"the agent command from {origin} cannot be parsed: {exc}") from exc
    if not argv:
        raise AgentCommandError(f"the agent command from {origin} is empty")
    return argv


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
    agents: tuple[AgentProfile, ...] = ()  # the agents the user listed under "agents" (agent_profiles.py)


def read_config(path: Path) -> Config:
    """The config file, read once; never raises (a missing file is the defaults, without a word)."""
    from app.main.agent_profiles import read_agents  # agent_profiles builds on this module

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
    return Config(path, argv, origin, directories, tuple(problems), port, appearance, notifications, agents)


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
    return LocalProblem(text, details)


def _ignored(key: str, path: Path, why: str) -> LocalProblem:
    return LocalProblem(f'"{key}" in your config file {shown(path)} is ignored: {why}.')


def _agent(value: object, path: Path, problems: list[LocalProblem]) -> tuple[tuple[str, ...] | None, str]:
    """`agent: {"command": "CMD ARGS"}`; a plain string is taken as the command (what a user writing
    `"agent": "openclaw acp"` obviously means)."""
    if value is None:
        return None, ""
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
        problems.append(LocalProblem(text))
    return folders


def resolve_agent_command(
    flag: str | None, config: Config | Path, which: object = shutil.which
) -> AgentCommand:
    """Apply the documented order; `which` is injectable so tests can simulate PATH. Only a bad
    --agent flag raises (AgentCommandError); a bad config is read as the defaults (its problems are on
    `read_config`'s answer)."""
    if flag:
        return AgentCommand(_split(flag, "--agent"), "flag", "chosen with --agent")
    if isinstance(config, Path):
        config = read_config(config)
    if config.agent_argv:
        return AgentCommand(config.agent_argv, "config", f"{config.agent_origin} in {config.path}")
    openclaw = which("openclaw")  # type: ignore[operator]
    if openclaw:
        return AgentCommand(("openclaw", "acp"), "openclaw", f"openclaw found on PATH at {openclaw}")
    return AgentCommand(
        demo_agent_argv(),
        "demo",
        "no --agent flag, no agent.command in the config, and no openclaw on PATH: "
        "using the built-in demo agent",
    )
