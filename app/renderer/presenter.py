"""Row payloads for the views: plain dicts (strings, numbers, lists) built from the timeline's items,
cached by the versions of the items they show so an unchanged row costs nothing to re-read. Pure
Python: no Qt here, the list model wraps these dicts for QML."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from app.renderer.markdown.render import DisplayBlock, IncrementalMarkdown, render_blocks
from app.renderer.terminal_view import TerminalEmulator
from app.renderer.timeline.grouping import Group
from app.renderer.timeline.items import (
    Item,
    MessageSegment,
    PermissionItem,
    PlanItem,
    TerminalState,
    Thought,
    ToolCall,
)
from app.renderer.timeline.parts import DiffPart, ErrorPart, ImagePart, MarkdownPart
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import Row
from app.renderer.timeline.turn_view import copy_text, group_attachments, item_text, user_text

STATUS_LABELS = {
    "pending": "Pending",
    "running": "Running",
    "completed": "Done",
    "failed": "Failed",
    "cancelled": "Cancelled",
}
MAX_DETAIL_CHARS = 20_000
REVEAL_CHARS = 24_000  # new characters of a streaming reply shown per refresh
FEED_BUDGET_S = 0.02  # terminal emulation per card read (the rest continues on the next tick)


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def _blocks_json(blocks: list[DisplayBlock]) -> list[dict[str, str]]:
    return [{"kind": b.kind, "html": b.html, "code": b.code, "lang": b.lang} for b in blocks]


def _pretty(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value[:MAX_DETAIL_CHARS]
    try:
        text = json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text[:MAX_DETAIL_CHARS]


_CONSOLE_FENCE = re.compile(
    r"^(`{3,}|~{3,})[ \t]*(console|shell|sh|bash|terminal|shellsession)[^\n]*\n(.*?)^\1[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


def console_fallback(tool: ToolCall) -> str | None:
    """The text of a ```console block in a tool's output (how agents send terminal output to clients
    without the terminal capability), or None."""
    if tool.terminal is not None:
        return None
    for part in tool.output_parts:
        if isinstance(part, MarkdownPart) and ("```" in part.text or "~~~" in part.text):
            match = _CONSOLE_FENCE.search(part.text)
            if match:
                return match.group(3)
    return None


def _tool_output(tool: ToolCall) -> str:
    pieces = []
    for part in tool.output_parts:
        if isinstance(part, MarkdownPart):
            pieces.append(part.text)
        elif isinstance(part, DiffPart):
            old = (part.old_text or "").splitlines()
            new = part.new_text.splitlines()
            pieces.append(
                f"--- {part.path}\n+++ {part.path}\n"
                + "\n".join([f"-{line}" for line in old] + [f"+{line}" for line in new])
            )
        elif isinstance(part, ErrorPart):
            pieces.append(part.text)
        elif isinstance(part, ImagePart):
            pieces.append("[image]")
    if not pieces and tool.output is not None and not isinstance(tool.output, dict | list):
        pieces.append(str(tool.output))
    return "\n\n".join(pieces)[:MAX_DETAIL_CHARS]


@dataclass
class Presenter:
    """Builds row payloads; keeps per-item streaming markdown state so only live tails re-parse."""

    dark: bool = False
    _markdown: dict[str, IncrementalMarkdown] = field(default_factory=dict)
    _cache: dict[str, tuple[tuple[int, ...], dict[str, Any]]] = field(default_factory=dict)
    _emulators: dict[str, TerminalEmulator] = field(default_factory=dict)
    _console_texts: dict[str, str] = field(default_factory=dict)
    _behind_terminals: dict[str, TerminalState] = field(default_factory=dict)  # output left to emulate
    _revealed: dict[str, int] = field(default_factory=dict)  # streaming item -> characters shown
    _behind: set[str] = field(default_factory=set)  # streaming items with text not shown yet

    def forget(self) -> None:
        self._markdown.clear()
        self._cache.clear()
        self._emulators.clear()
        self._console_texts.clear()
        self._behind_terminals.clear()
        self._revealed.clear()
        self._behind.clear()

    @property
    def terminals_behind(self) -> bool:
        return bool(self._behind_terminals)

    def advance_terminals(self, budget_s: float = FEED_BUDGET_S) -> list[str]:
        """Emulate waiting terminal output for about `budget_s`; the ids whose screens moved. Output
        progress never changes a row payload, so views repaint the screens alone (no card rebuild)."""
        deadline = time.perf_counter() + budget_s
        advanced: list[str] = []
        for terminal_id, state in list(self._behind_terminals.items()):
            emulator = self._emulators.setdefault(terminal_id, TerminalEmulator())
            more = emulator.feed_for(state, max(0.0, deadline - time.perf_counter()))
            advanced.append(terminal_id)
            if not more:
                del self._behind_terminals[terminal_id]
            if time.perf_counter() >= deadline:
                break
        return advanced

    def emulator(self, terminal_id: str) -> TerminalEmulator | None:
        """The emulator behind a card's screen (the painted view reads its lines from it)."""
        return self._emulators.get(terminal_id)

    def terminal_text(self, tool: ToolCall) -> str:
        """All of a terminal's screen text (for Copy), caught up with its output."""
        terminal = tool.terminal
        if terminal is None:
            return self._console_emulator(tool)[1].text() if console_fallback(tool) is not None else ""
        emulator = self._emulators.setdefault(terminal.terminal_id, TerminalEmulator())
        emulator.feed_all(terminal)
        return emulator.text()

    def blocks_for(self, item: Item, live: bool = False) -> list[DisplayBlock]:
        """The item's display blocks. A streaming reply reveals at most REVEAL_CHARS new characters per
        refresh: a burst (a thousand chunks between two frames) then shows over a few frames instead of
        one frame laying out hundreds of kilobytes; the rest follows on the next ticks (`rows_behind`)."""
        text = item_text(item)
        renderer = self._markdown.get(item.id)
        if renderer is None:
            renderer = self._markdown[item.id] = IncrementalMarkdown(self.dark)
        shown = self._revealed.get(item.id)
        if live or shown is not None:
            start = shown or 0
            if len(text) - start > REVEAL_CHARS:
                text = text[: start + REVEAL_CHARS]
                self._revealed[item.id] = len(text)
                self._behind.add(item.id)
                return renderer.update(text, live=True)
            self._behind.discard(item.id)
            if live:
                self._revealed[item.id] = len(text)
            else:
                self._revealed.pop(item.id, None)
        return renderer.update(text, live=live)

    @property
    def rows_behind(self) -> set[str]:
        """Items whose text is not fully shown yet (a streaming burst being revealed)."""
        return self._behind

    def payload(
        self,
        timeline: Timeline,
        row: Row,
        live_item: str | None,
        now: float = 0.0,
        live_message_id: str | None = None,
    ) -> dict[str, Any]:
        if row.kind == "turn-footer":
            group = group_of_row(timeline, row)
            footer = footer_payload(timeline, group, now, live_message_id) if group is not None else {}
            return {
                "kind": row.kind,
                "key": row.key,
                "first": row.first,
                "last": row.last,
                "groupId": str(row.group),
                **footer,
            }
        items = timeline.items
        versions = tuple(items[i].version for i in row.item_ids if i in items)
        key = row.key
        cached = self._cache.get(key)
        stamp = (*versions, len(row.item_ids), int(live_item in row.item_ids), row.first, row.last)
        if (
            cached is not None
            and cached[0] == stamp
            and row.kind not in ("turn-footer", "turn-attachments", "user-attachments")
        ):
            return cached[1]
        payload = self._build(timeline, row, live_item)
        if not self._behind.intersection(row.item_ids):
            self._cache[key] = (stamp, payload)  # a row still revealing a burst is rebuilt next time
        return payload

    def _build(self, timeline: Timeline, row: Row, live_item: str | None) -> dict[str, Any]:
        items = timeline.items
        first = items.get(row.item_ids[0]) if row.item_ids else None
        group = timeline.grouping.group_of.get(row.item_ids[0]) if row.item_ids else None
        base: dict[str, Any] = {
            "kind": row.kind,
            "key": row.key,
            "first": row.first,
            "last": row.last,
            "groupId": str(row.group),
        }
        if row.kind == "user" and group is not None:
            text = user_text(items, group)
            base.update(
                blocks=_blocks_json(render_blocks(text, self.dark)) if text else [],
                text=text,
                optimistic=any(getattr(items[i], "optimistic", False) for i in row.item_ids),
            )
        elif row.kind == "assistant-text" and isinstance(first, MessageSegment):
            base.update(
                blocks=_blocks_json(self.blocks_for(first, live=first.id == live_item)),
                streaming=first.id == live_item,
                errors=[p.text for p in first.parts if isinstance(p, ErrorPart)],
                images=[p.uri for p in first.parts if isinstance(p, ImagePart)],
            )
        elif row.kind == "thought" and isinstance(first, Thought):
            base.update(
                blocks=_blocks_json(self.blocks_for(first, live=first.id == live_item)),
                streaming=first.id == live_item,
                text=item_text(first),
            )
        elif row.kind in ("tool", "tool-group"):
            tools = [self.tool_payload(items[i]) for i in row.item_ids if isinstance(items.get(i), ToolCall)]
            base.update(
                tools=tools,
                count=len(tools),
                running=sum(t["status"] in ("pending", "running") for t in tools),
                failed=sum(t["status"] == "failed" for t in tools),
            )
        elif row.kind == "permission" and isinstance(first, PermissionItem):
            call = first.tool_call if isinstance(first.tool_call, dict) else {}
            base.update(
                requestId=first.request_id,
                status=first.status,
                selected=first.selected_option or "",
                title=str(call.get("title") or call.get("toolCallId") or "The agent asks permission"),
                options=[
                    {
                        "optionId": str(o.get("optionId", "")),
                        "name": str(o.get("name", "")),
                        "optionKind": str(o.get("kind", "")),
                    }
                    for o in first.options
                ],
            )
        elif row.kind == "plan" and isinstance(first, PlanItem):
            done = sum(e["status"] == "completed" for e in first.entries)
            base.update(entries=first.entries, done=done, total=len(first.entries))
        elif row.kind in ("turn-attachments", "user-attachments"):
            group = timeline.grouping.group_of.get(row.item_ids[0]) if row.item_ids else None
            attachments = group_attachments(items, group) if group is not None else []
            base.update(
                attachments=[
                    {"name": a.name, "uri": a.uri, "status": a.status, "source": a.source}
                    for a in attachments
                ]
            )
        return base

    def tool_payload(self, tool: ToolCall) -> dict[str, Any]:
        terminal = tool.terminal
        return {
            "id": tool.id,
            "title": tool.title,
            "toolKind": tool.tool_kind,
            "status": tool.status,
            "statusLabel": STATUS_LABELS.get(tool.status, tool.status),
            "historical": tool.historical,
            "input": _pretty(tool.input),
            "output": _tool_output(tool),
            "locations": [
                str(loc.get("path", "")) + (f":{loc['line']}" if isinstance(loc.get("line"), int) else "")
                for loc in tool.locations
            ],
            "terminal": None if terminal is None else self._terminal_payload(terminal),
            "console": self._console_payload(tool) if terminal is None else None,
        }

    def _console_emulator(self, tool: ToolCall) -> tuple[str, TerminalEmulator]:
        """The ```console fallback's text through its own emulator (rebuilt when the text changes)."""
        terminal_id = f"console:{tool.id}"
        text = console_fallback(tool) or ""
        emulator = self._emulators.get(terminal_id)
        if emulator is None or self._console_texts.get(terminal_id) != text:
            emulator = self._emulators[terminal_id] = TerminalEmulator()
            self._console_texts[terminal_id] = text
            state = TerminalState(terminal_id)
            state.append(text)
            emulator.feed_all(state)
        return terminal_id, emulator

    def _console_payload(self, tool: ToolCall) -> dict[str, Any] | None:
        """A ```console fallback shown as a terminal-styled block (escape sequences applied)."""
        if console_fallback(tool) is None:
            return None
        terminal_id, _emulator = self._console_emulator(tool)
        return {
            "id": terminal_id,
            "cwd": "",
            "exitCode": -1,
            "signal": "",
            "exited": False,
            "trimmed": False,
            "fallback": True,
        }

    def _terminal_payload(self, terminal: TerminalState) -> dict[str, Any]:
        """What the card shows besides the screen; output progress is not in it (see
        `advance_terminals`), so a streaming terminal does not rebuild its card."""
        emulator = self._emulators.setdefault(terminal.terminal_id, TerminalEmulator())
        if not emulator.caught_up(terminal):
            self._behind_terminals[terminal.terminal_id] = terminal
        return {
            "id": terminal.terminal_id,
            "cwd": terminal.cwd or "",
            "exitCode": -1 if terminal.exit_code is None else terminal.exit_code,
            "signal": terminal.signal or "",
            "exited": terminal.exited,
            "trimmed": terminal.trimmed,
        }


def footer_payload(
    timeline: Timeline, group: Group, now: float, live_message_id: str | None
) -> dict[str, Any]:
    """ "Took 12 s" once settled, "8 s elapsed" while live; hidden when timing is unknown. The copy
    text is not built here (O(turn)): the view asks for it when the user copies."""
    previous = timeline.grouping.previous(group)
    timing = None
    message_id = ""  # the prompt's message id: the turn the agent's file writes are recorded under
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
        if timing.elapsed_s is not None:
            label = f"Took {format_duration(timing.elapsed_s)}"
        elif timing.sent_at is not None and live_message_id == message_id:
            label = f"{format_duration(now - timing.sent_at)} elapsed"
    return {"timing": label, "messageId": message_id}


def group_of_row(timeline: Timeline, row: Row) -> Group | None:
    """The group a row belongs to (footer rows carry no items: their group id names the first one)."""
    return timeline.grouping.group_of_row(row)


def turn_copy_text(timeline: Timeline, group_id: str) -> str:
    group = next((g for g in timeline.grouping.groups if str(g.ref) == group_id), None)
    return copy_text(timeline.items, group) if group is not None else ""
