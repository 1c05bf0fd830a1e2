"""The agents a user can chat with, as the renderer sees them: each agent of the picker and the
sidebar, and the envelope saying that one of them started, stopped or changed its name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

TARGET_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # an OpenClaw agent id, as a session key holds it

AgentRunState = Literal["stopped", "starting", "ready", "sign-in", "exited", "failed"]


@dataclass(frozen=True)
class AgentChoice:
    """One agent the user may start a chat with (`app/main/agents/profiles.py` decides the list)."""

    agent_id: str  # stable: what a chat's agent is remembered by
    name: str  # the agent's own name once it said it (`agentInfo`), else the profile's
    command: str  # the command line, shown beside the name
    source: str  # "flag", "config", "path", "demo" or "registry": where ClawQt found it
    reason: str  # a sentence saying where it came from
    state: AgentRunState = "stopped"  # its child process now
    profile_name: str = ""  # the name ClawQt offers it under (the config's, or a well-known one)


@dataclass(frozen=True)
class AgentsChangedEnvelope:
    """An agent started, stopped, failed or told its name: pickers and the sidebar ask again."""

    agent_id: str
    kind: Literal["agents_changed"] = "agents_changed"


@dataclass(frozen=True)
class AgentTarget:
    """One of the agents behind a gateway agent (OpenClaw's own agents: `main`, `work`, ...) that a new
    chat may be addressed to. The chat's session key names it, so a chat keeps its target for good."""

    target_id: str  # the gateway's agent id, as the session key carries it
    name: str  # what the gateway calls it (its identity's name, else the id)
    emoji: str = ""
    default: bool = False  # the gateway's default agent: where a chat goes when none is chosen


def target_of(session_key: str) -> str:
    """The OpenClaw agent a session key (`agent:<id>:...`) names ("" when it names none)."""
    parts = session_key.split(":", 2)
    if len(parts) == 3 and parts[0] == "agent" and TARGET_RE.fullmatch(parts[1]):
        return parts[1]
    return ""
