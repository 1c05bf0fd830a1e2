"""What a start reads before the window's first frame, and nothing more: the config file (the appearance
and notification settings the window is drawn with, what is wrong with the file, the agent to start),
the --agent flag checked, the trace file opened, and the window's remembered placement. Its modules are
the config reader and the placement file's: no agent, chat store or MCP module is imported for it, so
the window shows while those load (app/gui.py). `build_host` takes it, so each file is read once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.contract.local_stores import WindowPlacement
from app.main.acp.recorder import TraceRecorder
from app.main.agents.command import AgentCommand, resolve_agent_command
from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.host.launch import Launch
from app.main.stores.config import Config, read_config
from app.main.stores.view_state import ViewStates


@dataclass(frozen=True)
class Prelude:
    launch: Launch
    config: Config
    command: AgentCommand
    problems: LocalProblems
    views: ViewStates
    recorder: TraceRecorder | None

    def appearance(self) -> dict[str, Any]:
        return self.config.appearance.as_dict()

    def notifications(self) -> dict[str, Any]:
        return self.config.notifications.as_dict()

    def placement(self) -> WindowPlacement:
        return self.views.window()


def read_prelude(launch: Launch) -> Prelude:
    """AgentCommandError only for an unusable --agent (before anything is shown); what is wrong with
    the config goes to `problems`, shown once the window has its chat."""
    problems = LocalProblems()
    config = read_config(paths.config_file())
    for problem in config.problems:
        problems.add(problem.text, problem.details, config_file=problem.config_file)
    command = resolve_agent_command(launch.agent, config)
    recorder = TraceRecorder(launch.record) if launch.record else None
    views = ViewStates(paths.data_dir(), problems)
    return Prelude(launch, config, command, problems, views, recorder)
