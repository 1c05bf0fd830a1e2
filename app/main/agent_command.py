"""Choose which agent command to run, and say why (the UI and the log show both).

Order: the `--agent "CMD ARGS"` flag, then `agent.command` in the config file, then `openclaw acp` when
`openclaw` is on PATH, else the built-in demo agent (this same program run as `demo-agent`).
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

AgentSource = Literal["flag", "config", "openclaw", "demo"]


@dataclass(frozen=True)
class AgentCommand:
    """A resolved agent command line, where it came from, and a sentence saying why."""

    argv: tuple[str, ...]
    source: AgentSource
    reason: str

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
    """The flag or config names an unusable command (empty, bad quoting, unreadable config)."""


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


def read_config_command(config_path: Path) -> str | None:
    """`agent.command` from the JSON config file, or None when the file or key is absent."""
    if not config_path.exists():
        return None
    try:
        data = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AgentCommandError(f"the config file {config_path} cannot be read: {exc}") from exc
    agent = data.get("agent") if isinstance(data, dict) else None
    command = agent.get("command") if isinstance(agent, dict) else None
    if command is None:
        return None
    if not isinstance(command, str):
        raise AgentCommandError(f"agent.command in {config_path} must be a string")
    return command


def additional_directories_from_config(config_path: Path) -> list[str]:
    """`additionalDirectories` (a list of folders) from the JSON config file; [] when absent. A bad
    value is an error with the file named, not a silent default."""
    if not config_path.exists():
        return []
    try:
        data = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AgentCommandError(f"the config file {config_path} cannot be read: {exc}") from exc
    value = data.get("additionalDirectories", []) if isinstance(data, dict) else []
    if not isinstance(value, list) or not all(isinstance(d, str) for d in value):
        raise AgentCommandError(f"additionalDirectories in {config_path} must be a list of folder paths")
    return value


def resolve_agent_command(flag: str | None, config_path: Path, which: object = shutil.which) -> AgentCommand:
    """Apply the documented order; `which` is injectable so tests can simulate PATH."""
    if flag:
        return AgentCommand(_split(flag, "--agent"), "flag", "chosen with --agent")
    configured = read_config_command(config_path)
    if configured:
        return AgentCommand(_split(configured, str(config_path)), "config", f"agent.command in {config_path}")
    openclaw = which("openclaw")  # type: ignore[operator]
    if openclaw:
        return AgentCommand(("openclaw", "acp"), "openclaw", f"openclaw found on PATH at {openclaw}")
    return AgentCommand(
        demo_agent_argv(),
        "demo",
        "no --agent flag, no agent.command in the config, and no openclaw on PATH: "
        "using the built-in demo agent",
    )
