"""The conversation's list model: one row per display block, fed by the timeline's index-based
changes. The view lays it out bottom-to-top (newest at the bottom, like chat apps), so the model
presents rows newest first: view index = len(rows) - 1 - timeline row. That keeps the view anchored to
the latest message while it streams without re-positioning a long list on every frame.

Changes are queued and flushed at most ~60 times a second (a single-shot timer that only runs while
changes are pending, so an idle conversation costs nothing); structural changes map one-to-one to
beginInsertRows/beginRemoveRows, content changes are coalesced into dataChanged per row."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QObject, Qt, QTimer, Signal, Slot

from app.renderer.presenter import Presenter
from app.renderer.qt.block_model import BlockListModel
from app.renderer.qt.collapse import CollapseState
from app.renderer.qt.keyed_list_model import KeyedListModel
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import (
    Row,
    RowChange,
    RowsChanged,
    RowsInserted,
    RowsRemoved,
    TimelineEvent,
    row_changes,
)

FLUSH_INTERVAL_MS = 16
ATTACHMENT_ROWS = ("turn-attachments", "user-attachments")

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
KEY_ROLE = Qt.ItemDataRole.UserRole + 2
PAYLOAD_ROLE = Qt.ItemDataRole.UserRole + 3
FIRST_ROLE = Qt.ItemDataRole.UserRole + 4
LAST_ROLE = Qt.ItemDataRole.UserRole + 5


class TimelineModel(QAbstractListModel):
    """Rows of one timeline. `live_item` is the id of the segment still streaming (it animates)."""

    flushed = Signal()
    terminalAdvanced = Signal(str)  # a terminal's screen moved on (repaint it; its card is unchanged)

    def __init__(self, parent: QObject | None = None, dark: bool = False) -> None:
        super().__init__(parent)
        self.presenter = Presenter(dark=dark)
        self.timeline: Timeline | None = None
        self._rows: list[Row] = []
        self._pending: list[RowChange] = []
        self.live_item: str | None = None
        self.live_message_id: str | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)
        self.flush_count = 0
        self.collapse = CollapseState()
        self._collapse_timer = QTimer(self)
        self._collapse_timer.setSingleShot(True)
        self._collapse_timer.timeout.connect(self._collapse_due)
        self._collapse_keys: set[str] = set()
        # set by the controller: attachment dicts -> the same with their main-side resolution state
        self.attachment_states: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None
        self._block_models: dict[str, BlockListModel] = {}
        self._card_models: dict[str, KeyedListModel] = {}  # attachment cards by row: focus survives
        # set by the controller: inline image uris -> their display states (no I/O in the view)
        self.image_states: Callable[[list[str]], list[dict[str, Any]]] | None = None
        # set by the controller: a turn's message id -> the files the agent changed in it
        self.file_changes: Callable[[str], list[dict[str, Any]]] | None = None
        self._reveal_timer = QTimer(self)  # at most one reveal step per frame
        self._reveal_timer.setSingleShot(True)
        self._reveal_timer.setInterval(FLUSH_INTERVAL_MS)
        self._reveal_timer.timeout.connect(self._reveal_due)
        self._feed_timer = QTimer(self)  # runs only while a terminal card has output left to emulate
        self._feed_timer.setSingleShot(True)
        self._feed_timer.setInterval(0)  # next slice as soon as the loop is idle (each is time-bounded)
        self._feed_timer.timeout.connect(self._feed_due)

    # --- Qt model API ---------------------------------------------------------------------------
    def roleNames(self) -> dict[int, QByteArray]:
        return {
            KIND_ROLE: QByteArray(b"kind"),
            KEY_ROLE: QByteArray(b"rowKey"),
            PAYLOAD_ROLE: QByteArray(b"payload"),
            FIRST_ROLE: QByteArray(b"first"),
            LAST_ROLE: QByteArray(b"last"),
        }

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows) or self.timeline is None:
            return None
        row = self._rows[len(self._rows) - 1 - index.row()]
        if role == KIND_ROLE:
            return row.kind
        if role == KEY_ROLE:
            return str(row.key)
        if role == FIRST_ROLE:
            return row.first
        if role == LAST_ROLE:
            return row.last
        if role == PAYLOAD_ROLE:
            payload = self.presenter.payload(
                self.timeline, row, self.live_item, time.monotonic(), self.live_message_id
            )
            return self._decorate(row, payload)
        return None

    def _decorate(self, row: Row, payload: dict[str, Any]) -> dict[str, Any]:
        """Add UI state (expanded flags, attachment states) to a cached payload without touching the
        cache; rendered blocks go to QML as the row's block model, never as a copied list."""
        if self.presenter.rows_behind and not self._reveal_timer.isActive():
            self._reveal_timer.start()  # a streaming burst is shown over the next frames
        if "blocks" in payload:
            blocks = self._block_models.get(row.key)
            if blocks is None:
                blocks = self._block_models[row.key] = BlockListModel(self)
            blocks.apply(payload["blocks"])
            payload = {**payload, "blocks": blocks}
        if row.kind == "turn-footer" and self.file_changes is not None:
            return {**payload, "files": self.file_changes(str(payload.get("messageId") or ""))}
        if row.kind == "assistant-text" and payload.get("images") and self.image_states is not None:
            return {**payload, "images": self.image_states(payload["images"])}
        if row.kind in ATTACHMENT_ROWS and self.attachment_states is not None:
            cards = self._card_models.get(row.key)
            if cards is None:
                cards = self._card_models[row.key] = KeyedListModel("uri", self)
            cards.apply(self.attachment_states(payload.get("attachments", [])))
            return {**payload, "attachments": cards}
        if row.kind in ("tool", "tool-group"):
            if self.presenter.terminals_behind and not self._feed_timer.isActive():
                self._feed_timer.start()  # terminal output to emulate: a bounded slice per tick
            tools = []
            soonest: float | None = None
            for tool in payload.get("tools", []):
                expanded, remaining = self.collapse.tool_expanded(
                    tool["id"], tool["status"], tool["historical"]
                )
                tools.append({**tool, "expanded": expanded})
                if remaining is not None:
                    soonest = remaining if soonest is None else min(soonest, remaining)
            statuses = {t["status"] for t in tools}
            group_status = "running" if statuses - {"completed", "failed", "cancelled"} else "completed"
            historical = all(t["historical"] for t in tools) if tools else False
            group_expanded, remaining = self.collapse.tool_expanded(str(row.key), group_status, historical)
            if remaining is not None:
                soonest = remaining if soonest is None else min(soonest, remaining)
            if soonest is not None:
                self._schedule_collapse(str(row.key), soonest)
            return {**payload, "tools": tools, "expanded": group_expanded}
        if row.kind == "thought":
            return {
                **payload,
                "expanded": self.collapse.thought_expanded(str(row.key), payload.get("streaming", False)),
            }
        return payload

    def _schedule_collapse(self, key: str, seconds: float) -> None:
        self._collapse_keys.add(key)
        wanted = max(1, int(seconds * 1000) + 5)
        if not self._collapse_timer.isActive() or self._collapse_timer.remainingTime() > wanted:
            self._collapse_timer.start(wanted)

    @Slot()
    def _collapse_due(self) -> None:
        keys, self._collapse_keys = self._collapse_keys, set()
        self.refresh_rows(lambda row: str(row.key) in keys)

    @Slot()
    def _reveal_due(self) -> None:
        behind = set(self.presenter.rows_behind)
        if behind:
            self.refresh_rows(lambda row: not behind.isdisjoint(row.item_ids))

    @Slot()
    def _feed_due(self) -> None:
        for terminal_id in self.presenter.advance_terminals():
            self.terminalAdvanced.emit(terminal_id)
        if self.presenter.terminals_behind:
            self._feed_timer.start()

    @Slot(str, bool)
    def toggle(self, key: str, expanded: bool) -> None:
        """The user opened or closed a card (row key, or a tool's item id inside a group)."""
        self.collapse.toggle(key, expanded)
        self.refresh_rows(lambda row: str(row.key) == key or key in row.item_ids)

    # --- feeding ---------------------------------------------------------------------------------
    def set_timeline(self, timeline: Timeline | None) -> None:
        """Show another timeline (a load or a session switch): one reset."""
        self._timer.stop()
        self._pending.clear()
        self.beginResetModel()
        self.timeline = timeline
        self.presenter.forget()
        self.collapse.forget()
        for stale in (*self._block_models.values(), *self._card_models.values()):
            stale.deleteLater()
        self._block_models.clear()
        self._card_models.clear()
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
        pending, self._pending = self._pending, []
        dirty: set[int] = set()

        def emit_dirty() -> None:
            count = len(self._rows)
            for row in sorted(dirty):
                index = self.index(count - 1 - row)
                self.dataChanged.emit(index, index)
            dirty.clear()

        for change in pending:
            if isinstance(change, RowsChanged):
                for offset, row in enumerate(change.rows):
                    self._rows[change.start + offset] = row
                    dirty.add(change.start + offset)
            elif isinstance(change, RowsInserted):
                emit_dirty()
                after = len(self._rows) + len(change.rows)
                last = after - 1 - change.start
                self.beginInsertRows(QModelIndex(), last - len(change.rows) + 1, last)
                self._rows[change.start : change.start] = change.rows
                self.endInsertRows()
            elif isinstance(change, RowsRemoved):
                emit_dirty()
                before = len(self._rows)
                last = before - 1 - change.start
                self.beginRemoveRows(QModelIndex(), last - change.count + 1, last)
                del self._rows[change.start : change.start + change.count]
                self.endRemoveRows()
        emit_dirty()
        self.flush_count += 1
        self.flushed.emit()

    def refresh_rows(self, predicate: Any) -> None:
        """Re-read rows whose payload depends on something outside the items (clock, live state)."""
        count = len(self._rows)
        for i, row in enumerate(self._rows):
            if predicate(row):
                index = self.index(count - 1 - i)
                self.dataChanged.emit(index, index)

    def refresh_attachments(self) -> None:
        """Attachment or inline image states changed: re-read those rows only."""
        self.refresh_rows(lambda row: row.kind in ATTACHMENT_ROWS or row.kind == "assistant-text")

    def refresh_last_turn(self, kinds: tuple[str, ...]) -> None:
        """Re-read rows of the newest group only (a turn ending, the elapsed clock): O(turn), not
        O(history)."""
        if not self._rows:
            return
        count = len(self._rows)
        group = self._rows[-1].group
        for i in range(count - 1, -1, -1):
            row = self._rows[i]
            if row.group != group:
                break
            if row.kind in kinds:
                index = self.index(count - 1 - i)
                self.dataChanged.emit(index, index)

    @property
    def rows(self) -> list[Row]:
        return self._rows

    @Slot(str, result=int)
    def indexOfKey(self, key: str) -> int:
        """View index of a row key, -1 when it is not there (a missing anchor is a no-op)."""
        for i in range(len(self._rows) - 1, -1, -1):
            if str(self._rows[i].key) == key:
                return len(self._rows) - 1 - i
        return -1
