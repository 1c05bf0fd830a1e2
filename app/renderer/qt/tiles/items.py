"""The tiles' QML: one ChatTile.qml per pane, made in a context of its own whose names are the pane's
objects (the window-wide ones come from the root context), placed in the window's row of chats after
the main one. An item is made once per pane and shown or hidden with it (Qt Quick's layouts leave
hidden items out), moved to the end of the row when its pane opens again."""

from __future__ import annotations

from PySide6.QtCore import QObject, QUrl
from PySide6.QtQml import QQmlComponent, QQmlContext, QQmlEngine
from PySide6.QtQuick import QQuickItem

from app.contract.bundled import resources_dir
from app.renderer.qt.tiles.pane import ChatPane


class TileItems:
    def __init__(self, engine: QQmlEngine, row: QQuickItem) -> None:
        self._engine = engine
        self._row = row
        self._component: QQmlComponent | None = None
        self._items: dict[ChatPane, QQuickItem] = {}

    def __call__(self, pane: ChatPane, shown: bool) -> None:
        item = self._items.get(pane)
        if item is None:
            if not shown:
                return
            item = self._items[pane] = self._make(pane)
        if shown:
            last = self._row.childItems()[-1]
            if last is not item:
                item.stackAfter(last)
        item.setVisible(shown)

    def item(self, pane: ChatPane) -> QQuickItem | None:
        return self._items.get(pane)

    def _make(self, pane: ChatPane) -> QQuickItem:
        if self._component is None:
            url = QUrl.fromLocalFile(str(resources_dir() / "qml" / "tiles" / "ChatTile.qml"))
            self._component = QQmlComponent(self._engine, url)
        context = QQmlContext(self._engine.rootContext(), pane)
        for name, qobject in pane.context().items():
            context.setContextProperty(name, qobject)
        context.setContextProperty("tilePane", pane)
        made: QObject | None = self._component.create(context)
        if not isinstance(made, QQuickItem):
            errors = "\n".join(e.toString() for e in self._component.errors())
            raise RuntimeError(f"a tile could not be made:\n{errors}")
        made.setParent(pane)  # destroyed with its pane, never before the objects it binds to
        made.setParentItem(self._row)
        return made
