"""The main side as the app's entry points run it (the window, `clawqt smoke`): on the prelude (the
config file read once, prelude.py: what is wrong with it goes to the host's problems, never stops a
start), the agents (one chat service each, started on first use) and the host around them (`make.py`).
Tests build a host from their own services with `make_host`; nothing else builds the main side."""

from __future__ import annotations

from app.main.acp.recorder import TraceRecorder
from app.main.agents.installs import Installs
from app.main.agents.profiles import AgentProfile, agent_profiles
from app.main.core import paths
from app.main.host.launch import Launch
from app.main.host.make import Host, hub_parts, make_host
from app.main.host.prelude import Prelude, read_prelude
from app.main.review.turn_changes import TurnChanges
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.agent_settings import AgentSettings
from app.main.stores.settings_file import SettingsFile


def build_host(launch: Launch, prelude: Prelude | None = None) -> tuple[Host, TraceRecorder | None]:
    """The main side for this launch and its trace recorder (None without --record), on the `prelude`
    the window was drawn from (read here when there is none). AgentCommandError only for an unusable
    --agent."""
    prelude = prelude if prelude is not None else read_prelude(launch)
    problems, config, command, recorder = prelude.problems, prelude.config, prelude.command, prelude.recorder
    flag_folders = list(launch.add_dirs)  # this run's --add-dir stay added
    extra = [*config.additional_directories, *flag_folders]
    installs = Installs(
        paths.data_dir()
    )  # agents installed from the ACP registry, offered as configured ones
    profiles = agent_profiles(command, (*config.agents, *installs.profiles()))
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
        search_megabytes=config.search_megabytes,
    )
    agent_settings = AgentSettings(settings, config.agents, hub.choice_names, on_added=hub.add_profile)
    agent_settings.installs = installs
    host = make_host(
        hub, problems=problems, settings=settings, agent_settings=agent_settings, views=prelude.views
    )
    return host, recorder
