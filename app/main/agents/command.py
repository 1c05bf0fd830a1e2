"""Choose which agent command to run, and say why (the UI and the log show both).

Order: the `--agent "CMD ARGS"` flag, then `agent.command` in the config file (read by
`stores/config.py`), then `openclaw acp` when `openclaw` is on PATH, else the built-in demo agent (this
same program run as `demo-agent`).
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

AgentSource = Literal["flag", "config", "openclaw", "path", "demo", "registry"]


@dataclass(frozen=True)
class AgentCommand:
    """A resolved agent command line, where it came from, and a sentence saying why."""

    argv: tuple[str, ...]
    source: AgentSource
    reason: str
    env: tuple[tuple[str, str], ...] = ()  # added to the child's environment (an agent's API key, ...)
    title: str = ""  # what the user calls it (its profile's name), before the agent names itself

    @property
    def display(self) -> str:
        return shlex.join(self.argv)

    @property
    def name(self) -> str:
        """What to call the agent when it does not say (no `agentInfo`): the command's own name, past
        the interpreter or runner that starts it (`npx @zed-industries/codex-acp` -> codex-acp,
        `python -m app demo-agent` -> demo-agent, `python echo_agent.py` -> echo_agent)."""
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


class ConfiguredAgent(Protocol):
    """What the config file says of the agent (`user_config.Config`): its command line, where it was
    written, the file."""

    @property
    def path(self) -> Path: ...

    @property
    def agent_argv(self) -> tuple[str, ...] | None: ...

    @property
    def agent_origin(self) -> str: ...


def resolve_agent_command(
    flag: str | None, config: ConfiguredAgent, which: object = shutil.which
) -> AgentCommand:
    """Apply the documented order; `which` is injectable so tests can simulate PATH. Only a bad
    --agent flag raises (AgentCommandError); a bad config is read as the defaults (its problems are on
    `read_config`'s answer)."""
    if flag:
        return AgentCommand(_split(flag, "--agent"), "flag", "chosen with --agent")
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
