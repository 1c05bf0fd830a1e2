"""The sidebar's list model: the controller's session entries, applied as a diff.

Why a model and not a JS array: a new array makes the ListView destroy and recreate every delegate,
which a turn starting or ending (the spinner) did in the middle of streaming - a visible stall. Here an
unchanged list costs nothing, a changed entry is one `dataChanged`, and only a different set or order
of keys resets the list."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QObject, Qt

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


class SessionListModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[dict[str, Any]] = []

    def roleNames(self) -> dict[int, QByteArray]:
        return {ENTRY_ROLE: QByteArray(b"modelData")}  # delegates keep reading `modelData.title`

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == ENTRY_ROLE and index.isValid() and 0 <= index.row() < len(self._entries):
            return self._entries[index.row()]
        return None

    def apply(self, entries: list[dict[str, Any]]) -> None:
        """Show `entries`: nothing when equal, per-row changes when the keys are the same."""
        if entries == self._entries:
            return
        if [e["key"] for e in entries] != [e["key"] for e in self._entries]:
            self.beginResetModel()
            self._entries = entries
            self.endResetModel()
            return
        for row, (old, new) in enumerate(zip(self._entries, entries, strict=True)):
            if old != new:
                self._entries[row] = new
                index = self.index(row)
                self.dataChanged.emit(index, index)
