"""Terminal-action proposals (seed 001): what an agent may propose for the user's terminals, the wire
statuses of the proposal endpoint, the canonical invocation both sides recognise, and what the card shows.

Plain data and pure text functions: the main side validates, arms and dispatches
(`app/main/proposal_*.py`); the renderer shows cards from `ProposalEnvelope`s and answers through
`ProposalsHost` (app/contract/host_api.py). Nothing here can change a terminal: only the user's
confirmation, through the main side, does."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any, Literal

SCHEMA_VERSION = 1
MAX_PAYLOAD_BYTES = 8 * 1024  # the payload's compact UTF-8 JSON
MAX_FRAME_BYTES = 49 * 1024  # one request or response line, its newline not counted
CLI_COMMAND = "propose-terminal-actions"
CHANNEL_RE = re.compile(r"^v1\.[0-9a-f]{32}\.[0-9a-f]{32}$")

ValidationStatus = Literal[
    "accepted",
    "unknown_channel",
    "helper_mismatch",
    "not_armed",
    "stale",
    "superseded",
    "expired",
    "digest_mismatch",
    "already_consumed",
    "invalid_schema",
    "rejected",
    "unavailable",
]
FinalStatus = Literal["confirmed", "cancelled", "superseded", "session_replaced", "timed_out", "unavailable"]
# what a card shows: waiting for the user, or how it ended ("expired": seen again after a reload)
CardState = Literal[
    "awaiting",
    "confirmed",
    "cancelled",
    "superseded",
    "session_replaced",
    "timed_out",
    "unavailable",
    "expired",
    "refused",  # never waited for the user: the payload was refused (the card says why)
]
ActionType = Literal["send", "open", "open_and_send"]
Origin = Literal["terminal_agent", "autofix"]


@dataclass(frozen=True)
class ProposalAction:
    """One action of a choice. `send` types `input` into the target terminal (captured when the prompt
    was sent, never named by the payload); `open` opens a terminal (`cwd`, `title`); `open_and_send`
    opens one and types `input` in it."""

    type: ActionType
    input: str = ""
    target: Literal["tab", "panel"] | None = None
    cwd: str | None = None
    title: str | None = None
    direction: str | None = None
    profile: str | None = None
    delegate: bool = False
    profile_missing: bool = False  # set by ClawQt: `profile` names no shell here (the user's own opens)


@dataclass(frozen=True)
class ProposalChoice:
    choice: int
    title: str
    rationale: str
    actions: tuple[ProposalAction, ...]


@dataclass(frozen=True)
class ProposalEnvelope:
    """A proposal card appeared or changed state. `send_target` names the terminal a `send` goes to
    (injected by ClawQt: the terminal the user used last when the prompt was sent), `send_target_title`
    what the card calls it; `reason` says why a card can no longer dispatch."""

    session_key: str
    generation: int
    proposal_id: str
    turn_id: str
    origin: Origin
    choices: tuple[ProposalChoice, ...]
    recommended: int | None
    state: CardState
    send_target: str | None = None
    send_target_title: str = ""
    reason: str = ""
    # the channel the proposal came through: a replayed history names it in the CLI's invocation, so a
    # card still live in this run takes that place again instead of showing as expired
    channel: str = ""
    kind: Literal["proposal"] = "proposal"


@dataclass(frozen=True)
class ProposalNoticeEnvelope:
    """The agent tried to propose terminal actions and no card could be shown: why, and what to change,
    said on the chat it was about ("" when it is about every chat: proposals are off)."""

    session_key: str
    text: str
    kind: Literal["proposal_notice"] = "proposal_notice"


def compact_payload(payload: dict[str, Any]) -> str:
    """The payload as the canonical invocation carries it: compact JSON with `'` written `\\u0027`, so a
    single-quoted shell word always holds it."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).replace("'", "\\u0027")


def canonical_invocation(executable: str, channel: str, payload_json: str) -> str:
    """`"<executable>" propose-terminal-actions --channel <c> --payload-json '<compact JSON>'`."""
    return f"\"{executable}\" {CLI_COMMAND} --channel {channel} --payload-json '{payload_json}'"


@dataclass(frozen=True)
class ParsedInvocation:
    executable: str
    channel: str
    payload_json: str


def parse_canonical(command: str, executable: str) -> ParsedInvocation | None:
    """The invocation if `command` is exactly the canonical form for `executable` (quoting as
    `canonical_invocation` writes it), else None."""
    prefix = f'"{executable}" {CLI_COMMAND} --channel '
    if not command.startswith(prefix):
        return None
    rest = command[len(prefix) :]
    channel, sep, tail = rest.partition(" --payload-json '")
    if not sep or not CHANNEL_RE.fullmatch(channel) or not tail.endswith("'"):
        return None
    payload_json = tail[:-1]
    if "'" in payload_json:
        return None
    return ParsedInvocation(executable, channel, payload_json)


def mentions_proposal_cli(command: str) -> bool:
    """Whether `command` tries to reach the proposal CLI at all (recognisable but maybe not canonical)."""
    if CLI_COMMAND not in command:
        return False
    try:
        words = shlex.split(command, posix=True)
    except ValueError:
        return True  # unbalanced quotes around our command word: recognisable, not canonical
    return CLI_COMMAND in words or any(CLI_COMMAND in word for word in words)


# an executable path that a double-quoted shell word holds literally: absolute, no expansion, no control
_LITERAL_EXECUTABLE = re.compile(r'/[^"$`\\!\x00-\x1f\x7f]*')
_INERT_PAYLOAD = re.compile("[^'\x00-\x1f\x7f]*")
_SHELLS = frozenset(f"{d}{s}" for s in ("sh", "bash", "zsh", "dash") for d in ("", "/bin/", "/usr/bin/"))


def invocation_in(command: str) -> ParsedInvocation | None:
    """The canonical invocation `command` is, whatever absolute executable path it names (the card's
    view: ClawQt's path may differ between runs, and history from an earlier run is still a proposal).
    Only a command that runs nothing but that executable qualifies: the path needs no expansion inside
    its double quotes and the payload is one inert single-quoted word, so hiding such a tool call never
    hides anything else it runs."""
    if not command.startswith('"'):
        return None
    executable = command[1 : command.find('"', 1)] if command.find('"', 1) > 0 else ""
    if not _LITERAL_EXECUTABLE.fullmatch(executable):
        return None
    parsed = parse_canonical(command, executable)
    if (
        parsed is None
        or not CHANNEL_RE.fullmatch(parsed.channel)
        or not _INERT_PAYLOAD.fullmatch(parsed.payload_json)
        or canonical_invocation(executable, parsed.channel, parsed.payload_json) != command
    ):
        return None
    return parsed


def tool_call_invocation(tool_call: Any) -> ParsedInvocation | None:
    """The proposal invocation an ACP tool call runs (any executable path), read where the permission
    path reads a command (`app/main/proposals/recognition.py`): rawInput `{"command": ...}` as a string,
    an argv list (Codex: `["bash", "-lc", "<command>"]`, or the CLI's own argv), a bare string or argv
    as rawInput, and the title only when there is no rawInput at all."""
    if not isinstance(tool_call, dict):
        return None
    raw = tool_call.get("rawInput")
    if raw is None:
        raw = tool_call.get("title")
    elif isinstance(raw, dict):
        raw = raw.get("command")
    if isinstance(raw, str):
        return invocation_in(raw)
    if not isinstance(raw, list) or not all(isinstance(word, str) for word in raw):
        return None
    if len(raw) == 3 and raw[0] in _SHELLS and raw[1] in ("-c", "-lc"):
        return invocation_in(raw[2])
    if (
        len(raw) == 6
        and raw[0].startswith("/")
        and raw[1:3] == [CLI_COMMAND, "--channel"]
        and CHANNEL_RE.fullmatch(raw[3])
        and raw[4] == "--payload-json"
        and _INERT_PAYLOAD.fullmatch(raw[5])
    ):
        return ParsedInvocation(raw[0], raw[3], raw[5])
    return None
