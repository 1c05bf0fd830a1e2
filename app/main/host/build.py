"""The main side as the app's entry points run it (the window, `clawqt smoke`): the config file read
once (what is wrong with it goes to the host's problems, never stops a start), the agents (one chat
service each, started on first use) and the host around them (`make.py`). Tests build a host from
their own services with `make_host`; nothing else builds the main side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.main.acp.recorder import TraceRecorder
from app.main.agents.command import resolve_agent_command
from app.main.agents.profiles import AgentProfile, agent_profiles
from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.host.make import Host, hub_parts, make_host
from app.main.review.turn_changes import TurnChanges
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.agent_settings import AgentSettings
from app.main.stores.config import read_config
from app.main.stores.settings_file import SettingsFile


@dataclass(frozen=True)
class Launch:
    """What the command line asked of this run (every field optional: the config decides the rest)."""

    agent: str | None = None  # --agent: the command line of the agent to start with
    cwd: str | None = None  # --cwd: the folder new chats start in
    add_dirs: Sequence[str] = field(default_factory=tuple)  # --add-dir: folders added for this run
    record: Path | None = None  # --record: the trace file of the first agent's traffic
    init_timeout: float = 60.0  # how long the agent's `initialize` may take

    @classmethod
    def of(cls, args: Any) -> Launch:
        """What a parsed command line asked (the window's and `clawqt smoke`'s: an option a command
        does not take keeps its default)."""
        return cls(
            agent=getattr(args, "agent", None),
            cwd=getattr(args, "cwd", None),
            add_dirs=tuple(getattr(args, "add_dir", None) or ()),
            record=getattr(args, "record", None),
            init_timeout=getattr(args, "init_timeout", None) or cls.init_timeout,
        )


def build_host(launch: Launch) -> tuple[Host, TraceRecorder | None]:
    """The main side for this launch and its trace recorder (None without --record).
    AgentCommandError only for an unusable --agent."""
    problems = LocalProblems()
    config = read_config(paths.config_file())
    for problem in config.problems:
        problems.add(problem.text, problem.details, config_file=problem.config_file)
    command = resolve_agent_command(launch.agent, config)
    recorder = TraceRecorder(launch.record) if launch.record else None
    flag_folders = list(launch.add_dirs)  # this run's --add-dir stay added
    extra = [*config.additional_directories, *flag_folders]
    profiles = agent_profiles(command, config.agents)
    first = profiles[0].id
    turn_changes = TurnChanges(
        paths.data_dir() / "review", paths.own_folders()
    )  # one for every agent: a folder's snapshots

    def make_service(profile: AgentProfile) -> ChatService:
        primary = profile.id == first
        return ChatService(
            profile.command(),
            cwd=launch.cwd or profile.cwd,
            recorder=recorder if primary else None,  # a trace is one agent's conversation
            additional_directories=extra,
            log_path=paths.log_dir() / ("agent-stderr.log" if primary else f"agent-{profile.id}-stderr.log"),
            init_timeout=launch.init_timeout,
            turn_changes=turn_changes,
        )

    # an agent chosen with --agent is the one this run starts with; else the one used last
    parts = hub_parts(problems=problems, terminal_tools_port=config.terminal_tools_port)
    hub = AgentHub(profiles, make_service, first=first if command.source == "flag" else None, **parts)
    settings = SettingsFile(
        config.path,
        config.appearance,
        config.notifications,
        config.additional_directories,
        config.terminal_tools_port,
        on_folders=lambda folders: hub.set_additional_directories([*folders, *flag_folders]),
    )
    agent_settings = AgentSettings(settings, config.agents, hub.choice_names, on_added=hub.add_profile)
    host = make_host(hub, problems=problems, settings=settings, agent_settings=agent_settings)
    return host, recorder
