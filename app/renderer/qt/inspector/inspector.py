"""`inspector` in QML: the protocol inspector panel (F12), a list model of the current agent's JSON-RPC
traffic and stderr with named roles. It reads the main side's bounded log (`InspectorHost`) only while
the panel is open, a few times a second (never a signal per message: a 2,000-turn load is 40,000 of
them), appending new entries and removing those the log let go; a filter (method, session id or
request id, as typed) and the directions shown decide which entries are rows. A message's text is
asked for when the user picks it, indented on demand. "Save trace…" writes the kept entries as a
`--record` trace where the user chose."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    Property,
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
    Slot,
)

from app.contract.host_api import InspectorHost
from app.contract.protocol_log import REPORT_RULES, InspectorEntry
from app.renderer.qt.common.desktop_dialog import open_dialog, save_dialog
from app.renderer.qt.common.named_roles import ModelIndex, numbered_roles, role_names
from app.renderer.qt.common.operations import Operations

POLL_MS = 250
ROLE_NAMES = ("seq", "time", "direction", "kind", "method", "rpcId", "session", "size", "kept")
ROLES = numbered_roles(ROLE_NAMES)
INSPECTOR = "inspector"  # the notices' topic


def _value(entry: InspectorEntry, name: str) -> Any:
    if name == "time":
        return f"{entry.t:.3f}"
    if name == "rpcId":
        return entry.rpc_id
    return getattr(entry, name)


class InspectorModel(QAbstractListModel):
    changed = Signal()

    def __init__(
        self,
        host: InspectorHost,
        ops: Operations,
        parent: QObject | None = None,
        ask_path: Callable[[str, Callable[[str], None]], Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._ask_path = ask_path or (lambda suggested, chosen: save_dialog("Save trace", suggested, chosen))
        self._dialog: Any = None
        self._open = False
        self._agent = ""
        self._all: list[InspectorEntry] = []  # what the log still keeps, oldest first
        self._rows: list[InspectorEntry] = []  # those shown
        self._last = 0
        self._filter = ""
        self._hidden: set[str] = set()  # directions not shown
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)

    # --- the model ---------------------------------------------------------------------------------
    def roleNames(self) -> dict[int, QByteArray]:
        return role_names(ROLES)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        name = ROLES.get(role)
        if name is None or not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return _value(self._rows[index.row()], name)

    # --- what QML shows ----------------------------------------------------------------------------
    isOpen = Property(bool, lambda self: self._open, notify=changed)
    agent = Property(str, lambda self: self._agent, notify=changed)
    total = Property(int, lambda self: len(self._all), notify=changed)
    filterText = Property(str, lambda self: self._filter, notify=changed)

    @Slot(str, result=bool)
    def showing(self, direction: str) -> bool:
        return direction not in self._hidden

    # --- what the user does ------------------------------------------------------------------------
    @Slot(bool)
    def setOpen(self, open_: bool) -> None:
        if open_ == self._open:
            return
        self._open = open_
        self._host.watch(open_)
        if open_:
            self.poll()
            self._timer.start()
        else:
            self._timer.stop()
        self.changed.emit()

    @Slot(str)
    def setFilter(self, text: str) -> None:
        if text != self._filter:
            self._filter = text
            self._refilter()

    @Slot(str, bool)
    def setShown(self, direction: str, shown: bool) -> None:
        if shown != (direction not in self._hidden):
            (self._hidden.discard if shown else self._hidden.add)(direction)
            self._refilter()

    @Slot(int, bool, result=str)
    def text(self, row: int, pretty: bool) -> str:
        if not 0 <= row < len(self._rows):
            return ""
        return self._host.text(self._rows[row].seq, pretty)

    @Slot()
    def clear(self) -> None:
        self._host.clear()
        self.beginResetModel()
        self._all, self._rows = [], []
        self.endResetModel()
        self.changed.emit()

    @Slot()
    def saveTrace(self) -> None:
        self._ask_to_save("clawqt-trace.jsonl", self.save_to)

    def _ask_to_save(self, name: str, save_to: Callable[[str], None]) -> None:
        """The desktop's save dialog for a trace (nothing to save yet: said instead)."""
        if not self._all:
            self._ops.notices.show("There is no traffic to save yet.", topic=INSPECTOR)
            return
        suggested = str(Path.home() / name)
        self._dialog = open_dialog(self._dialog, lambda: self._ask_path(suggested, save_to))

    def save_to(self, path: str) -> None:
        if path:
            self._ops.run(
                self._host.save_trace(path),
                "The trace was not saved",
                done=lambda written: self._ops.notices.show(
                    f"Trace of {written:,} messages saved to {path}", topic=INSPECTOR
                ),
                topic=INSPECTOR,
            )

    reportRules = Property(list, lambda self: list(REPORT_RULES), constant=True)

    @Slot()
    def saveReportTrace(self) -> None:
        """Save trace for a bug report (its rules were shown first: InspectorPanel.qml)."""
        self._ask_to_save("clawqt-trace-for-a-bug-report.jsonl", self.report_to)

    def report_to(self, path: str) -> None:
        if path:
            self._ops.run(
                self._host.save_report_trace(path),
                "The trace was not saved",
                done=lambda saved: self._ops.notices.show(
                    f"Trace of {saved[0]:,} messages saved to {path}. {saved[1].split(' Rules: ')[0]}",
                    topic=INSPECTOR,
                ),
                topic=INSPECTOR,
            )

    # --- reading the log -----------------------------------------------------------------------------
    @Slot()
    def poll(self) -> None:
        page = self._host.read(self._last)
        if page.agent != self._agent:  # chats are with another agent now: its own log
            self._agent, self._last = page.agent, 0
            page = self._host.read(0)
            self.beginResetModel()
            self._all, self._rows = [], []
            self.endResetModel()
        self._let_go(page.first)
        if page.entries:
            self._last = page.entries[-1].seq
            self._all.extend(page.entries)
            shown = [e for e in page.entries if self._wanted(e)]
            if shown:
                start = len(self._rows)
                self.beginInsertRows(QModelIndex(), start, start + len(shown) - 1)
                self._rows.extend(shown)
                self.endInsertRows()
        self.changed.emit()

    def _let_go(self, first: int) -> None:
        """Entries older than `first` are gone from the log: their rows go too (all at the top)."""
        gone = 0
        while gone < len(self._all) and self._all[gone].seq < first:
            gone += 1
        if not gone:
            return
        del self._all[:gone]
        rows = 0
        while rows < len(self._rows) and self._rows[rows].seq < first:
            rows += 1
        if rows:
            self.beginRemoveRows(QModelIndex(), 0, rows - 1)
            del self._rows[:rows]
            self.endRemoveRows()

    def _wanted(self, entry: InspectorEntry) -> bool:
        if entry.direction in self._hidden:
            return False
        needle = self._filter.strip().lower()
        if not needle:
            return True
        return needle in entry.method.lower() or needle in entry.session.lower() or needle == entry.rpc_id

    def _refilter(self) -> None:
        self.beginResetModel()
        self._rows = [e for e in self._all if self._wanted(e)]
        self.endResetModel()
        self.changed.emit()
