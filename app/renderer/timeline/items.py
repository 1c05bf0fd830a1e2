"""Timeline items. Items are owned by one Timeline and patched in place (like Zed's thread entries);
`version` grows on every change so views can cache by (id, version), and unchanged items keep their
identity. Their plain-data forms are written in `serialize.py`."""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.contract.elicitation import Form, QuestionReason
from app.contract.proposals import CardState, ProposalChoice
from app.renderer.timeline.parts import (
    Attachment,
    AttachmentPart,
    MarkdownPart,
    Part,
    attachments_of,
)

Role = Literal["user", "assistant"]
ToolStatus = Literal["pending", "running", "completed", "failed", "cancelled"]
PermissionStatus = Literal["pending", "selected", "cancelled"]
QuestionStatus = Literal["waiting", "accept", "decline", "cancel"]


@dataclass(eq=False, slots=True)
class ItemBase:
    id: str
    historical: bool = False
    version: int = 0

    def touch(self) -> None:
        self.version += 1

    @property
    def visible(self) -> bool:
        """Whether the item makes a display block (attachment-only segments do not)."""
        return True

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return ()


@dataclass(eq=False, slots=True)
class MessageSegment(ItemBase):
    role: Role = "assistant"
    message_id: str = ""
    segment_index: int = 0
    parts: list[Part] = field(default_factory=list)
    optimistic: bool = False
    echoed: bool = False
    kind: Literal["message"] = "message"

    @property
    def visible(self) -> bool:
        for part in self.parts:
            if isinstance(part, AttachmentPart):
                continue
            if isinstance(part, MarkdownPart):
                if part.scanner is not None:
                    if part.scanner.has_prose:
                        return True
                elif part.nonblank:
                    return True
                continue
            return True
        return False

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return attachments_of(self.parts)


@dataclass(eq=False, slots=True)
class Thought(ItemBase):
    parts: list[Part] = field(default_factory=list)
    kind: Literal["thought"] = "thought"

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return attachments_of(self.parts)

    @property
    def visible(self) -> bool:
        return any(not isinstance(p, AttachmentPart) for p in self.parts)


TERMINAL_CAP_CHARS = 2 * 1024 * 1024
TRIM_MARKER = "\x1b[2m[earlier output trimmed]\x1b[0m\r\n"


@dataclass(eq=False, slots=True)
class TerminalState:
    """What a terminal card needs; output is kept as received chunks (rendered by the view/replay),
    capped at TERMINAL_CAP_CHARS: the oldest output is dropped and `trimmed` set (the card says so)."""

    terminal_id: str
    cwd: str | None = None
    chunks: list[str] = field(default_factory=list)
    exit_code: int | None = None
    signal: str | None = None
    exited: bool = False
    trimmed: bool = False
    size: int = 0
    revision: int = 0  # bumped when output is replaced or trimmed (views restart their emulator)
    note: str = ""  # why ClawQt ended it, when it did
    decoder: codecs.IncrementalDecoder | None = None  # UTF-8 across base64 chunks (v2 updates)

    def append(self, text: str) -> None:
        if not text:
            return
        self.chunks.append(text)
        self.size += len(text)
        if self.size > TERMINAL_CAP_CHARS:
            self._trim()

    def replace(self, text: str) -> None:
        self.chunks = [text] if text else []
        self.size = len(text)
        self.revision += 1
        if self.size > TERMINAL_CAP_CHARS:
            self._trim()

    def _trim(self) -> None:
        joined = "".join(self.chunks)
        cut = len(joined) - TERMINAL_CAP_CHARS // 2
        newline = joined.find("\n", cut)
        kept = joined[newline + 1 if 0 <= newline < cut + 4096 else cut :]
        self.chunks = [kept]
        self.size = len(kept)
        self.trimmed = True
        self.revision += 1

    @property
    def output(self) -> str:
        if len(self.chunks) > 1:
            self.chunks[:] = ["".join(self.chunks)]
        body = self.chunks[0] if self.chunks else ""
        return TRIM_MARKER + body if self.trimmed else body


@dataclass(eq=False, slots=True)
class ToolCall(ItemBase):
    tool_call_id: str = ""
    title: str = ""
    tool_kind: str = "other"
    status: ToolStatus = "pending"
    input: Any = None
    output: Any = None
    output_parts: list[Part] = field(default_factory=list)
    # the agent's list once it sends one; until then (most calls) no empty list of their own
    locations: Sequence[dict[str, Any]] = ()
    terminal_ids: tuple[str, ...] = ()
    terminals: dict[str, TerminalState] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # the agent's `error` field, kept until it sends another
    parts_dropped: int = 0  # content chunks past MAX_TOOL_PARTS, counted, not kept
    # it runs the proposal CLI: its card shows the proposal, so the call itself draws nothing (its
    # status is still kept: the turn's tool bookkeeping ends with it)
    proposal_call: bool = False
    # when its first and its finishing update arrived (live updates only): the card's duration
    started_at: float | None = None
    ended_at: float | None = None
    permission_id: str = ""  # the latest permission request about this call (its card's footer)
    kind: Literal["tool"] = "tool"

    @property
    def visible(self) -> bool:
        return not self.proposal_call

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return () if self.proposal_call else attachments_of(self.output_parts)

    @property
    def terminal(self) -> TerminalState | None:
        """The terminal shown in the card: the first one the call names."""
        for terminal_id in self.terminal_ids:
            if terminal_id in self.terminals:
                return self.terminals[terminal_id]
        return None


@dataclass(eq=False, slots=True)
class PermissionItem(ItemBase):
    request_id: str = ""
    tool_call: dict[str, Any] = field(default_factory=dict)
    options: list[dict[str, Any]] = field(default_factory=list)
    hidden_options: int = 0  # the agent offered more than the main side shows
    request_text: str = ""  # the command (or raw input) the request states, as the main side shows it
    request_kind: str = ""  # "command", "input" or ""
    status: PermissionStatus = "pending"
    selected_option: str | None = None
    rule_id: str = ""  # answered by the user's rule: which, and in words
    rule_words: str = ""
    kind: Literal["permission"] = "permission"


@dataclass(eq=False, slots=True)
class ElicitationItem(ItemBase):
    """The agent's question (`elicitation:<request id>`): a form or a link, as the main side read it;
    once it ended, how (`status`: the action answered, `reason`: why) and what was sent."""

    request_id: str = ""
    message: str = ""
    form: Form | None = None
    url: str = ""
    host: str = ""
    host_warning: str = ""
    refused: str = ""  # why ClawQt could not show it
    status: QuestionStatus = "waiting"
    reason: QuestionReason | None = None
    answers: tuple[tuple[str, str], ...] = ()
    completed: bool = False  # a link's flow the agent said is done
    kind: Literal["elicitation"] = "elicitation"


@dataclass(eq=False, slots=True)
class PlanItem(ItemBase):
    entries: list[dict[str, Any]] = field(default_factory=list)
    kind: Literal["plan"] = "plan"


@dataclass(eq=False, slots=True)
class TurnEnd(ItemBase):
    """A turn the user stopped before the agent said anything: it keeps a (footer-only) turn in the
    conversation, which says so, instead of leaving just the question."""

    reason: str = "cancelled"
    kind: Literal["turn-end"] = "turn-end"

    @property
    def visible(self) -> bool:
        return False


@dataclass(eq=False, slots=True)
class ProposalItem(ItemBase):
    """A recommendation card: the terminal actions an agent proposes and whether they can still run.
    Live state, set by the main side's ProposalEnvelopes (`proposal:<proposal id>`); one rebuilt from a
    replayed CLI invocation of an earlier run is `expired` (`proposal:channel:<channel>`) and never
    dispatches. `readable` is False when that invocation's payload could not be read."""

    proposal_id: str = ""  # "" for a card rebuilt from history
    channel: str = ""
    turn_id: str = ""
    origin: str = "terminal_agent"
    choices: tuple[ProposalChoice, ...] = ()
    recommended: int | None = None
    state: CardState = "awaiting"
    reason: str = ""
    send_target_title: str = ""
    readable: bool = True
    shortened: bool = False  # a rebuilt card's payload said more than a proposal may (cut)
    kind: Literal["proposal"] = "proposal"


Item = (
    MessageSegment | Thought | ToolCall | PermissionItem | ElicitationItem | PlanItem | TurnEnd | ProposalItem
)


def is_user(item: Item) -> bool:
    return isinstance(item, MessageSegment) and item.role == "user"
