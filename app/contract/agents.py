"""The agents a user can chat with, as the renderer sees them: each agent of the picker and the
sidebar, and the envelope saying that one of them started, stopped or changed its name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AgentRunState = Literal["stopped", "starting", "ready", "sign-in", "exited", "failed"]


@dataclass(frozen=True)
class AgentChoice:
    """One agent the user may start a chat with (`app/main/agent_profiles.py` decides the list)."""

    agent_id: str  # stable: what a chat's agent is remembered by
    name: str  # the agent's own name once it said it (`agentInfo`), else the profile's
    command: str  # the command line, shown beside the name
    source: str  # "flag", "config", "path" or "demo": where ClawQt found it
    reason: str  # a sentence saying where it came from
    state: AgentRunState = "stopped"  # its child process now
    profile_name: str = ""  # the name ClawQt offers it under (the config's, or a well-known one)


@dataclass(frozen=True)
class AgentsChangedEnvelope:
    """An agent started, stopped, failed or told its name: pickers and the sidebar ask again."""

    agent_id: str
    kind: Literal["agents_changed"] = "agents_changed"
