"""Which ACP agents the user can start chats with (the picker on New chat; one child process each).

Offered, in order: the agent ClawQt resolves as today (`resolve_agent_command`: --agent, `agent.command`,
openclaw on PATH, else the demo), the agents listed under "agents" in the config file, the well-known
ACP agents whose program is on PATH, and the built-in demo agent. Each is offered once, under an id no
other has, with a sentence saying why it is offered.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from app.contract.local_stores import LocalProblem
from app.main.agents.command import AgentCommand, demo_agent_argv
from app.main.core.json_files import json_kind
from app.main.core.paths import shown

ProfileSource = Literal["flag", "config", "path", "demo", "registry"]
Which = Callable[[str], str | None]

KEY = "agents"
DEMO_ID, DEMO_NAME = "demo", "Demo agent"
TEXT_FIELDS = {"cwd": "cwd", "defaultMode": "default_mode", "defaultModel": "default_model"}
EXAMPLE = '{"name": "Claude", "command": "claude-agent-acp"}'
SOURCES: dict[str, ProfileSource] = {
    "flag": "flag",
    "config": "config",
    "openclaw": "path",
    "path": "path",
    "demo": "demo",
    "registry": "registry",
}


@dataclass(frozen=True)
class AgentProfile:
    """One agent the user can start chats with: how to start it, what to call it, and why it is offered."""

    id: str  # stable and unique among the offered agents: a slug ("claude", "my-agent-2")
    name: str  # shown to the user
    argv: tuple[str, ...]
    source: ProfileSource
    reason: str
    env: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None  # the folder its new chats start in ("~" expanded)
    default_mode: str | None = None
    default_model: str | None = None

    @property
    def display(self) -> str:
        return shlex.join(self.argv)

    def command(self) -> AgentCommand:
        """What starts this agent's child process."""
        return AgentCommand(self.argv, self.source, self.reason, self.env, title=self.name)


@dataclass(frozen=True)
class WellKnown:
    """An ACP agent ClawQt offers without configuration when its program is on PATH."""

    id: str
    name: str
    argv: tuple[str, ...]  # the documented command line; argv[0] is looked up on PATH


WELL_KNOWN: tuple[WellKnown, ...] = (
    WellKnown("openclaw", "OpenClaw", ("openclaw", "acp")),
    WellKnown("claude", "Claude", ("claude-agent-acp",)),  # npm @zed-industries/claude-agent-acp
    WellKnown("codex", "Codex", ("codex-acp",)),  # npm @zed-industries/codex-acp
    WellKnown("gemini", "Gemini", ("gemini", "--experimental-acp")),  # Gemini CLI
    WellKnown("fast-agent", "fast-agent", ("fast-agent-acp",)),  # PyPI fast-agent-mcp; its own default model
)


def slug(name: str) -> str:
    """An id made of a name: "My Agent (beta)" -> my-agent-beta."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "agent"


def detect_well_known(which: Which = shutil.which) -> tuple[AgentProfile, ...]:
    """The well-known agents whose program `which` finds (injectable: tests simulate PATH)."""
    found = []
    for known in WELL_KNOWN:
        where = which(known.argv[0])
        if where:
            reason = f"{known.argv[0]} found on PATH at {where}"
            found.append(AgentProfile(known.id, known.name, known.argv, "path", reason))
    return tuple(found)


def agent_profiles(
    primary: AgentCommand, config_agents: tuple[AgentProfile, ...], which: Which = shutil.which
) -> tuple[AgentProfile, ...]:
    """What the picker offers: the primary agent first, then the configured agents, the well-known ones
    on PATH, and the demo. A configured agent with the primary's command line describes the primary (its
    name, environment and defaults) rather than being listed twice; a well-known agent is left out when
    an offered one has its command line or its name."""
    first = primary_profile(primary)
    same = next((agent for agent in config_agents if agent.argv == first.argv), None)
    if same is not None:
        first = replace(same, source=first.source, reason=first.reason)
    offered = [first, *(agent for agent in config_agents if agent is not same)]
    for known in detect_well_known(which):
        if not any(o.argv == known.argv or o.name.casefold() == known.name.casefold() for o in offered):
            offered.append(known)
    if first.source == "demo" and len(offered) > 1:  # the fallback demo goes after any real agent
        offered = [*offered[1:], first]
    demo = demo_agent_argv()
    if not any(o.argv == demo for o in offered):
        offered.append(
            AgentProfile(DEMO_ID, DEMO_NAME, demo, "demo", "the built-in demo agent, always offered")
        )
    return _unique_ids(offered)


def primary_profile(command: AgentCommand) -> AgentProfile:
    """The resolved agent (or the one agent of `AgentHub.single`) as a profile, under its well-known
    name when it is one."""
    source = SOURCES[command.source]
    if command.source == "demo" or command.argv == demo_agent_argv():
        return AgentProfile(DEMO_ID, DEMO_NAME, command.argv, source, command.reason, command.env)
    for known in WELL_KNOWN:
        if command.argv == known.argv:
            return AgentProfile(known.id, known.name, command.argv, source, command.reason, command.env)
    name = command.name
    return AgentProfile(slug(name), name, command.argv, source, command.reason, command.env)


def _unique_ids(profiles: Iterable[AgentProfile]) -> tuple[AgentProfile, ...]:
    """The profiles under ids no other has: a built-in agent keeps its own id ("claude", "demo") whatever
    else is offered; any other whose id is taken becomes `<id>-2`, `<id>-3`, …"""
    profiles = tuple(profiles)
    owned = {profile.id for profile in profiles if _owns_id(profile)}
    taken: set[str] = set()
    unique = []
    for profile in profiles:
        wanted, n = profile.id, 1
        while wanted in taken or (wanted in owned and not (wanted == profile.id and _owns_id(profile))):
            n += 1
            wanted = f"{profile.id}-{n}"
        taken.add(wanted)
        unique.append(profile if wanted == profile.id else replace(profile, id=wanted))
    return tuple(unique)


def _owns_id(profile: AgentProfile) -> bool:
    """Whether the profile is the built-in agent its id names (the demo, or a well-known one)."""
    if profile.id == DEMO_ID:
        return profile.argv == demo_agent_argv()
    return any(known.id == profile.id and known.argv == profile.argv for known in WELL_KNOWN)


def read_agents(value: object, path: Path, problems: list[LocalProblem]) -> tuple[AgentProfile, ...]:
    """The config's "agents": a list of {"name", "command", "args", "env", "cwd", "defaultMode",
    "defaultModel"}. An entry without a usable name or command is named and left out; a wrong optional
    field is named and ignored, the entry kept; keys ClawQt does not know are left alone."""
    if value is None:
        return ()
    if not isinstance(value, list):
        why = f"it must be a list of agents such as {EXAMPLE}, not {json_kind(value)}"
        problems.append(_ignored(KEY, path, why))
        return ()
    agents: list[AgentProfile] = []
    names: dict[str, int] = {}
    for index, entry in enumerate(value):
        agent = _entry(index, entry, path, problems)
        if agent is None:
            continue
        earlier = names.get(agent.name.casefold())
        if earlier is not None:
            why = f'"{agent.name}" is already the name of {KEY}[{earlier}]'
            problems.append(_ignored(f"{KEY}[{index}].name", path, why, entry_dropped=True))
            continue
        names[agent.name.casefold()] = index
        agents.append(agent)
    return _unique_ids(agents)


def _entry(index: int, entry: object, path: Path, problems: list[LocalProblem]) -> AgentProfile | None:
    key = f"{KEY}[{index}]"
    if not isinstance(entry, dict):
        why = f"it must be an object such as {EXAMPLE}, not {json_kind(entry)}"
        problems.append(_ignored(key, path, why))
        return None
    for required in ("name", "command"):
        if required not in entry:
            problems.append(_ignored(key, path, f'it has no "{required}"'))
            return None
    name = entry["name"]
    if not isinstance(name, str) or not name.strip():
        why = f"it must be the name to show (text), not {_kind(name)}"
        problems.append(_ignored(f"{key}.name", path, why, entry_dropped=True))
        return None
    argv = _command(entry["command"], f"{key}.command", path, problems)
    if argv is None:
        return None
    args = _args(entry.get("args"), f"{key}.args", path, problems)
    env = _env(entry.get("env"), f"{key}.env", path, problems)
    texts = {}
    for field_key, attribute in TEXT_FIELDS.items():
        text = entry.get(field_key)
        if text is None:
            continue
        if isinstance(text, str) and text.strip():
            texts[attribute] = os.path.expanduser(text) if field_key == "cwd" else text
        else:
            why = f"it must be {'a folder path' if field_key == 'cwd' else 'text'}, not {_kind(text)}"
            problems.append(_ignored(f"{key}.{field_key}", path, why))
    return AgentProfile(slug(name), name.strip(), argv + args, "config", f"{key} in {path}", env, **texts)


def _command(value: object, key: str, path: Path, problems: list[LocalProblem]) -> tuple[str, ...] | None:
    if not isinstance(value, str):
        why = f"it must be a command line (text), not {json_kind(value)}"
        problems.append(_ignored(key, path, why, entry_dropped=True))
        return None
    try:
        argv = tuple(shlex.split(value))
    except ValueError as exc:
        problems.append(_ignored(key, path, f"it cannot be parsed ({exc})", entry_dropped=True))
        return None
    if not argv:
        problems.append(_ignored(key, path, "it is empty", entry_dropped=True))
        return None
    return argv


def _args(value: object, key: str, path: Path, problems: list[LocalProblem]) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(arg, str) for arg in value):
        problems.append(_ignored(key, path, "it must be a list of arguments (text)"))
        return ()
    return tuple(value)


def _env(value: object, key: str, path: Path, problems: list[LocalProblem]) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(isinstance(v, str) and "\0" not in v for v in value.values()):
        problems.append(_ignored(key, path, "it must be an object of text values"))
        return ()
    if not all(name and "=" not in name and "\0" not in name for name in value):
        problems.append(_ignored(key, path, 'its names must be variable names (not empty, without "=")'))
        return ()
    return tuple(value.items())


def _kind(value: object) -> str:
    """`json_kind`, telling empty text apart (it is text, but not a usable one)."""
    return "empty text" if isinstance(value, str) else json_kind(value)


def _ignored(key: str, path: Path, why: str, *, entry_dropped: bool = False) -> LocalProblem:
    """A wrong value, named the way agent_command names one; `entry_dropped` says the agent is not offered."""
    dropped = ", and so is that agent" if entry_dropped else ""
    text = f'"{key}" in your config file {shown(path)} is ignored{dropped}: {why}.'
    return LocalProblem(text, "", str(path))
