"""The reducer: routing envelopes in, a flat timeline of items out, plus index-based row changes.

One Timeline per session key and generation. It owns its items and patches them in place (like
Zed's thread model): applying an update costs O(1) amortized in the length of the history, and every
`apply` returns the row changes the view needs. Rules: chat-timeline.md ("Renderer: the reducer");
each is pinned by a test in tests/unit/test_reducer_rules.py. Total: no envelope an agent can cause
makes it raise.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.contract.envelopes import (
    PermissionRequestEnvelope,
    PermissionResolvedEnvelope,
    PromptSentEnvelope,
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
    TerminalOutputEnvelope,
    ToolCallsCancelledEnvelope,
)
from app.renderer.timeline.grouping import Grouping
from app.renderer.timeline.items import (
    Item,
    MessageSegment,
    Metadata,
    PermissionItem,
    PlanItem,
    Role,
    Thought,
    ToolCall,
)
from app.renderer.timeline.media import MediaScanner, transcript_media
from app.renderer.timeline.parts import (
    Attachment,
    AttachmentPart,
    MarkdownPart,
    Part,
    TerminalRefPart,
    add_part,
    basename_of,
    content_to_part,
    tool_content_to_part,
)
from app.renderer.timeline.rows import Row, RowChange, RowsChanged
from app.renderer.timeline.terminals import TerminalRegistry

_TOOL_STATUS = {"pending": "pending", "in_progress": "running", "completed": "completed", "failed": "failed"}
METADATA_KINDS = frozenset(
    {
        "available_commands_update",
        "current_mode_update",
        "config_option_update",
        "session_info_update",
        "usage_update",
    }
)


@dataclass
class TurnTiming:
    """Client-observed timing of one prompt: from the optimistic send to settlement."""

    sent_at: float | None
    elapsed_s: float | None = None
    stop_reason: str | None = None
    error: str | None = None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class Timeline:
    """The in-memory timeline of one session (never persisted)."""

    def __init__(self, session_key: str, generation: int, *, cwd_known: bool = True) -> None:
        self.session_key = session_key
        self.generation = generation
        self.cwd_known = cwd_known
        self.order: list[str] = []
        self.items: dict[str, Item] = {}
        self.open_segments: dict[str, str] = {}  # messageId -> open segment item id
        self.segment_counts: dict[str, int] = {}
        self.open_thought: str | None = None
        self.optimistic: dict[str, str] = {}  # client message id -> optimistic segment id
        self.timings: dict[str, TurnTiming] = {}
        self.meta = Metadata()
        self.terminals = TerminalRegistry()
        self.grouping = Grouping(self.items)
        self.ignored = 0
        self._batch = False

    @property
    def rows(self) -> list[Row]:
        return self.grouping.rows

    # --- entry points ----------------------------------------------------------------------------
    def apply(self, envelope: Any) -> list[RowChange]:
        """Apply one envelope; returns the row changes (empty when ignored)."""
        self._changes: list[RowChange] = []
        self._dispatch(envelope)
        return self._changes

    def apply_batch(self, envelopes: Iterable[Any]) -> list[RowChange]:
        """A load's replay: reduce everything, then group once (one removal + one insertion)."""
        self._changes = []
        self._batch = True
        collecting = gc.isenabled()
        gc.disable()  # a replay allocates ~10 objects per update and frees none: skip the futile scans
        try:
            for envelope in envelopes:
                self._dispatch(envelope)
            return self.grouping.rebuild(self.order)
        finally:
            self._batch = False
            if collecting:
                gc.enable()

    def add_optimistic(
        self, message_id: str, text: str, attachments: Iterable[Part] = (), sent_at: float | None = None
    ) -> list[RowChange]:
        """The user's message, shown at once as `<message_id>:0` until (if ever) the agent echoes it."""
        self._changes = []
        self._add_optimistic(message_id, text, attachments, sent_at)
        return self._changes

    def _add_optimistic(
        self, message_id: str, text: str, attachments: Iterable[Part], sent_at: float | None
    ) -> None:
        self._close_segments()
        segment_id = f"{message_id}:0"
        if segment_id in self.items:
            return
        segment = MessageSegment(id=segment_id, role="user", message_id=message_id, optimistic=True)
        if text.strip():
            segment.parts.append(MarkdownPart([text.strip()]))
        segment.parts.extend(attachments)
        self.segment_counts[message_id] = 1
        self.open_segments[message_id] = segment_id
        self.optimistic[message_id] = segment_id
        self.timings[message_id] = TurnTiming(sent_at)
        self._append(segment)

    # --- dispatch --------------------------------------------------------------------------------
    def _mine(self, envelope: Any) -> bool:
        if getattr(envelope, "session_key", None) != self.session_key:
            return False
        return getattr(envelope, "generation", None) == self.generation

    def _dispatch(self, envelope: Any) -> None:
        if not self._mine(envelope):
            self.ignored += 1
            return
        if isinstance(envelope, SessionUpdateEnvelope):
            notification = envelope.notification
            update = notification.get("update") if isinstance(notification, dict) else None
            if not isinstance(update, dict):
                self.ignored += 1
                return
            self._update(update, envelope.historical)
        elif isinstance(envelope, PermissionRequestEnvelope):
            self._permission_request(envelope)
        elif isinstance(envelope, PermissionResolvedEnvelope):
            self._permission_resolved(envelope)
        elif isinstance(envelope, PromptSentEnvelope):
            self._prompt_sent(envelope)
        elif isinstance(envelope, PromptSettledEnvelope):
            self._prompt_settled(envelope)
        elif isinstance(envelope, ToolCallsCancelledEnvelope):
            self._tools_cancelled(envelope)
        elif isinstance(envelope, TerminalOutputEnvelope):
            owner = self.terminals.apply_client_output(
                envelope.terminal_id, envelope.data, envelope.exited, envelope.exit_code, envelope.signal
            )
            if owner is not None and owner.id in self.items:
                self._touch(owner)
        else:
            self.ignored += 1

    def _update(self, update: dict[str, Any], historical: bool) -> None:
        kind = update.get("sessionUpdate")
        if not isinstance(kind, str):
            self.ignored += 1
            return
        if kind == "agent_message_chunk":
            self._message("assistant", update, historical)
        elif kind == "user_message_chunk":
            self._message("user", update, historical)
        elif kind == "agent_thought_chunk":
            self._thought(update, historical)
        elif kind in ("tool_call", "tool_call_update"):
            self._tool(update, historical)
        elif kind == "plan":
            self._plan(update, historical)
        elif kind in METADATA_KINDS:
            self._metadata(kind, update)
        elif kind in ("terminal_update", "terminal_output_chunk"):
            understood, owner = self.terminals.apply_v2(update)
            if not understood:
                self.ignored += 1
            elif owner is not None and owner.id in self.items:
                self._touch(owner)
        else:
            self.ignored += 1

    # --- item plumbing ---------------------------------------------------------------------------
    def _append(self, item: Item) -> None:
        self.items[item.id] = item
        self.order.append(item.id)
        if not self._batch:
            self._changes.extend(self.grouping.appended(item.id))

    def _touch(self, item: Item) -> None:
        item.touch()
        if not self._batch:
            self._changes.extend(self.grouping.changed(item.id))

    def _remove(self, item_id: str) -> None:
        if item_id not in self.items:
            return
        for index in range(len(self.order) - 1, -1, -1):
            if self.order[index] == item_id:
                del self.order[index]
                break
        if not self._batch:
            self._changes.extend(self.grouping.removed(item_id))
        del self.items[item_id]

    def _close_segments(self) -> None:
        """Every process item closes ALL open segments (and the open thought)."""
        self.open_segments.clear()
        self.open_thought = None

    # --- messages --------------------------------------------------------------------------------
    def _new_part(self, content: Any, role: Role) -> Part:
        return content_to_part(content, role)

    def _scan_new_prose(self, segment: MessageSegment) -> None:
        """Assistant prose parts get a MEDIA scanner when they join a segment (merged chunks are fed
        to the existing part's scanner by `MarkdownPart.append`)."""
        if segment.role != "assistant":
            return
        for part in segment.parts:
            if isinstance(part, MarkdownPart) and part.scanner is None:
                part.scanner = MediaScanner(self.cwd_known)
                for chunk in part.chunks:
                    part.scanner.feed(chunk)

    def _message(self, role: Role, update: dict[str, Any], historical: bool) -> None:
        self._message_part(role, update, historical)
        media = transcript_media(update.get("_meta")) if role == "assistant" else []
        last = self.items.get(self.order[-1]) if media and self.order else None
        if isinstance(last, MessageSegment) and last.role == "assistant":
            known = {p.attachment.uri for p in last.parts if isinstance(p, AttachmentPart)}
            for uri in media:
                if uri not in known:
                    name = basename_of(uri)
                    last.parts.append(AttachmentPart(Attachment(name, uri, source="media-transcript")))
            self._touch(last)

    def _message_part(self, role: Role, update: dict[str, Any], historical: bool) -> None:
        part = self._new_part(update.get("content"), role)
        message_id = _str(update.get("messageId"))
        self.open_thought = None
        if message_id is not None:
            optimistic_id = self.optimistic.get(message_id) if role == "user" else None
            if optimistic_id is not None and optimistic_id in self.items:
                self._echo(self.items[optimistic_id], part, historical)  # type: ignore[arg-type]
                return
            segment_id = self.open_segments.get(message_id)
            segment = self.items.get(segment_id) if segment_id else None
            if isinstance(segment, MessageSegment) and segment.role == role:
                self._add_to_segment(segment, part, historical)
                return
            self._new_segment(role, message_id, part, historical)
            return
        last = self.items.get(self.order[-1]) if self.order else None
        if (
            isinstance(last, MessageSegment)
            and last.role == role
            and self.open_segments.get(last.message_id) == last.id
        ):
            if last.optimistic and not last.echoed:
                self._echo(last, part, historical)
            else:
                self._add_to_segment(last, part, historical)
            return
        self._new_segment(role, f"{role}:message:{len(self.order)}", part, historical)

    def _new_segment(self, role: Role, message_id: str, part: Part, historical: bool) -> None:
        index = self.segment_counts.get(message_id, 0)
        segment_id = f"{message_id}:{index}"
        while segment_id in self.items:  # a synthetic id can collide after removals: never reuse
            index += 1
            segment_id = f"{message_id}:{index}"
        self.segment_counts[message_id] = index + 1
        segment = MessageSegment(
            id=segment_id, role=role, message_id=message_id, segment_index=index, historical=historical
        )
        add_part(segment.parts, part)
        self._scan_new_prose(segment)
        self.open_segments[message_id] = segment_id
        self._append(segment)

    def _add_to_segment(self, segment: MessageSegment, part: Part, historical: bool) -> None:
        if (
            segment.echoed
            and isinstance(part, AttachmentPart)
            and any(
                isinstance(p, AttachmentPart) and p.attachment.uri == part.attachment.uri
                for p in segment.parts
            )
        ):
            return  # an echoed attachment the optimistic message already shows
        add_part(segment.parts, part, join_first_markdown=segment.role == "user")
        if isinstance(part, MarkdownPart) and segment.parts and segment.parts[-1] is part:
            self._scan_new_prose(segment)
        segment.historical = segment.historical or historical
        self._touch(segment)

    def _echo(self, segment: MessageSegment, part: Part, historical: bool) -> None:
        """The agent echoed the optimistic message: its content replaces ours; our attachments that the
        echo lacks are kept. Later chunks of the echo append normally."""
        if segment.echoed:
            self._add_to_segment(segment, part, historical)
            return
        kept = [p for p in segment.parts if isinstance(p, AttachmentPart)]
        segment.parts = []
        add_part(segment.parts, part)
        echo_uris = {p.attachment.uri for p in segment.parts if isinstance(p, AttachmentPart)}
        segment.parts.extend(p for p in kept if p.attachment.uri not in echo_uris)
        segment.optimistic = False
        segment.echoed = True
        segment.historical = segment.historical or historical
        self.open_segments[segment.message_id] = segment.id
        self._touch(segment)

    # --- process items ---------------------------------------------------------------------------
    def _thought(self, update: dict[str, Any], historical: bool) -> None:
        part = content_to_part(update.get("content"), "assistant")
        message_id = _str(update.get("messageId"))
        self.open_segments.clear()
        if message_id is not None:
            thought_id = f"thought:{message_id}"
        elif self.open_thought is not None and self.order and self.order[-1] == self.open_thought:
            thought_id = self.open_thought
        else:
            thought_id = f"thought:{len(self.order)}"
            while thought_id in self.items:
                thought_id += "+"
        existing = self.items.get(thought_id)
        if isinstance(existing, Thought):
            add_part(existing.parts, part)
            existing.historical = existing.historical or historical
            self.open_thought = thought_id
            self._touch(existing)
            return
        if existing is not None:  # an id clash with another kind: never overwrite
            thought_id = f"{thought_id}#{len(self.order)}"
        thought = Thought(id=thought_id, historical=historical)
        add_part(thought.parts, part)
        self.open_thought = thought_id
        self._append(thought)

    def _tool(self, update: dict[str, Any], historical: bool) -> None:
        tool_call_id = _str(update.get("toolCallId"))
        if tool_call_id is None:
            self.ignored += 1
            return
        self._close_segments()
        item_id = f"tool:{tool_call_id}"
        tool = self.items.get(item_id)
        created = tool is None
        if tool is None:
            tool = ToolCall(id=item_id, tool_call_id=tool_call_id, title=tool_call_id, historical=historical)
        elif not isinstance(tool, ToolCall):
            self.ignored += 1
            return
        self._patch_tool(tool, update, historical)
        touched = self.terminals.apply_meta(tool, update.get("_meta"))
        if created:
            self._append(tool)
        else:
            self._touch(tool)
        for other in touched:
            if other is not tool and other.id in self.items:
                self._touch(other)

    def _patch_tool(self, tool: ToolCall, update: dict[str, Any], historical: bool) -> None:
        """Patch only the fields present; content and locations replace."""
        title = _str(update.get("title"))
        if title is not None:
            tool.title = title
        kind = _str(update.get("kind"))
        if kind is not None:
            tool.tool_kind = kind
        status = update.get("status")
        if isinstance(status, str) and status in _TOOL_STATUS:
            tool.status = _TOOL_STATUS[status]  # type: ignore[assignment]
        if "rawInput" in update:
            tool.input = update["rawInput"]
        if "rawOutput" in update:
            tool.output = update["rawOutput"]
        content = update.get("content")
        if isinstance(content, list):
            parts: list[Part] = []
            for entry in content:
                part = tool_content_to_part(entry)
                parts.append(part)
                if isinstance(part, TerminalRefPart):
                    self.terminals.attach(tool, part.terminal_id)
            tool.output_parts = parts
        locations = update.get("locations")
        if isinstance(locations, list):
            tool.locations = [loc for loc in locations if isinstance(loc, dict)]
        meta = update.get("_meta")
        if isinstance(meta, dict):
            tool.meta = meta
        tool.historical = tool.historical or historical

    def _plan(self, update: dict[str, Any], historical: bool) -> None:
        entries = update.get("entries")
        plain = [
            {
                "content": e.get("content") if isinstance(e.get("content"), str) else "",
                "status": e.get("status") if isinstance(e.get("status"), str) else "pending",
                "priority": e.get("priority") if isinstance(e.get("priority"), str) else "medium",
            }
            for e in (entries if isinstance(entries, list) else [])
            if isinstance(e, dict)
        ]
        self._close_segments()
        plan = self.items.get("plan:current")
        if isinstance(plan, PlanItem):
            plan.entries = plain
            plan.historical = plan.historical or historical
            self._touch(plan)
        elif plan is None:
            self._append(PlanItem(id="plan:current", entries=plain, historical=historical))

    def _metadata(self, kind: str, update: dict[str, Any]) -> None:
        meta = self.meta
        if kind == "available_commands_update":
            commands = update.get("availableCommands")
            meta.commands = [c for c in commands if isinstance(c, dict)] if isinstance(commands, list) else []
        elif kind == "current_mode_update":
            meta.mode = _str(update.get("currentModeId")) or meta.mode
        elif kind == "config_option_update":
            options = update.get("configOptions")
            if isinstance(options, list):
                meta.config_options = [o for o in options if isinstance(o, dict)]
        elif kind == "session_info_update":
            if "title" in update:
                meta.title = update["title"] if isinstance(update["title"], str) else None
            if isinstance(update.get("updatedAt"), str):
                meta.updated_at = update["updatedAt"]
        elif kind == "usage_update":
            meta.usage = {k: update[k] for k in ("used", "size", "cost") if k in update}

    # --- envelopes from the main side -----------------------------------------------------------
    def _permission_request(self, envelope: PermissionRequestEnvelope) -> None:
        item_id = f"permission:{envelope.request_id}"
        if item_id in self.items:
            return
        self._close_segments()
        options = [o for o in envelope.options if isinstance(o, dict)]
        tool_call = envelope.tool_call if isinstance(envelope.tool_call, dict) else {}
        self._append(
            PermissionItem(id=item_id, request_id=envelope.request_id, tool_call=tool_call, options=options)
        )

    def _permission_resolved(self, envelope: PermissionResolvedEnvelope) -> None:
        item = self.items.get(f"permission:{envelope.request_id}")
        if not isinstance(item, PermissionItem) or item.status != "pending":
            self.ignored += item is None
            return
        item.status = "selected" if envelope.outcome == "selected" else "cancelled"
        item.selected_option = envelope.option_id
        self._touch(item)

    def _prompt_sent(self, envelope: PromptSentEnvelope) -> None:
        """The prompt as sent: the user's message, unless it is already shown (optimistically)."""
        if envelope.client_message_id in self.optimistic:
            return
        blocks = [b for b in envelope.prompt if isinstance(b, dict)]
        text = "\n".join(
            b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)
        )
        parts = [
            content_to_part(b, "user")
            for b in blocks
            if b.get("type") in ("resource_link", "image", "resource")
        ]
        attachments = [p for p in parts if isinstance(p, AttachmentPart)]
        self._add_optimistic(envelope.client_message_id, text, attachments, None)

    def _prompt_settled(self, envelope: PromptSettledEnvelope) -> None:
        timing = self.timings.setdefault(envelope.client_message_id, TurnTiming(None))
        timing.elapsed_s = envelope.elapsed_s
        timing.stop_reason = envelope.stop_reason
        timing.error = envelope.error
        segment_id = self.optimistic.get(envelope.client_message_id)
        segment = self.items.get(segment_id) if segment_id else None
        if (
            envelope.error is not None
            and isinstance(segment, MessageSegment)
            and not segment.echoed
            and self.order
            and self.order[-1] == segment.id
        ):
            # never echoed and nothing answered it: it did not reach the agent. (Our addition to
            # the rule: once the agent replied, the message evidently arrived and stays.)
            self._remove(segment.id)
            self.optimistic.pop(envelope.client_message_id, None)
            return
        if isinstance(segment, MessageSegment) and not self._batch:
            footer = self.grouping.footer_after(segment.id)
            if footer is not None:  # "8 s elapsed" becomes "Took 8 s"
                self._changes.append(RowsChanged(footer, (self.grouping.rows[footer],)))

    def _tools_cancelled(self, envelope: ToolCallsCancelledEnvelope) -> None:
        for tool_call_id in envelope.tool_call_ids:
            tool = self.items.get(f"tool:{tool_call_id}")
            if isinstance(tool, ToolCall) and tool.status in ("pending", "running"):
                tool.status = "cancelled"
                self._touch(tool)
