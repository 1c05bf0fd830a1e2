"""`search` in QML: find in the open chat (Ctrl+F). Hits are numbered from the newest (1 is the nearest to
the bottom, where the user reads); `next` goes up to older ones, `previous` down to newer ones, both
wrapping. The first hit is looked for as the query changes (the scan stops there, whatever the chat's
length); the rest is counted in slices between frames, so typing never waits for a long chat (nor for
one huge reply: the scan counts a long text a window per step). Going to a hit not counted yet (Enter
past the hits found so far, Shift+Enter to wrap to the oldest) is looked for a moment and otherwise
done when the count gets there, never by counting the rest at once.

Going to a hit opens what hides it (a collapsed tool card, tool group or thought: the user's collapse
state, as if they had opened it) and asks the view to bring its row in (`goTo`); the view then marks
the match it draws (`markIn`, `search_marks.py`) and scrolls to it. The chat changing under the search
(a reply streaming) counts again a moment later, keeping the current hit where it still exists."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import Property, QObject, QRectF, QTimer, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem

from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.conversation.search_marks import SearchMarks, tool_card
from app.renderer.qt.conversation.timeline_model import TimelineModel
from app.renderer.timeline.items import Item
from app.renderer.timeline.rows import Row
from app.renderer.timeline.search import MAX_HITS, Hit, SearchScan

FIRST_SLICE_S = 0.05  # looking for the first hit as the user types (it stops at the hit)
SLICE_S = 0.006  # each later slice of the count
SLICE_INTERVAL_MS = 16  # between slices: the window draws (a stream, a scroll) while it counts
HOLD_FRAMES = 2  # after going to a hit, the count waits until it is drawn and scrolled to
HOLD_FALLBACK_MS = 150  # ... or this long, when the window draws nothing (hidden)
RECOUNT_DELAY_MS = 300  # after the chat changed (a reply streams: at most this often)
MARKED_FIELDS = frozenset({"text", "output"})  # drawn in text edits the marks reach
TOOL_ROWS = frozenset({"tool", "tool-group"})
WANTED_S = 0.1  # how long `find_in` looks for a match in the item it wants before the newest will do


class ConversationSearch(QObject):
    changed = Signal()
    activeChanged = Signal()
    goTo = Signal(int, str, int)  # view row, the tool card holding the mark ("": the row), the mark's index

    def __init__(self, session: CurrentSession, model: TimelineModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._model = model
        self.marks = SearchMarks()
        self._open = False
        self._query = ""
        self._scan: SearchScan | None = None
        self._current = 0  # 1-based; 0: none
        self._keep: tuple[object, int] | None = None  # the current hit to find again after a recount
        self._wanted: Literal["next", "previous"] | None = None  # a move waiting for the count
        self._held_frames = 0  # frames to wait before counting on
        self._slices = QTimer(self)
        self._slices.setSingleShot(True)
        self._slices.setInterval(SLICE_INTERVAL_MS)
        self._slices.timeout.connect(self._count_more)
        self._recount = QTimer(self)
        self._recount.setSingleShot(True)
        self._recount.setInterval(RECOUNT_DELAY_MS)
        self._recount.timeout.connect(self._count_again)
        session.shown.connect(self._on_shown)
        session.rowsChanged.connect(self._on_rows_changed)

    # --- what QML shows -----------------------------------------------------------------------------
    def _count(self) -> int:
        return len(self._scan.hits) if self._scan is not None else 0

    def _complete(self) -> bool:
        return self._scan is None or self._scan.done

    def _summary(self) -> str:
        if not self._query:
            return ""
        count = self._count()
        if count == 0:
            return "Searching\u2026" if not self._complete() else "No results"
        more = "+" if (self._scan is not None and self._scan.capped) or not self._complete() else ""
        return f"{self._current:,} of {count:,}{more}"

    @property
    def active(self) -> bool:
        return self._open and bool(self._query)

    isOpen = Property(bool, lambda self: self._open, notify=changed)
    query = Property(str, lambda self: self._query, notify=changed)
    count = Property(int, _count, notify=changed)
    current = Property(int, lambda self: self._current, notify=changed)
    complete = Property(bool, _complete, notify=changed)
    summary = Property(str, _summary, notify=changed)
    isActive = Property(bool, lambda self: self.active, notify=activeChanged)

    # --- what the user does -------------------------------------------------------------------------
    @Slot(bool)
    def setOpen(self, open_: bool) -> None:
        if open_ == self._open:
            return
        was = self.active
        self._open = open_
        if open_ and self._query:
            self._start()
        elif not open_:
            self._stop()
        self.changed.emit()
        if was != self.active:
            self.activeChanged.emit()

    @Slot(str)
    def setQuery(self, query: str) -> None:
        if query == self._query:
            return
        was = self.active
        self._query = query
        if self._open:
            self._start()
        self.changed.emit()
        if was != self.active:
            self.activeChanged.emit()

    @Slot()
    def next(self) -> None:
        """The next older hit (up); past the oldest, back to the newest. One not found yet is looked
        for a moment, else gone to when the count finds it."""
        scan = self._scan
        if scan is None:
            return
        self._wanted = None
        if self._current >= len(scan.hits) and not scan.done:
            scan.advance(FIRST_SLICE_S, stop_at_hits=self._current + 1)
            if self._current >= len(scan.hits) and not scan.done:
                self._wanted = "next"
                return
        if not scan.hits:
            self.changed.emit()
            return
        self._current = self._current + 1 if self._current < len(scan.hits) else 1
        self._go()

    @Slot()
    def previous(self) -> None:
        """The next newer hit (down); past the newest, to the oldest (once the count is finished)."""
        scan = self._scan
        if scan is None:
            return
        self._wanted = None
        if self._current <= 1 and not scan.done:
            self._wanted = "previous"
            return
        if not scan.hits:
            self.changed.emit()
            return
        self._current = self._current - 1 if self._current > 1 else len(scan.hits)
        self._go()

    def find_in(self, needle: str, wanted: Callable[[Item], bool]) -> None:
        """Find `needle` and go to its newest match in an item `wanted` picks (the hit a search of every
        chat opened), looked for up to WANTED_S; else the newest match, as Ctrl+F goes."""
        self.setQuery(needle)
        self.setOpen(True)
        scan, timeline = self._scan, self._session.timeline
        if scan is None or timeline is None:
            return
        deadline = time.perf_counter() + WANTED_S
        at = 0
        while True:
            for index in range(at, len(scan.hits)):
                item = timeline.items.get(scan.hits[index].item_id)
                if item is not None and wanted(item):
                    if index + 1 != self._current:
                        self._current, self._wanted = index + 1, None
                        self._go()
                    return
            at = len(scan.hits)
            if scan.done or time.perf_counter() > deadline:
                return
            scan.advance(SLICE_S, stop_at_hits=at + 1)

    # --- the view's part ---------------------------------------------------------------------------
    @Slot(QQuickItem)
    def watch(self, edit: QQuickItem) -> None:
        """A text edit of the conversation was made: it gets its marks while a query is active."""
        if self.active:
            self.marks.watch(edit)

    @Slot(QQuickItem)
    def watchAll(self, root: QQuickItem) -> None:
        if self.active:
            self.marks.watch_all(root)

    @Slot(QQuickItem, str, int, result=QRectF)
    def markIn(self, row: QQuickItem, scope: str, index: int) -> QRectF:
        """Mark the current match in a row's delegate (in its tool card `scope`, when named); where it is
        drawn, in the row's coordinates (empty: the row itself is what to show)."""
        root = tool_card(row, scope) if scope else row
        if root is None:
            self.marks.mark_in(row, -1)
            return QRectF()
        rect = self.marks.mark_in(root, index)
        return root.mapRectToItem(row, rect) if not rect.isEmpty() else QRectF()

    @Slot(QColor, QColor, QColor)
    def setColours(self, match: QColor, current: QColor, text: QColor) -> None:
        self.marks.set_colours(match, current, text)

    # --- scanning ------------------------------------------------------------------------------------
    def _start(self) -> None:
        """A new query (or chat): look for its first hit now, count the rest in slices."""
        self._recount.stop()
        timeline = self._session.timeline
        self._keep = None
        self._wanted = None
        self._scan = SearchScan(timeline, self._query) if timeline is not None and self._query else None
        self._current = 0
        self.marks.set_needle(self._query.lower() if self.active else "")
        if self._scan is None:
            self._slices.stop()
            return
        self._scan.advance(FIRST_SLICE_S, stop_at_hits=1)
        if self._scan.hits:
            self._current = 1
            self._go()
        self._continue()

    def _stop(self) -> None:
        self._slices.stop()
        self._recount.stop()
        self._scan = None
        self._current = 0
        self._keep = None
        self._wanted = None
        self.marks.set_needle("")

    def _continue(self) -> None:
        if self._scan is not None and not self._scan.done:
            self._slices.start(HOLD_FALLBACK_MS if self._held_frames else SLICE_INTERVAL_MS)

    def after_frame(self) -> None:
        """The window drew a frame: once the hit gone to is drawn and scrolled to, counting goes on."""
        if self._held_frames:
            self._held_frames -= 1
            if not self._held_frames:
                self._continue()

    @Slot()
    def _count_more(self) -> None:
        self._held_frames = 0
        scan = self._scan
        if scan is None:
            return
        scan.advance(SLICE_S)
        if self._keep is not None:
            self._find_kept(scan.hits)
        elif self._current == 0 and scan.hits:
            self._current = 1
            self._wanted = None if self._wanted == "next" else self._wanted  # the next from none is 1
            self._go()
        elif self._wanted == "next" and (scan.done or len(scan.hits) > self._current):
            self.next()
        elif self._wanted == "previous" and scan.done:
            self.previous()
        self.changed.emit()
        self._continue()

    def _on_shown(self, _result: object = None) -> None:
        if self._open:
            self._start()
            self.changed.emit()

    def _on_rows_changed(self) -> None:
        if self.active and self._scan is not None:
            self._recount.start()

    @Slot()
    def _count_again(self) -> None:
        """The chat changed: count again, the current hit kept where it still is (no scrolling)."""
        scan, timeline = self._scan, self._session.timeline
        if scan is None or timeline is None:
            return
        hit = scan.hits[self._current - 1] if 0 < self._current <= len(scan.hits) else None
        self._scan = SearchScan(timeline, self._query)
        self._keep = (hit.row, hit.occurrence) if hit is not None else None
        self._scan.advance(SLICE_S)
        if self._keep is not None:
            self._find_kept(self._scan.hits)
        self.changed.emit()
        self._continue()

    def _find_kept(self, hits: list[Hit]) -> None:
        assert self._keep is not None
        for at, hit in enumerate(hits):
            if (hit.row, hit.occurrence) == self._keep:
                self._current, self._keep = at + 1, None
                return
        if self._scan is not None and self._scan.done:  # it is gone: the nearest number stays
            self._current, self._keep = min(self._current, len(hits)), None

    def _go(self) -> None:
        """Open what hides the current hit and ask the view to bring it in and mark it."""
        assert self._scan is not None
        hits = self._scan.hits
        hit = hits[self._current - 1]
        row = self._model.row_at(self._model.view_row_of_key(hit.row))
        if row is not None:
            self._reveal(hit, row)
        view_row = self._model.view_row_of_key(hit.row)  # after the reveal's flush, which may move it
        scope = hit.item_id if row is not None and row.kind in TOOL_ROWS else ""
        index = (
            self._scan.drawn_index(hit, MARKED_FIELDS, scope or None) if hit.field in MARKED_FIELDS else -1
        )
        self.changed.emit()
        if view_row >= 0:
            self._held_frames = HOLD_FRAMES
            self.goTo.emit(view_row, scope, index)

    def _reveal(self, hit: Hit, row: Row) -> None:
        collapse = self._model.views.collapse
        if row.kind == "thought" or row.kind in TOOL_ROWS:
            collapse.open(row.key)
        if row.kind in TOOL_ROWS and hit.field != "title":
            collapse.open(hit.item_id)
        self._model.refresh_items([row.key])


__all__ = ["MAX_HITS", "ConversationSearch"]
