"""Timeline items. Items are owned by one Timeline and patched in place (like Zed's thread entries);
`version` grows on every change so views can cache by (id, version), and unchanged items keep their
identity. `to_plain()` gives a comparable, JSON-ready view for tests and replay."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from app.renderer.timeline.parts import (
    Attachment,
    AttachmentPart,
    DiffPart,
    ErrorPart,
    ImagePart,
    MarkdownPart,
    Part,
    TerminalRefPart,
    attachments_of,
)

Role = Literal["user", "assistant"]
ToolStatus = Literal["pending", "running", "completed", "failed", "cancelled"]
PermissionStatus = Literal["pending", "selected", "cancelled"]


def _plain_part(part: Part) -> dict[str, Any]:
    if isinstance(part, MarkdownPart):
        return {"kind": "markdown", "text": part.text}
    if isinstance(part, ImagePart):
        return {"kind": "image", "uri": part.uri}
    if isinstance(part, AttachmentPart):
        a = part.attachment
        return {"kind": "attachment", "name": a.name, "uri": a.uri, "status": a.status, "source": a.source}
    if isinstance(part, DiffPart):
        return {"kind": "diff", "path": part.path, "old": part.old_text, "new": part.new_text}
    if isinstance(part, TerminalRefPart):
        return {"kind": "terminal", "terminalId": part.terminal_id}
    assert isinstance(part, ErrorPart)
    return {"kind": "error", "text": part.text}


@dataclass(eq=False)
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


@dataclass(eq=False)
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

    def to_plain(self) -> dict[str, Any]:
        return {
            "kind": "message",
            "id": self.id,
            "role": self.role,
            "messageId": self.message_id,
            "segment": self.segment_index,
            "optimistic": self.optimistic,
            "historical": self.historical,
            "parts": [_plain_part(p) for p in self.parts],
        }


@dataclass(eq=False)
class Thought(ItemBase):
    parts: list[Part] = field(default_factory=list)
    kind: Literal["thought"] = "thought"

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return attachments_of(self.parts)

    @property
    def visible(self) -> bool:
        return any(not isinstance(p, AttachmentPart) for p in self.parts)

    def to_plain(self) -> dict[str, Any]:
        return {
            "kind": "thought",
            "id": self.id,
            "historical": self.historical,
            "parts": [_plain_part(p) for p in self.parts],
        }


TERMINAL_CAP_CHARS = 2 * 1024 * 1024
TRIM_MARKER = "\x1b[2m[earlier output trimmed]\x1b[0m\r\n"


@dataclass(eq=False)
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
    decoder: object | None = None  # an incremental UTF-8 decoder for base64 chunks (v2 updates)

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

    def to_plain(self) -> dict[str, Any]:
        return {
            "terminalId": self.terminal_id,
            "cwd": self.cwd,
            "output": self.output,
            "exitCode": self.exit_code,
            "signal": self.signal,
        }


@dataclass(eq=False)
class ToolCall(ItemBase):
    tool_call_id: str = ""
    title: str = ""
    tool_kind: str = "other"
    status: ToolStatus = "pending"
    input: Any = None
    output: Any = None
    output_parts: list[Part] = field(default_factory=list)
    locations: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    terminal_ids: list[str] = field(default_factory=list)
    terminals: dict[str, TerminalState] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    kind: Literal["tool"] = "tool"

    @property
    def attachments(self) -> tuple[Attachment, ...]:
        return attachments_of(self.output_parts)

    @property
    def terminal(self) -> TerminalState | None:
        """The terminal shown in the card: the first one the call names."""
        for terminal_id in self.terminal_ids:
            if terminal_id in self.terminals:
                return self.terminals[terminal_id]
        return None

    def to_plain(self) -> dict[str, Any]:
        terminal = self.terminal
        return {
            "kind": "tool",
            "id": self.id,
            "toolCallId": self.tool_call_id,
            "title": self.title,
            "toolKind": self.tool_kind,
            "status": self.status,
            "historical": self.historical,
            "parts": [_plain_part(p) for p in self.output_parts],
            "locations": self.locations,
            "terminal": terminal.to_plain() if terminal else None,
        }


@dataclass(eq=False)
class PermissionItem(ItemBase):
    request_id: str = ""
    tool_call: dict[str, Any] = field(default_factory=dict)
    options: list[dict[str, Any]] = field(default_factory=list)
    status: PermissionStatus = "pending"
    selected_option: str | None = None
    kind: Literal["permission"] = "permission"

    def to_plain(self) -> dict[str, Any]:
        return {
            "kind": "permission",
            "id": self.id,
            "status": self.status,
            "selected": self.selected_option,
            "options": [
                {"optionId": o.get("optionId"), "name": o.get("name"), "kind": o.get("kind")}
                for o in self.options
            ],
        }


@dataclass(eq=False)
class PlanItem(ItemBase):
    entries: list[dict[str, Any]] = field(default_factory=list)
    kind: Literal["plan"] = "plan"

    def to_plain(self) -> dict[str, Any]:
        return {"kind": "plan", "id": self.id, "entries": self.entries}


Item = MessageSegment | Thought | ToolCall | PermissionItem | PlanItem


def is_user(item: Item) -> bool:
    return isinstance(item, MessageSegment) and item.role == "user"


@dataclass(eq=False)
class Metadata:
    """Session metadata from updates that are not timeline items."""

    title: str | None = None
    updated_at: str | None = None
    mode: str | None = None
    commands: list[dict[str, Any]] = field(default_factory=list)
    config_options: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] | None = None

    def to_plain(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "updatedAt": self.updated_at,
            "mode": self.mode,
            "commands": self.commands,
            "configOptions": self.config_options,
            "usage": self.usage,
        }
