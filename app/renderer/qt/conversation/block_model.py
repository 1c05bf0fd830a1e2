"""One row's rendered markdown blocks as a list model, updated by index.

Why: a streaming reply's payload used to carry every block's HTML, so each refresh converted the whole
message to JavaScript and a JS loop compared every block (a 1 MB reply: ~70 ms per refresh, growing
with the reply). The blocks now stay in Python; a refresh compares them here (finished blocks are the
same string objects, so the comparison is by identity) and tells QML only about the blocks that changed
or were added (NeoChat's list-model timeline, one level down).

A "more" block (what of a long reply is not rendered yet) names its renderer; `showMore` asks it for
the next part and shows that at once. A later refresh that still carries the older, shorter render
(the presenter caches payloads by item version) is replaced by the renderer's current blocks, so a
shown part never disappears again."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QObject, Qt, Slot

from app.renderer.markdown.render import block_entries
from app.renderer.markdown.streaming import renderer_of
from app.renderer.qt.common.named_roles import ModelIndex, numbered_roles, role_names

_ROLES = ("kind", "html", "code", "lang", "tail")
_ROLE_IDS = numbered_roles(_ROLES)


class BlockListModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None, blocks: list[dict[str, Any]] | None = None) -> None:
        super().__init__(parent)
        self._blocks: list[dict[str, Any]] = list(blocks or [])

    def roleNames(self) -> dict[int, QByteArray]:
        return role_names(_ROLE_IDS)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._blocks)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        name = _ROLE_IDS.get(role)
        if name is None or not index.isValid() or not 0 <= index.row() < len(self._blocks):
            return None
        return self._blocks[index.row()].get(name) or ""

    @Slot(int)
    def showMore(self, row: int) -> None:
        """Render the next part of the reply whose "more" block is at `row`."""
        if not 0 <= row < len(self._blocks) or self._blocks[row].get("kind") != "more":
            return
        renderer = renderer_of(self._blocks[row].get("lang") or "")
        if renderer is not None:
            self.apply(block_entries(renderer.show_more()))

    def apply(self, blocks: list[dict[str, Any]]) -> None:
        """Show `blocks`: changed ones are one `dataChanged` each, new ones appended, extra removed."""
        blocks = _newest(blocks)
        old = self._blocks
        shared = min(len(old), len(blocks))
        for row in range(shared):
            if old[row] is not blocks[row] and old[row] != blocks[row]:
                old[row] = blocks[row]
                index = self.index(row)
                self.dataChanged.emit(index, index)
        if len(blocks) > shared:
            self.beginInsertRows(QModelIndex(), shared, len(blocks) - 1)
            old.extend(blocks[shared:])
            self.endInsertRows()
        elif len(old) > shared:
            self.beginRemoveRows(QModelIndex(), shared, len(old) - 1)
            del old[shared:]
            self.endRemoveRows()

    @property
    def blocks(self) -> list[dict[str, Any]]:
        return list(self._blocks)


def _newest(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`blocks`, or its renderer's current blocks when the user has shown more since they were made."""
    last = blocks[-1] if blocks else None
    if last is None or last.get("kind") != "more":
        return blocks
    key = str(last.get("lang") or "")
    renderer = renderer_of(key)
    if renderer is None or f"{renderer.key}/{renderer.expansions}" == key:
        return blocks
    return block_entries(renderer.blocks)
