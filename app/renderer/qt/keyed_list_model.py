"""A list of dicts for QML, applied as a diff by a key field (the sidebar's sessions, a row's attachment
cards).

Why a model and not a JS array: a new array makes a ListView or Repeater destroy and recreate every
delegate, which lost keyboard focus when a card's state changed and, in the sidebar, recreated every
entry when a turn started or ended mid-stream. Here an unchanged list costs nothing, a changed entry is
one `dataChanged` (its delegate, and its focus, survive), and only a different set or order of keys
resets the list. Delegates read each entry as `modelData`."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QObject, Qt

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


class KeyedListModel(QAbstractListModel):
    def __init__(
        self, key: str = "key", parent: QObject | None = None, entries: list[dict[str, Any]] | None = None
    ) -> None:
        super().__init__(parent)
        self._key = key
        self._entries: list[dict[str, Any]] = list(entries or [])

    def roleNames(self) -> dict[int, QByteArray]:
        return {ENTRY_ROLE: QByteArray(b"modelData")}

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
        if [e.get(self._key) for e in entries] != [e.get(self._key) for e in self._entries]:
            self.beginResetModel()
            self._entries = list(entries)
            self.endResetModel()
            return
        for row, (old, new) in enumerate(zip(self._entries, entries, strict=True)):
            if old != new:
                self._entries[row] = new
                index = self.index(row)
                self.dataChanged.emit(index, index)

    @property
    def entries(self) -> list[dict[str, Any]]:
        return list(self._entries)
