"""What the protocol inspector shows: one entry per JSON-RPC message the current agent's pipe carried
(either way) or stderr line it wrote, as plain data. The message text itself stays on the main side
and is asked for one entry at a time (`InspectorHost.text`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.contract.envelopes import Envelope, LoadResult

Direction = Literal["send", "recv", "stderr"]  # send: to the agent
EntryKind = Literal["request", "notification", "response", "error", "stderr"]


@dataclass(frozen=True, slots=True)
class InspectorEntry:
    seq: int  # grows by one per entry, across clears
    t: float  # seconds since the agent's log began
    direction: Direction
    kind: EntryKind
    method: str  # a response's is its request's; "" for stderr
    rpc_id: str  # "" for a notification or stderr
    session: str  # the sessionId it names, "" when none
    size: int  # bytes of the line
    kept: bool  # its text is kept (a line over the limit is listed, not kept)


@dataclass(frozen=True, slots=True)
class InspectorPage:
    """Entries after the seq asked for; `first` is the oldest seq still kept (older ones were let go)."""

    agent: str
    entries: tuple[InspectorEntry, ...]
    first: int


@dataclass(frozen=True, slots=True)
class ReadTrace:
    """A recorded trace (`--record`, or the inspector's Save trace…) as the main side's session machine
    replayed it: what the renderer would have received live, in order, plus what went wrong."""

    name: str  # the file's name, for the view's banner
    outputs: tuple[Envelope | LoadResult, ...]  # of the sessions kept (the last opened), in order
    failures: tuple[str, ...]  # each failed start or session opening, in words (the first ones)
    ignored: int  # messages the replay did not apply (not JSON-RPC, not for a session)
    sessions_left_out: int = 0  # sessions opened earlier than those kept
    more_failures: int = 0  # failures past those in words
    long_lines: str = ""  # the lines too long to open, in words ("" when none)


# what a trace for a bug report takes out (app/main/acp/bug_trace.py), as the user is shown before saving
REPORT_RULES = (
    "Values given to agents and MCP servers as environment or headers, and of your environment "
    "variables named like a secret, wherever they appear",
    "Fields named like a secret (token, password, API key, authorization, cookie)",
    "Text shaped like a credential: API keys, bearer tokens, JWTs, passwords in addresses",
    "The contents of files the agent read or wrote through ClawQt (also where it quotes them), and of "
    "diffs (their length stays)",
    "Your home folder in paths, written as ~",
)
