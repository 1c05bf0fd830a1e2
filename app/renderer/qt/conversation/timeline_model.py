"""The conversation's list model: one row per display block, fed by the timeline's index-based events,
with named roles (`kind`, `rowKey`, `first`, `last`, `blocks`, `tools`, `footer`, ...) and
`dataChanged` carrying exactly the roles that changed.

The view lays it out bottom-to-top (newest at the bottom, like chat apps), so the model presents rows
newest first: that keeps the view anchored to the latest message while it streams without
re-positioning a long list on every frame. `view_row`/`timeline_row` are the one place that mapping is
written; tests find rows with `view_row_of_key`.

`data()` only reads (`row_views.py` builds a row's values on its first read and keeps them): no timers,
no signals, no host calls. Changes are queued and flushed at most ~60 times a second (a single-shot
timer that only runs while changes are pending); structural changes map one-to-one to
beginInsertRows/beginRemoveRows, content changes refresh the rows' values and emit what changed.
A flush that took long (the view re-laid out a large row) spaces the next one out: the wait is twice
what the flush took, up to `MAX_FLUSH_INTERVAL_MS`, so a burst of updates to a costly row leaves the
window at least two thirds of its time to paint and take input instead of flushing back to back.

After a flush or a refresh, `rowsUpdated` names the view rows whose content changed: the view lays them
out at once (Conversation.qml), so the frame that shows them has no layout left to do. Layouts nested
in a row, laid out during the frame, would each ask Qt for one more frame with nothing new in it."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QObject, Qt, QTimer, Signal, Slot

from app.renderer.qt.common.named_roles import ModelIndex, numbered_roles, role_names
from app.renderer.qt.common.properties import variant_signal
from app.renderer.qt.conversation.row_views import CONTENT_ROLES, STRUCTURE_ROLES, RowViews
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import (
    Row,
    RowChange,
    RowKey,
    RowsChanged,
    RowsInserted,
    RowsRemoved,
    TimelineEvent,
    row_changes,
)

FLUSH_INTERVAL_MS = 16
MAX_FLUSH_INTERVAL_MS = 250
FEW_ROWS = 8  # changed rows looked up one by one; more are found in one pass over the rows
ROLE_NAMES = (*STRUCTURE_ROLES, *CONTENT_ROLES)
ROLES = numbered_roles(ROLE_NAMES)
ROLE_IDS = {name: role for role, name in ROLES.items()}


def view_row(count: int, timeline_row: int) -> int:
    """The view index of a timeline row (and back: the mapping is its own inverse)."""
    return count - 1 - timeline_row


timeline_row = view_row


class TimelineModel(QAbstractListModel):
    flushed = Signal()
    # the view rows whose content changed, after a flush or refresh
    rowsUpdated = variant_signal("QVariantList")

    def __init__(self, views: RowViews, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.views = views
        # the cards the user opened or closed in a chat before, by session key (view_memory.py)
        self.remembered_toggles: Callable[[str], dict[Hashable, bool]] | None = None
        self.timeline: Timeline | None = None
        self._rows: list[Row] = []
        self._pending: list[RowChange] = []
        self._updated: list[RowKey] = []  # rows changed since the last rowsUpdated
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    # --- Qt model API ---------------------------------------------------------------------------
    def roleNames(self) -> dict[int, QByteArray]:
        return role_names(ROLES)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        name = ROLES.get(role)
        row = self.row_at(index.row()) if index.isValid() and name is not None else None
        if row is None or self.timeline is None:
            return None
        return self.views.value(self.timeline, row, name)  # type: ignore[arg-type]

    # --- rows and view rows -----------------------------------------------------------------------
    @property
    def rows(self) -> list[Row]:
        """The rows in timeline order (oldest first)."""
        return self._rows

    def row_at(self, view_index: int) -> Row | None:
        if not 0 <= view_index < len(self._rows):
            return None
        return self._rows[timeline_row(len(self._rows), view_index)]

    def view_row_of_key(self, key: RowKey) -> int:
        """The view index of a row, -1 when it is not shown (a missing anchor is a no-op)."""
        for i in range(len(self._rows) - 1, -1, -1):
            if self._rows[i].key == key:
                return view_row(len(self._rows), i)
        return -1

    # --- feeding ---------------------------------------------------------------------------------
    def set_timeline(self, timeline: Timeline | None) -> None:
        """Show another timeline (a load or a session switch): one reset."""
        self._timer.stop()
        self._pending.clear()
        self._updated.clear()
        self.beginResetModel()
        self.timeline = timeline
        self.views.presenter.forget()
        self.views.clear()
        if timeline is not None and self.remembered_toggles is not None:  # before any row is built
            self.views.collapse.toggled.update(self.remembered_toggles(timeline.session_key))
        self._rows = list(timeline.rows) if timeline is not None else []
        self.endResetModel()
        self.flushed.emit()

    def push(self, events: list[TimelineEvent]) -> None:
        changes = row_changes(events)
        if not changes:
            return
        self._pending.extend(changes)
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def flush(self) -> None:
        """Apply queued changes in order; content changes between structural ones are coalesced."""
        self._timer.stop()
        if not self._pending:
            return
        began = time.perf_counter()
        self._apply(self._pending)
        self._tell_updated()  # the view lays the changed rows out now: part of what this flush cost
        took_ms = (time.perf_counter() - began) * 1000
        self._timer.setInterval(max(FLUSH_INTERVAL_MS, min(MAX_FLUSH_INTERVAL_MS, round(2 * took_ms))))
        self.views.presenter.sized_reveal(took_ms / 1000)  # a burst's next slice sized to this cost
        self.flushed.emit()

    def _tell_updated(self) -> None:
        """Name the changed rows by their view index now: rows inserted after a change move it."""
        if not self._updated:
            return
        keys, self._updated = set(self._updated), []
        if len(keys) <= FEW_ROWS:  # found from the newest: a stream's changes are there
            rows = {self.view_row_of_key(key) for key in keys} - {-1}
        else:
            count = len(self._rows)
            rows = {view_row(count, at) for at, row in enumerate(self._rows) if row.key in keys}
        self.rowsUpdated.emit(sorted(rows))

    def _apply(self, pending: list[RowChange]) -> None:
        self._pending = []
        dirty: dict[int, set[str]] = {}
        for change in pending:
            if isinstance(change, RowsChanged):
                for offset, row in enumerate(change.rows):
                    at = change.start + offset
                    old, self._rows[at] = self._rows[at], row
                    roles = dirty.setdefault(at, set())
                    roles.update(
                        name for name in ("kind", "first", "last") if getattr(old, name) != getattr(row, name)
                    )
                continue
            self._emit_changed(dirty)
            count = len(self._rows)
            if isinstance(change, RowsInserted):
                self.views.forget(row.key for row in change.rows)
                last = view_row(count + len(change.rows), change.start)
                self.beginInsertRows(QModelIndex(), last - len(change.rows) + 1, last)
                self._rows[change.start : change.start] = change.rows
                self.endInsertRows()
            elif isinstance(change, RowsRemoved):
                last = view_row(count, change.start)
                self.beginRemoveRows(QModelIndex(), last - change.count + 1, last)
                removed = self._rows[change.start : change.start + change.count]
                del self._rows[change.start : change.start + change.count]
                self.endRemoveRows()
                self.views.forget(row.key for row in removed)
        self._emit_changed(dirty)

    def _emit_changed(self, dirty: dict[int, set[str]]) -> None:
        """Rebuild the dirty rows' values and tell the view which roles changed."""
        timeline = self.timeline
        for at in sorted(dirty):
            roles = dirty[at]
            if timeline is not None:
                roles |= self.views.refresh(timeline, self._rows[at])
            self._changed(at, roles)
        dirty.clear()

    def _changed(self, at: int, roles: set[str]) -> None:
        """Tell the view which roles of a row changed (its block list may have changed in place)."""
        self._updated.append(self._rows[at].key)
        if roles:
            index = self.index(view_row(len(self._rows), at))
            self.dataChanged.emit(index, index, [ROLE_IDS[name] for name in roles])

    # --- refreshing what rows show ---------------------------------------------------------------------
    def refresh(self, predicate: Callable[[Row], bool], *, rebuild: bool = False) -> None:
        """Re-read the shown rows `predicate` picks: after a change outside their items (expansion, an
        attachment's state, the clock); `rebuild` also rebuilds their payloads (a reveal step)."""
        self.flush()
        timeline = self.timeline
        if timeline is None:
            return
        began = time.perf_counter()
        position = timeline.grouping.position
        for key in list(self.views.shown()):
            at = position(key)
            if at is not None and at < len(self._rows) and predicate(self._rows[at]):
                self._changed(at, self.views.refresh(timeline, self._rows[at], rebuild=rebuild))
        self._tell_updated()
        self.views.presenter.sized_reveal(time.perf_counter() - began)

    def refresh_items(self, item_ids: Iterable[Hashable], *, rebuild: bool = False) -> None:
        """Re-read the rows that show any of these items, or are named by them (a tool id, a row key)."""
        wanted = set(item_ids)
        if wanted:
            self.refresh(
                lambda row: row.key in wanted or not wanted.isdisjoint(row.item_ids), rebuild=rebuild
            )

    @Slot(int, str, bool)
    def toggle(self, view_index: int, tool_id: str, expanded: bool) -> None:
        """The user opened or closed a card: the row at `view_index`, or one tool inside it."""
        row = self.row_at(view_index)
        if row is not None:
            self.views.collapse.toggle(tool_id or row.key, expanded)
            self.refresh_items([row.key])

    @Slot(int, str)
    def togglePart(self, view_index: int, part: str) -> None:
        """The user opened or closed a part of the row at `view_index` (row_views.py names them)."""
        row = self.row_at(view_index)
        if row is not None:
            self.views.toggle_part(row.key, part)
            self.refresh_items([row.key])
