"""The user's own terminals as the renderer sees them: what each tab shows, and the envelopes that say
what changed. The main side (`app/main/terminals/user.py`) owns the PTYs, the output kept for agents,
the sharing mode and who may take part; the panel only shows this data and asks through
`UserTerminalsHost` (app/contract/host_api.py).

Plain, frozen data. `kind` is a stable string, as for the chat envelopes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# off: no agent sees anything; status-only: an agent may see whether it runs and its exit, never its
# output or input; shared: an agent with this chat's capability may read and type
SharingName = Literal["off", "status-only", "shared"]
SHARING_NAMES: tuple[SharingName, ...] = ("off", "status-only", "shared")
# pending: an agent asked for it and the panel has not shown it yet (no process runs);
# running; exited (code or signal); failed: it never started (error says why); expired: the panel did
# not show it before the deadline, or the user refused it: its command never runs
TerminalStateName = Literal["pending", "running", "exited", "failed", "expired"]
ActivityName = Literal["read", "input", "status"]
# where a split pane goes beside the one it splits; auto: beside a wide pane, below a tall one
SplitDirection = Literal["right", "left", "up", "down", "auto"]
SPLIT_DIRECTIONS: tuple[SplitDirection, ...] = ("right", "left", "up", "down", "auto")
SIDES = SPLIT_DIRECTIONS[:4]  # the directions that name a side (not auto)


def split_direction(value: str) -> SplitDirection:
    """`value` when it is a direction, else auto."""
    return value if value in SPLIT_DIRECTIONS else "auto"


@dataclass(frozen=True)
class UserTerminalInfo:
    """One tab. `pinned_session` is the only chat whose agent may use it (None: every chat's, with that
    chat's capability); terminals an agent opens are pinned to its chat. `agent_sent_input`: an agent
    typed into it at least once (the pane header says so; what it typed is only in the output)."""

    terminal_id: str
    title: str
    cwd: str
    sharing: SharingName
    state: TerminalStateName
    pinned_session: str | None = None
    opened_by_agent: bool = False
    command: str = ""  # what an agent asked to run in it (shown on its pending tab)
    exit_code: int | None = None
    signal: str | None = None
    error: str = ""
    agent_sent_input: bool = False
    columns: int = 80
    rows: int = 24
    # shown as a split pane beside `split_of` (while that terminal is open), on its `split_direction`
    split_of: str | None = None
    split_direction: SplitDirection = "auto"
    shell: str = ""  # the name of the shell it runs (its profile's, or the user's own)


@dataclass(frozen=True)
class UserTerminalChangedEnvelope:
    """A terminal was added or one of its fields changed (the whole new info)."""

    info: UserTerminalInfo
    kind: Literal["user_terminal_changed"] = "user_terminal_changed"


@dataclass(frozen=True)
class UserTerminalRemovedEnvelope:
    terminal_id: str
    kind: Literal["user_terminal_removed"] = "user_terminal_removed"


@dataclass(frozen=True)
class UserTerminalOutputEnvelope:
    """Output as the PTY wrote it (decoded UTF-8, escape sequences kept for the panel's emulator)."""

    terminal_id: str
    data: str
    kind: Literal["user_terminal_output"] = "user_terminal_output"


@dataclass(frozen=True)
class UserTerminalActivityEnvelope:
    """An agent used the terminal just now (the banner is active for a few seconds after each)."""

    terminal_id: str
    activity: ActivityName
    agent_label: str
    kind: Literal["user_terminal_activity"] = "user_terminal_activity"


UserTerminalEnvelope = (
    UserTerminalChangedEnvelope
    | UserTerminalRemovedEnvelope
    | UserTerminalOutputEnvelope
    | UserTerminalActivityEnvelope
)


# per-session: the agent takes MCP servers in session/new (it gets ClawQt's there);
# connect: OpenClaw, not connected yet (the user may run the shown command); connected: it was;
# unavailable: the server does not run, or the agent has no way to take it
DeliveryName = Literal["per-session", "connect", "connected", "unavailable"]


@dataclass(frozen=True)
class TerminalAccessState:
    """How agents reach the user's terminals right now (the panel's access line and Connect button)."""

    url: str | None
    problem: str
    agent_name: str
    delivery: DeliveryName
    connect_command: str = ""  # the command Connect runs, its secret masked


@dataclass(frozen=True)
class ConnectOutcome:
    ok: bool
    output: str
