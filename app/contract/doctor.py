"""The protocol doctor's report on one agent: what it offered in `initialize`, what ClawQt declared,
the features either side leaves off in plain words, the tail of the agent's stderr, and a check's
steps with their times (app/main/doctor/)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Side = Literal["agent", "clawqt"]


@dataclass(frozen=True)
class Finding:
    """One feature, on or off, and who decided: `side` is the one whose `initialize` said it."""

    side: Side
    feature: str  # "Opening old chats"
    on: bool
    words: str  # what it means for the user, one or two sentences


@dataclass(frozen=True)
class CheckStep:
    name: str  # "Start and initialize", "A new chat", "A short message"
    ok: bool
    seconds: float
    words: str  # what came back, or why it failed


@dataclass(frozen=True)
class DoctorReport:
    agent_id: str
    agent_name: str
    command: str  # the command line, as Settings shows it
    running: bool  # the report read from the agent the window runs (else from a check's own start)
    offered: dict[str, Any]  # protocolVersion, agentInfo, agentCapabilities, authMethods as received
    declared: dict[str, Any]  # protocolVersion, clientInfo, clientCapabilities as sent
    findings: tuple[Finding, ...]
    stderr_tail: str
    steps: tuple[CheckStep, ...] = field(default_factory=tuple)


CheckProgress = Any  # Callable[[CheckStep], None]: each step as it ends


class DoctorHost(Protocol):
    """The `doctor` host part."""

    def report(self, agent_id: str) -> DoctorReport | None:
        """What the running agent offered and what is on or off (None when it has not started)."""
        ...

    async def check(self, agent_id: str, send_message: bool, progress: CheckProgress) -> DoctorReport:
        """Start the agent on a connection of the check's own, initialize, open a new chat and, when
        `send_message`, send it a short message; each step timed (a step that fails ends the check)."""
        ...
