"""Row payloads for the views: plain data by role name (the list model's roles), built from the
timeline's items and cached by the versions of the items a row shows, so re-reading an unchanged row
costs nothing. Pure Python: no Qt here; the list model adds UI state (expansion, attachment and file
states) and hands the values to QML.

Building a row's payload is also where streaming text is revealed: a live reply shows at most
`reveal_chars` new characters per build (sized to what a reveal costs). A build happens when a row is
first read and when the model refreshes it (a flush, a reveal tick), never on a plain re-read, so
reading stays side-effect free."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.contract.usage import total_tokens
from app.renderer.markdown.limits import MESSAGE_CHARS
from app.renderer.markdown.render import DisplayBlock, block_entries, render_blocks
from app.renderer.markdown.streaming import IncrementalMarkdown
from app.renderer.present.permission_card import footing_tool, permission_entry
from app.renderer.present.proposal_card import proposal_entry
from app.renderer.present.question_card import question_entry
from app.renderer.present.session_header import compact_count
from app.renderer.present.tool_card import console_fallback, console_id, tool_entry, tool_summary
from app.renderer.present.tool_details import output_html
from app.renderer.terminal.screens import TerminalScreens
from app.renderer.timeline.groups import Group
from app.renderer.timeline.items import (
    ElicitationItem,
    Item,
    MessageSegment,
    PermissionItem,
    PlanItem,
    ProposalItem,
    Thought,
    ToolCall,
)
from app.renderer.timeline.markdown_export import question_id
from app.renderer.timeline.parts import ErrorPart, ImagePart
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import Row
from app.renderer.timeline.serialize import attachment_record
from app.renderer.timeline.tool_text import forget_diffs
from app.renderer.timeline.turn_view import group_attachments, item_source, item_text, user_text

REVEAL_CHARS = 8_000  # new characters of a streaming reply shown per build, to start with
REVEAL_BUDGET_S = 0.010  # what one reveal may cost: with the frame's own drawing, under two frames
REVEAL_LIMITS = (1_000, 16_000)  # the fewest and the most characters one reveal shows


def next_reveal_chars(chars: int, elapsed_s: float) -> int:
    """The size of the next reveal, from what the last one of `chars` characters cost: the size that
    would have cost REVEAL_BUDGET_S, averaged with the last size (one costly block of text, a table
    or a code block, does not swing it), within REVEAL_LIMITS."""
    low, high = REVEAL_LIMITS
    fitting = chars * REVEAL_BUDGET_S / max(elapsed_s, 1e-6)
    return int(min(high, max(low, (chars + fitting) / 2)))


ATTACHMENT_KINDS = ("turn-attachments", "user-attachments")
Payload = dict[str, Any]


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


@dataclass
class Presenter:
    """Builds row payloads; keeps per-item streaming markdown state so only live tails re-parse."""

    dark: bool = False
    screens: TerminalScreens = field(default_factory=TerminalScreens)
    _markdown: dict[str, IncrementalMarkdown] = field(default_factory=dict)
    _cache: dict[Any, tuple[tuple[Any, ...], Payload]] = field(default_factory=dict)
    _revealed: dict[str, int] = field(default_factory=dict)  # streaming item -> characters shown
    _behind: set[str] = field(default_factory=set)  # streaming items with text not shown yet
    reveal_chars: int = REVEAL_CHARS  # new characters a build reveals (sized to what the last cost)
    _sliced: bool = False  # a build since the last `sized_reveal` showed a slice of a burst
    _sliced_in_frame: set[str] = field(default_factory=set)  # items that showed a slice since the last frame

    def set_dark(self, dark: bool) -> bool:
        """Highlight code for a dark (or light) window from now on; True when that changed (every
        rendered prose block is then built again)."""
        if dark == self.dark:
            return False
        self.dark = dark
        self._markdown.clear()
        self._cache.clear()
        return True

    def forget(self) -> None:
        self._markdown.clear()
        self._cache.clear()
        self.screens.forget()
        forget_diffs()
        self._revealed.clear()
        self._behind.clear()
        self._sliced_in_frame.clear()

    # --- prose ---------------------------------------------------------------------------------------
    def blocks_for(self, item: Item, live: bool = False) -> list[DisplayBlock]:
        """The item's display blocks. A streaming reply reveals at most `reveal_chars` new characters per
        build: a burst (a thousand chunks between two frames) then shows over a few frames instead of
        one frame laying out hundreds of kilobytes; the rest follows on the next ticks (`rows_behind`).
        One slice per item between two frames (`frame_drawn`): a flush and the reveal of one frame each
        showing a slice would lay out two budgets' worth before the frame is drawn."""
        text = item_source(item)  # a long reply's pieces: only what is revealed is copied
        renderer = self._markdown.get(item.id)
        if renderer is None:
            renderer = self._markdown[item.id] = IncrementalMarkdown(self.dark)
        shown = self._revealed.get(item.id)
        if live or shown is not None:
            start = shown or 0
            if item.id in self._sliced_in_frame and len(text) > start:
                self._behind.add(item.id)  # this frame showed its slice: the rest waits for the next
                return renderer.update(text[:start], live=True)
            # past what the renderer shows before "Show more" there is nothing left to reveal
            if len(text) - start > self.reveal_chars and start < MESSAGE_CHARS:
                text = text[: start + self.reveal_chars]
                self._revealed[item.id] = len(text)
                self._behind.add(item.id)
                self._sliced = True
                self._sliced_in_frame.add(item.id)
                return renderer.update(text, live=True)
            self._behind.discard(item.id)
            if live:
                self._revealed[item.id] = len(text)
            else:
                self._revealed.pop(item.id, None)
        return renderer.update(text, live=live)

    def sized_reveal(self, elapsed_s: float) -> None:
        """After the view's refresh that took `elapsed_s` (building and laying out its rows): when it
        showed a slice of a burst, the next slice is sized to what this one cost."""
        if self._sliced:
            self._sliced = False
            self.reveal_chars = next_reveal_chars(self.reveal_chars, elapsed_s)

    def frame_drawn(self) -> None:
        """The window drew a frame: each item behind may show its next slice."""
        self._sliced_in_frame.clear()

    @property
    def rows_behind(self) -> set[str]:
        """Items whose text is not fully shown yet (a streaming burst being revealed)."""
        return self._behind

    # --- rows ----------------------------------------------------------------------------------------
    def payload(self, timeline: Timeline, row: Row, now: float) -> Payload:
        """The row's content by role name (its structure, kind/key/flags, comes from the row itself)."""
        if row.kind == "turn-footer":
            group = timeline.grouping.group_of_row(row)
            return {"footer": footer_entry(timeline, group, now) if group is not None else {}}
        items = timeline.items
        live_item = timeline.live_item
        versions = tuple(items[i].version for i in row.item_ids if i in items)
        live_turn = row.kind == "tool-group" and turn_is_live(timeline, row)
        stamp = (row.kind, *versions, len(row.item_ids), live_item in row.item_ids, live_turn)
        cached = self._cache.get(row.key)
        if cached is not None and cached[0] == stamp and row.kind not in ATTACHMENT_KINDS:
            return cached[1]
        payload = self._build(timeline, row, live_item)
        if not self._behind.intersection(row.item_ids):
            self._cache[row.key] = (stamp, payload)  # a row still revealing a burst is rebuilt next time
        return payload

    def _build(self, timeline: Timeline, row: Row, live_item: str | None) -> Payload:
        items = timeline.items
        first = items.get(row.item_ids[0]) if row.item_ids else None
        group = timeline.grouping.group_of.get(row.item_ids[0]) if row.item_ids else None
        if row.kind == "user" and group is not None:
            text = user_text(items, group)
            blocks = block_entries(render_blocks(text, self.dark)) if text else []
            optimistic = any(getattr(items[i], "optimistic", False) for i in row.item_ids)
            # the prompt's message id: its checkpoint (the files as they were when it was sent)
            message_id = question_id(items, group)
            return {"blocks": blocks, "text": text, "optimistic": optimistic, "messageId": message_id}
        if row.kind == "assistant-text" and isinstance(first, MessageSegment):
            return {
                "blocks": block_entries(self.blocks_for(first, live=first.id == live_item)),
                "streaming": first.id == live_item,
                "errors": [p.text for p in first.parts if isinstance(p, ErrorPart)],
                "images": [p.uri for p in first.parts if isinstance(p, ImagePart)],
            }
        if row.kind == "thought" and isinstance(first, Thought):
            return {
                "blocks": block_entries(self.blocks_for(first, live=first.id == live_item)),
                "streaming": first.id == live_item,
                "text": item_text(first),
            }
        if row.kind in ("tool", "tool-group"):
            tools = [
                self._tool(timeline, item) for i in row.item_ids if isinstance(item := items.get(i), ToolCall)
            ]
            live_turn = row.kind == "tool-group" and turn_is_live(timeline, row)
            return {"tools": tools, "summary": tool_summary(tools, live_turn)}
        if row.kind == "permission" and isinstance(first, PermissionItem):
            return {
                "permission": {**permission_entry(first), "inCard": footing_tool(timeline, first) is not None}
            }
        if row.kind == "elicitation" and isinstance(first, ElicitationItem):
            return {"question": question_entry(first)}
        if row.kind == "proposal" and isinstance(first, ProposalItem):
            return {"proposal": proposal_entry(first)}
        if row.kind == "plan" and isinstance(first, PlanItem):
            done = sum(e["status"] == "completed" for e in first.entries)
            return {"plan": {"entries": first.entries, "done": done, "total": len(first.entries)}}
        if row.kind in ATTACHMENT_KINDS and group is not None:
            return {"attachments": [attachment_record(a) for a in group_attachments(items, group)]}
        return {}

    def _tool(self, timeline: Timeline, tool: ToolCall) -> dict[str, Any]:
        asked = timeline.items.get(tool.permission_id) if tool.permission_id else None
        footer = {}
        if isinstance(asked, PermissionItem) and footing_tool(timeline, asked) is tool:
            footer = {"permission": permission_entry(asked)}
        if tool.terminal is not None:
            self.screens.shown(tool.terminal)
        else:
            text = console_fallback(tool)
            if text is not None:
                self.screens.console(console_id(tool), text)
        entry = tool_entry(tool)
        shown_as_screen = entry["terminal"] is not None or entry["console"] is not None
        rendered = "" if shown_as_screen else output_html(tool.tool_kind, entry["output"], self.dark)
        return {**entry, "outputHtml": rendered, **footer}

    def terminal_text(self, tool: ToolCall) -> str:
        """All of a tool's screen text (Copy): its terminal caught up, or its ```console block."""
        if tool.terminal is not None:
            return self.screens.full_text(tool.terminal)
        text = console_fallback(tool)
        return self.screens.console(console_id(tool), text).text() if text is not None else ""


def turn_is_live(timeline: Timeline, row: Row) -> bool:
    """Whether the row belongs to the turn answering the prompt that is still running (the turn right
    after the user group holding that prompt's message)."""
    live = timeline.live_message_id
    groups = timeline.grouping.groups
    group = timeline.grouping.group_of.get(row.item_ids[0]) if live is not None and row.item_ids else None
    if group is None or groups[-1] is not group:
        return False  # only the newest turn can still be running
    question = timeline.grouping.previous(group)
    if question is None or question.kind != "user":
        return False
    return any(
        isinstance(segment := timeline.items.get(i), MessageSegment) and segment.message_id == live
        for i in question.item_ids
    )


def footer_entry(timeline: Timeline, group: Group, now: float) -> dict[str, Any]:
    """ "Took 12 s" once settled, "8 s elapsed" while live; hidden when timing is unknown. The copy
    text is not built here (O(turn)): the view asks for it when the user copies. `messageId` is the
    prompt's message id, the turn the agent's file writes are recorded under."""
    previous = timeline.grouping.previous(group)
    timing = None
    message_id = ""
    if previous is not None:
        for item_id in previous.item_ids:
            segment = timeline.items.get(item_id)
            if isinstance(segment, MessageSegment) and not message_id:
                message_id = segment.message_id
            if isinstance(segment, MessageSegment) and segment.message_id in timeline.timings:
                timing = timeline.timings[segment.message_id]
                message_id = segment.message_id
                break
    label = ""
    if timing is not None:
        if timing.elapsed_s is not None and timing.stopped:
            label = f"Stopped after {format_duration(timing.elapsed_s)}"
            label += " (the agent did not confirm)" if timing.unconfirmed else ""
        elif timing.elapsed_s is not None:
            label = f"Took {format_duration(timing.elapsed_s)}"
        elif timing.sent_at is not None and timeline.live_message_id == message_id:
            label = f"{format_duration(now - timing.sent_at)} elapsed"
        if timing.tokens:
            label = " \u00b7 ".join(part for part in (label, tokens_words(timing.tokens)) if part)
    return {"timing": label, "messageId": message_id}


def tokens_words(tokens: dict[str, int]) -> str:
    """A turn's tokens as its footer says them: "1.2k tokens (1.0k in, 234 out)"."""
    total = total_tokens(tokens)
    parts = [f"{compact_count(tokens[name])} {word}" for name, word in TOKEN_WORDS if name in tokens]
    return f"{compact_count(total)} tokens" + (f" ({', '.join(parts)})" if parts else "")


TOKEN_WORDS = (
    ("inputTokens", "in"),
    ("outputTokens", "out"),
    ("thoughtTokens", "thinking"),
    ("cachedReadTokens", "from cache"),
)
