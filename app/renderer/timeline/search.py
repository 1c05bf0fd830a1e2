"""Find in the conversation: the occurrences of a query in what the open chat shows (message and thought
text, tool titles, tool output, terminal output, permission, plan and proposal text), newest first.

A scan walks the rows from the newest back and can stop after any row, so the first hit near the bottom
(where the user reads) costs the same in a 20-turn and a 2,000-turn chat; the view runs the rest in
slices between frames. A hit names its row and its place among the row's occurrences (counted from the
row's top), which is what the view needs to scroll to it and mark it. The text searched is each item's
own (Markdown source, terminal output without escapes): an occurrence inside markup (a link's target)
counts though the rendered row shows no mark for it. Case is ignored. Pure: no Qt, no I/O."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Literal, NamedTuple

from app.renderer.ansi_text import strip_escapes
from app.renderer.timeline.items import (
    Item,
    MessageSegment,
    PermissionItem,
    PlanItem,
    ProposalItem,
    Thought,
    ToolCall,
)
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import RowKey
from app.renderer.timeline.turn_view import item_text
from app.renderer.tool_view import screen_description, tool_output

SearchField = Literal["text", "title", "output", "terminal"]
MAX_HITS = 10_000  # past this the count says "10,000+"; a one-letter query in a long chat finds more
MIN_QUERY_CHARS = 1
# rows that show an item's own text (attachment rows and the footer name items shown elsewhere)
SEARCHED_ROWS = frozenset(
    {"user", "assistant-text", "thought", "tool", "tool-group", "permission", "plan", "proposal"}
)


class Hit(NamedTuple):
    """One occurrence: the row showing it, the item and field holding it, and its place among the
    row's occurrences counted from the row's top (the view marks the n-th match it draws there)."""

    row: RowKey
    item_id: str
    field: SearchField
    occurrence: int


def searchable(item: Item) -> Iterator[tuple[SearchField, str]]:
    """The texts of an item a search looks in, in the order the row shows them."""
    if isinstance(item, MessageSegment | Thought):
        yield "text", item_text(item)
    elif isinstance(item, ToolCall):
        if item.proposal_call:
            return
        yield "title", strip_escapes(item.title)
        terminal = item.terminal
        if terminal is not None:
            yield "output", screen_description(item)
            yield "terminal", strip_escapes(terminal.output)
        else:
            yield "output", tool_output(item)
    elif isinstance(item, PermissionItem):
        yield "title", str(item.tool_call.get("title") or "")
    elif isinstance(item, PlanItem):
        yield "text", "\n".join(str(entry.get("content", "")) for entry in item.entries)
    elif isinstance(item, ProposalItem):
        for choice in item.choices:
            yield "title", choice.title
            yield "text", choice.rationale


def occurrences(text: str, needle: str) -> int:
    """How many times `needle` (already lower-case) occurs in `text`, ignoring case, not overlapping."""
    if not text or len(needle) > len(text):
        return 0
    return text.lower().count(needle)


class SearchScan:
    """One query over one timeline, scanned newest first in slices (`advance`). The hits found so far are
    in `hits`, newest first (within a row, its last occurrence first): hit 0 is the nearest to the
    bottom of the conversation."""

    def __init__(self, timeline: Timeline, query: str) -> None:
        self.timeline = timeline
        self.query = query
        self._needle = query.lower()
        self.hits: list[Hit] = []
        self.capped = False  # stopped at MAX_HITS
        self._next_row = len(timeline.rows) - 1  # the next row to scan (rows are oldest first)
        self.rows_scanned = 0

    @property
    def done(self) -> bool:
        return self._next_row < 0 or self.capped or len(self._needle) < MIN_QUERY_CHARS

    def advance(self, budget_s: float, stop_at_hits: int | None = None) -> int:
        """Scan rows until `budget_s` has passed (at least one row), the scan is done, or `stop_at_hits`
        hits exist; returns how many hits were added."""
        if self.done:
            return 0
        rows = self.timeline.rows
        items = self.timeline.items
        needle = self._needle
        started = time.perf_counter()
        before = len(self.hits)
        while self._next_row >= 0:
            row = rows[self._next_row]
            self._next_row -= 1
            self.rows_scanned += 1
            found = self._row_hits(row.key, row.item_ids, items, needle) if row.kind in SEARCHED_ROWS else []
            if found:
                room = MAX_HITS - len(self.hits)
                if len(found) >= room:
                    self.capped = len(found) > room
                    found = found[len(found) - room :]
                self.hits.extend(reversed(found))
                if self.capped or (stop_at_hits is not None and len(self.hits) >= stop_at_hits):
                    break
            if time.perf_counter() - started >= budget_s:
                break
        return len(self.hits) - before

    @staticmethod
    def _row_hits(key: RowKey, item_ids: tuple[str, ...], items: dict[str, Item], needle: str) -> list[Hit]:
        """A row's hits from its top: its items in order, each item's texts in the order shown."""
        found: list[Hit] = []
        for item_id in item_ids:
            item = items.get(item_id)
            if item is None:
                continue
            for field, text in searchable(item):
                for _ in range(occurrences(text, needle)):
                    found.append(Hit(key, item_id, field, len(found)))
        return found
