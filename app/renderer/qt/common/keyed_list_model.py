"""A list of dicts for QML, applied as a diff by a key field (the sidebar's sessions, a row's attachment
cards).

Why a model and not a JS array: a new array makes a ListView or Repeater destroy and recreate every
delegate, which lost keyboard focus when a card's state changed and, in the sidebar, recreated every
entry when a turn started or ended mid-stream. Here an unchanged list costs nothing, a changed entry is
one `dataChanged` (its delegate, and its focus, survive), keys that come or go are inserted or removed
rows (the others' delegates stay), and only repeated keys reset the list. Delegates read each entry as
`modelData`."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QObject, Qt

from app.renderer.qt.common.named_roles import ModelIndex

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
SECTION_ROLE = Qt.ItemDataRole.UserRole + 2


class KeyedListModel(QAbstractListModel):
    """`section`, when given, names a field a ListView groups the rows by (its `section.property`
    reads only a role, not a field of `modelData`)."""

    def __init__(
        self,
        key: str = "key",
        parent: QObject | None = None,
        entries: list[dict[str, Any]] | None = None,
        section: str = "",
    ) -> None:
        super().__init__(parent)
        self._key = key
        self._section = section
        self._entries: list[dict[str, Any]] = list(entries or [])

    def roleNames(self) -> dict[int, QByteArray]:
        roles = {ENTRY_ROLE: QByteArray(b"modelData")}
        if self._section:
            roles[SECTION_ROLE] = QByteArray(b"section")
        return roles

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if index.isValid() and 0 <= index.row() < len(self._entries):
            if role == ENTRY_ROLE:
                return self._entries[index.row()]
            if role == SECTION_ROLE and self._section:
                return self._entries[index.row()].get(self._section, "")
        return None

    def apply(self, entries: list[dict[str, Any]]) -> None:
        """Show `entries`: nothing when equal, per-row changes when the keys are the same, inserted and
        removed rows when keys come or go (a new chat's row appearing at the top must not recreate every
        other delegate mid-stream); a reset only when keys repeat."""
        if entries == self._entries:
            return
        old_keys = [e.get(self._key) for e in self._entries]
        new_keys = [e.get(self._key) for e in entries]
        if old_keys != new_keys and (
            len(set(old_keys)) != len(old_keys) or len(set(new_keys)) != len(new_keys)
        ):
            self.beginResetModel()
            self._entries = list(entries)
            self.endResetModel()
            return
        matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
        for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):  # from the end: indices stay valid
            if tag == "equal":
                self._change_rows(i1, entries[j1:j2])
                continue
            if i2 > i1:
                self.beginRemoveRows(QModelIndex(), i1, i2 - 1)
                del self._entries[i1:i2]
                self.endRemoveRows()
            if j2 > j1:
                self.beginInsertRows(QModelIndex(), i1, i1 + (j2 - j1) - 1)
                self._entries[i1:i1] = entries[j1:j2]
                self.endInsertRows()

    def _change_rows(self, first: int, entries: list[dict[str, Any]]) -> None:
        for row, new in enumerate(entries, start=first):
            if self._entries[row] != new:
                self._entries[row] = new
                index = self.index(row)
                self.dataChanged.emit(index, index)

    @property
    def entries(self) -> list[dict[str, Any]]:
        return list(self._entries)
