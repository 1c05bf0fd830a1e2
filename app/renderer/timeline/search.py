"""Find in the conversation: the occurrences of a query in what the open chat shows (message and thought
text, tool titles, tool output, terminal output, permission, plan and proposal text), newest first.

A scan walks the rows from the newest back and can stop after any row, so the first hit near the bottom
(where the user reads) costs the same in a 20-turn and a 2,000-turn chat; the view runs the rest in
slices between frames. A hit names its row and its place among the row's occurrences (counted from the
row's top), which is what the view needs to scroll to it and mark it. The text searched is each item's
own (Markdown source, terminal output without escapes): an occurrence inside markup (a link's target)
counts though the rendered row shows no mark for it. Case is ignored. Pure: no Qt, no I/O.

One row may be huge (a 50 MB reply with millions of occurrences): it is counted across slices, a window
at a time (`search_count.counting`), and only the hits that fit under `MAX_HITS` are made. A hit's
number is its place from the row's top, so the row's counts per field (`Span`s) are enough to know the
numbers of the occurrences nearest its bottom, which are the ones kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Literal, NamedTuple, get_args

from app.contract.ansi import strip_escapes
from app.renderer.timeline import search_count
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
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import RowKey, RowKind
from app.renderer.timeline.tool_text import screen_description, tool_output
from app.renderer.timeline.turn_view import item_text

SearchField = Literal["text", "title", "output", "terminal"]
MAX_HITS = 10_000  # past this the count says "10,000+"; a one-letter query in a long chat finds more
MIN_QUERY_CHARS = 1
# rows that show an item's own text (attachment rows and the footer name items shown elsewhere)
SEARCHED_ROWS: frozenset[RowKind] = frozenset(get_args(RowKind)) - {
    "user-attachments",
    "turn-attachments",
    "turn-footer",
}


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
    elif isinstance(item, ElicitationItem):
        yield "text", item.message or (item.form.title if item.form is not None else "")
    elif isinstance(item, PlanItem):
        yield "text", "\n".join(str(entry.get("content", "")) for entry in item.entries)
    elif isinstance(item, ProposalItem):
        for choice in item.choices:
            yield "title", choice.title
            yield "text", choice.rationale


class Span(NamedTuple):
    """One field's occurrences in its row: the item and field, the place of the first among the row's
    occurrences (from the row's top), and how many there are."""

    item_id: str
    field: SearchField
    first: int
    occurrences: int


FIELD_CHARS = 1_024  # what reading one field costs besides its text, in characters of text


def row_spans(item_ids: tuple[str, ...], items: dict[str, Item], needle: str) -> Iterator[list[Span] | None]:
    """A row's occurrences field by field from its top (its items in order, each item's texts in the
    order shown): yields None whenever about a window of text (`WINDOW_CHARS`) has been read since it
    last did, so a step is bounded however long one text or how many fields the row has, and at last
    the row's spans. Each text is asked of its item once, when the row comes to it; nothing of it is
    copied but the window being read."""
    window = search_count.WINDOW_CHARS
    spans: list[Span] = []
    total = read = 0
    for item_id in item_ids:
        item = items.get(item_id)
        if item is None:
            continue
        for field, text in searchable(item):
            if len(text) <= window:  # most texts: at once, without a generator of their own
                found = text.lower().count(needle) if text else 0
                read += len(text) + FIELD_CHARS
            else:
                found = yield from search_count.counting(text, needle)
                read = window
            if found:
                spans.append(Span(item_id, field, total, found))
                total += found
            if read >= window:
                read = 0
                yield None
    yield spans


class SearchScan:
    """One query over one timeline, scanned newest first in slices (`advance`). The hits found so far are
    in `hits`, newest first (within a row, its last occurrence first): hit 0 is the nearest to the
    bottom of the conversation. A row's hits are added once the whole row is counted; `spans` keeps,
    for each row with hits, its counts per field (where a hit falls among the matches a view draws)."""

    def __init__(self, timeline: Timeline, query: str) -> None:
        self.timeline = timeline
        self.query = query
        self._needle = query.lower()
        self.hits: list[Hit] = []
        self.spans: dict[RowKey, tuple[Span, ...]] = {}
        self.capped = False  # stopped at MAX_HITS
        self._next_row = len(timeline.rows) - 1  # the next row to scan (rows are oldest first)
        self._row: tuple[RowKey, Iterator[list[Span] | None]] | None = None  # being counted
        self.rows_scanned = 0

    @property
    def done(self) -> bool:
        finished = self._next_row < 0 and self._row is None
        return finished or self.capped or len(self._needle) < MIN_QUERY_CHARS

    def advance(self, budget_s: float, stop_at_hits: int | None = None) -> int:
        """Scan until `budget_s` has passed (at least one step: a row, or a window of a long one), the
        scan is done, or `stop_at_hits` hits exist; returns how many hits were added."""
        if self.done:
            return 0
        rows, items, needle = self.timeline.rows, self.timeline.items, self._needle
        clock = time.perf_counter
        started = clock()
        before = len(self.hits)
        while self._row is not None or self._next_row >= 0:
            if self._row is None:
                row = rows[self._next_row]
                self._next_row -= 1
                if row.kind not in SEARCHED_ROWS:
                    self.rows_scanned += 1
                    if clock() - started >= budget_s:
                        break
                    continue
                self._row = (row.key, row_spans(row.item_ids, items, needle))
            spans = next(self._row[1])
            if spans is not None:
                key = self._row[0]
                self._row = None
                self.rows_scanned += 1
                if spans:
                    self._keep(key, spans)
                    if self.capped or (stop_at_hits is not None and len(self.hits) >= stop_at_hits):
                        break
            if clock() - started >= budget_s:
                break
        return len(self.hits) - before

    def _keep(self, key: RowKey, spans: list[Span]) -> None:
        """A counted row's hits, its last occurrence first, as many as there is room for: the numbers
        kept are the row's highest, so only those hits are made."""
        total = spans[-1].first + spans[-1].occurrences
        room = MAX_HITS - len(self.hits)
        if total >= room:
            self.capped = total > room
        lowest = max(0, total - room)
        self.spans[key] = tuple(spans)
        for span in reversed(spans):
            top, bottom = span.first + span.occurrences - 1, max(span.first, lowest)
            if top < bottom:
                break
            self.hits.extend(Hit(key, span.item_id, span.field, n) for n in range(top, bottom - 1, -1))

    def drawn_index(self, hit: Hit, fields: frozenset[str], item_id: str | None = None) -> int:
        """The hit's place among its row's occurrences in `fields` (of `item_id` alone when named),
        from the row's top: the view marks the n-th match it draws there."""
        index = 0
        for span in self.spans.get(hit.row, ()):
            if span.first > hit.occurrence:
                break
            if span.field in fields and (item_id is None or span.item_id == item_id):
                index += min(span.occurrences, hit.occurrence - span.first)
        return index
