"""The routing envelopes the main side emits to the renderer, and the results host calls return.

Plain, frozen data: the renderer may keep them, never mutate shared state through them. Every envelope
about a session carries the session key (the identity the renderer shows) and the main-owned
generation token; the renderer drops what matches neither its selected session nor a live prompt.
`kind` is a stable string so envelopes serialize and dispatch without isinstance checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from app.contract.agents import AgentRunState, AgentsChangedEnvelope
from app.contract.elicitation import QuestionAskedEnvelope, QuestionEndedEnvelope
from app.contract.hidden_context import strip_hidden_context
from app.contract.mcp_servers import McpServerProblemEnvelope
from app.contract.openclaw_prompts import strip_cwd_prefix
from app.contract.proposals import ProposalEnvelope, ProposalNoticeEnvelope
from app.contract.rules import RulesChangedEnvelope
from app.contract.sign_in import SignInEnvelope, SignInTerminalEnvelope

# "sign-in": the agent runs but refuses to open chats until someone signs in
AgentStateName = Literal["idle", "starting", "ready", "sign-in", "exited", "failed"]


def run_state(state: AgentStateName) -> AgentRunState:
    """An agent's state as the picker says it: a child not started (idle) is "stopped"."""
    return "stopped" if state == "idle" else state


@dataclass(frozen=True)
class SessionUpdateEnvelope:
    """One `session/update` notification, verbatim except `sessionId` rewritten to the session key.

    `historical` is true for load replay (and for updates after a load until the first live prompt).
    Unknown update kinds, unknown fields and `_meta` are preserved: the reducer decides what to ignore.
    """

    session_key: str
    generation: int
    historical: bool
    notification: dict[str, Any]
    kind: Literal["session_update"] = "session_update"
    # when a live update arrived (the main side's monotonic clock; None in replays and loads): how long
    # a tool call ran is told from it
    received_at: float | None = None


@dataclass(frozen=True)
class ReplayEnvelope:
    """Part of a load's replay, sent while the load is still running: the renderer folds it into the
    timeline it is building for that load (shown only when the load commits), so a long history's
    decoded updates are freed a chunk at a time instead of being held until the agent answers."""

    session_key: str
    generation: int
    updates: tuple[SessionUpdateEnvelope, ...]
    kind: Literal["replay"] = "replay"


@dataclass(frozen=True)
class PermissionRequestEnvelope:
    """The agent asks the user to choose; answer with `ChatService.answer_permission(request_id, ...)`."""

    session_key: str
    generation: int
    request_id: str
    tool_call: dict[str, Any]
    options: tuple[dict[str, Any], ...]
    hidden_options: int = 0  # offered by the agent past the main side's cap: not shown, cannot answer
    # the request's own words, shown verbatim beside the agent's title (app/main/sessions/permission_text.py):
    # the command it states ("command"), else its raw input as JSON ("input"), else nothing ("")
    request_text: str = ""
    request_kind: Literal["command", "input", ""] = ""
    kind: Literal["permission_request"] = "permission_request"


@dataclass(frozen=True)
class PermissionResolvedEnvelope:
    """A permission request ended: the user chose `option_id`, or it was cancelled (`reason` says why)."""

    session_key: str
    generation: int
    request_id: str
    outcome: Literal["selected", "cancelled"]
    option_id: str | None
    reason: str
    rule_id: str = ""  # answered by the user's rule (reason "rule"): which, and in words
    rule_words: str = ""
    kind: Literal["permission_resolved"] = "permission_resolved"


@dataclass(frozen=True)
class PromptSentEnvelope:
    """A prompt went to the agent: its content blocks as sent (the renderer shows the user's message from
    them unless it already shows it optimistically under `client_message_id`)."""

    session_key: str
    generation: int
    client_message_id: str
    prompt: tuple[dict[str, Any], ...]
    kind: Literal["prompt_sent"] = "prompt_sent"


@dataclass(frozen=True)
class PromptSettledEnvelope:
    """A prompt finished: `stop_reason` from the agent, or `error` (then the optimistic message may go)."""

    session_key: str
    generation: int
    client_message_id: str
    stop_reason: str | None
    error: str | None
    elapsed_s: float
    stopped: bool = False  # the user pressed Stop, whatever the agent answered (some say `end_turn`)
    unconfirmed: bool = False  # ended by ClawQt: the agent did not answer within the grace after Stop
    usage: dict[str, Any] | None = None  # the turn's tokens, when the agent reports them (PromptResponse)
    kind: Literal["prompt_settled"] = "prompt_settled"


@dataclass(frozen=True)
class ToolCallsCancelledEnvelope:
    """Client-side status: these tool calls were still open when the turn was cancelled or died."""

    session_key: str
    generation: int
    tool_call_ids: tuple[str, ...]
    kind: Literal["tool_calls_cancelled"] = "tool_calls_cancelled"


@dataclass(frozen=True)
class TerminalOutputEnvelope:
    """Output of a client-side terminal (terminal/create) as it arrives, decoded incrementally (a
    chunk never ends inside a UTF-8 character); `exited` with code or signal once it ends."""

    session_key: str
    generation: int
    terminal_id: str
    data: str
    exited: bool = False
    exit_code: int | None = None
    signal: str | None = None
    note: str = ""  # why ClawQt ended it, when it did ("killed after Stop")
    kind: Literal["terminal_output"] = "terminal_output"


@dataclass(frozen=True)
class FileChangesEnvelope:
    """The files the agent changed in a turn changed (it wrote one, or one was reverted): views showing
    that turn ask `files.changes(session_key, turn_id)` again. `turn_id` is the prompt's message id."""

    session_key: str
    generation: int
    turn_id: str
    kind: Literal["file_changes"] = "file_changes"


TRANSCRIPT_MATCH_CHARS = 2000


def transcript_match_text(text: str) -> str:
    """A user text as both sides compare it to match a transcript turn: OpenClaw's `[Working
    directory: …]` prefix and ClawQt's hidden context removed, outer whitespace trimmed, bounded."""
    text = strip_hidden_context(text)
    return strip_cwd_prefix(text.lstrip()).strip()[:TRANSCRIPT_MATCH_CHARS]


@dataclass(frozen=True)
class TranscriptTurn:
    """One turn of OpenClaw's Gateway transcript, reduced to what seed 003 allows ClawQt to take from
    it: the user text it is matched by, the media OpenClaw stripped from the reply, the images its
    `image_generate` made (shown inline, never as cards; also those a background generation started by
    this turn delivered later), the whole-turn duration, and the background generations it started that
    have not delivered yet (`waiting`, their task ids). Never text, tools or turns of its own."""

    user_text: str
    media: tuple[str, ...] = ()
    duration_s: float | None = None
    images: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True)
class TranscriptSupplementEnvelope:
    """Bounded, memory-only transcript evidence for an OpenClaw session: for the live prompt
    `client_message_id` (one turn), or for a load (`client_message_id` None: the newest turns, oldest
    first). The renderer attaches it only to unambiguously matched turns."""

    session_key: str
    generation: int
    turns: tuple[TranscriptTurn, ...]
    client_message_id: str | None = None
    kind: Literal["transcript_supplement"] = "transcript_supplement"


@dataclass(frozen=True)
class AgentStateEnvelope:
    """The agent process: starting (initialize running), ready, exited (code + stderr tail), failed."""

    state: AgentStateName
    agent_label: str
    command: str
    source: str
    reason: str
    message: str = ""
    exit_code: int | None = None
    stderr_tail: str = ""
    restart_in_s: float | None = None
    code: str = ""  # why it failed, as AgentUnavailable says it ("agent-not-found" ...), for the next step
    kind: Literal["agent_state"] = "agent_state"


@dataclass(frozen=True)
class AgentRecoveryEnvelope:
    """ClawQt restarts an agent that stayed unusable after its transport recovered (OpenClaw's bridge
    still answering "Gateway not connected" once its gateway answers again): `restarting`, then
    `restarted` (the view reloads `session_key` when it is the chat shown) or `failed` (the banner
    offers Reconnect). `message` says what happened, in one sentence."""

    phase: Literal["restarting", "restarted", "failed"]
    message: str
    session_key: str | None = None
    kind: Literal["agent_recovery"] = "agent_recovery"


@dataclass(frozen=True)
class DiagnosticEnvelope:
    """Something was dropped or refused (garbage line, unknown session, unknown response id, ...)."""

    level: Literal["info", "warning", "error"]
    code: str
    message: str
    session_key: str | None = None
    kind: Literal["diagnostic"] = "diagnostic"


Envelope = (
    SessionUpdateEnvelope
    | ReplayEnvelope
    | PermissionRequestEnvelope
    | PermissionResolvedEnvelope
    | QuestionAskedEnvelope
    | QuestionEndedEnvelope
    | PromptSentEnvelope
    | PromptSettledEnvelope
    | ToolCallsCancelledEnvelope
    | TerminalOutputEnvelope
    | FileChangesEnvelope
    | TranscriptSupplementEnvelope
    | AgentStateEnvelope
    | AgentRecoveryEnvelope
    | DiagnosticEnvelope
    | SignInEnvelope
    | SignInTerminalEnvelope
    | ProposalEnvelope
    | ProposalNoticeEnvelope
    | AgentsChangedEnvelope
    | RulesChangedEnvelope
    | McpServerProblemEnvelope
)


@dataclass(frozen=True)
class LoadResult:
    """A committed load or new session: ONE renderer commit. `updates` is the rest of its replay; the
    `replayed` updates before them came ahead in ReplayEnvelopes of the same generation."""

    session_key: str
    generation: int
    cwd: str
    updates: tuple[SessionUpdateEnvelope, ...]
    modes: dict[str, Any] | None = None
    config_options: tuple[dict[str, Any], ...] = ()
    resumed_live: bool = False
    created: bool = False
    replayed: int = 0

    @property
    def has_history(self) -> bool:
        return bool(self.updates) or self.replayed > 0


@dataclass(frozen=True)
class PromptResult:
    """How a prompt ended; `stop_reason` is one of ACP's (end_turn, cancelled, ...)."""

    session_key: str
    generation: int
    client_message_id: str
    stop_reason: str
    usage: dict[str, Any] | None = None


@dataclass(frozen=True)
class FileChangeView:
    """One file changed in a turn, ready to show: a sanitized name and the diff against what the agent
    last read of it (or the old file). `deleted`: the turn removed it; `note`: why there is no diff
    (a binary file, one too large to keep) or what else to know."""

    path: str
    name: str
    created: bool
    diff: str
    deleted: bool = False
    note: str = ""


@dataclass(frozen=True)
class HunkView:
    """One run of changed lines in a file: where (0-based first lines), what went and what came."""

    id: str
    old_start: int
    new_start: int
    removed: tuple[str, ...]
    added: tuple[str, ...]
    kept: bool = False


@dataclass(frozen=True)
class ReviewFileView:
    """One changed file of a turn as the review shows it: its hunks, or why it is undone whole."""

    path: str
    name: str
    status: str  # "created" | "modified" | "deleted"
    hunks: tuple[HunkView, ...] = ()
    whole: str = ""


@dataclass(frozen=True)
class SessionSummary:
    """One `session/list` entry (ids are session keys for OpenClaw, ACP ids otherwise)."""

    session_key: str
    title: str | None
    cwd: str | None
    updated_at: str | None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SessionPage:
    sessions: tuple[SessionSummary, ...]
    next_cursor: str | None


@dataclass(frozen=True)
class AgentInfo:
    """What `initialize` told us, flattened for the UI."""

    name: str
    title: str | None
    version: str | None
    protocol_version: int
    capabilities: dict[str, Any]
    auth_methods: tuple[dict[str, Any], ...] = ()

    def supports(self, *path: str) -> bool:
        """`supports("sessionCapabilities", "list")` -> whether that capability is present/true."""
        node: Any = self.capabilities
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
        return node is not None and node is not False
