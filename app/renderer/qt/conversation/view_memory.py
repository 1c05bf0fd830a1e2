"""What the user arranged, found again after a restart and on coming back to a chat: the window's
geometry (and whether it was maximized), the split panes' sizes, the chat shown, each chat's scroll
position and the cards the user opened or closed in it. Kept by the main side's `views` store
(app/main/stores/view_state.py, which decides what of a stored value is usable).

Changes are written SAVE_DELAY_MS after they stop (a drag of the window or a pane is one write) and at
once on quit. A scroll position is the row at the top of the view (its key, and its view row for when
the key is gone after a reload) and how much of it is above the view's top; "at the end" when the view
follows the newest message, which is also what a chat never seen before gets."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Hashable
from typing import Any

from PySide6.QtCore import QByteArray, QObject, QTimer, Signal, Slot
from PySide6.QtGui import QWindow

from app.contract.local_stores import ChatView, ToggledCard, ViewStateStore, WindowPlacement
from app.renderer.qt.common.window_placement import show_placed
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.conversation.timeline_model import TimelineModel
from app.renderer.timeline.rows import RowKey

SAVE_DELAY_MS = 500


class ViewMemory(QObject):
    chatShown = Signal()  # another chat is shown and its remembered view is ready (scrollOfShown)

    def __init__(
        self,
        store: ViewStateStore,
        session: CurrentSession,
        model: TimelineModel,
        parent: QObject | None = None,
        *,
        remembers_window: bool = True,
    ) -> None:
        """`remembers_window`: this chat is the window's main one, whose key is the chat reopened at
        start (a tile's is kept with the tiles)."""
        super().__init__(parent)
        self._store = store
        self._remembers_window = remembers_window
        self._session = session
        self._model = model
        self._placement: WindowPlacement = store.window()
        self._window: QWindow | None = None
        self._chat_key = ""  # the chat whose view is being noted
        self._chat_view: ChatView = ChatView()
        self._window_timer = _timer(self, self._save_window)
        self._chat_timer = _timer(self, self._save_chat)
        model.remembered_toggles = self._toggles_of
        model.views.collapse.on_change = self._toggles_changed
        session.sessionChanged.connect(self._on_session_changed)

    # --- the window ----------------------------------------------------------------------------------
    def place(self, window: QWindow) -> None:
        """Give the window its remembered geometry and show it, then `watch` it."""
        show_placed(window, self._placement)
        self.watch(window)

    def watch(self, window: QWindow) -> None:
        """From now on the window's moves and resizes are noted (it was shown where it was left)."""
        self._window = window
        for signal in (window.xChanged, window.yChanged, window.widthChanged, window.heightChanged):
            signal.connect(self._window_changed)
        window.visibilityChanged.connect(self._window_changed)

    def _window_changed(self, *_: Any) -> None:
        self._window_timer.start()

    def _save_window(self) -> None:
        window = self._window
        if window is not None:
            visibility = window.visibility()
            maximized = visibility in (QWindow.Visibility.Maximized, QWindow.Visibility.FullScreen)
            self._placement["maximized"] = maximized
            if visibility == QWindow.Visibility.Windowed:  # the normal geometry, to come back to
                geometry = window.geometry()
                self._placement["x"], self._placement["y"] = geometry.x(), geometry.y()
                self._placement["width"], self._placement["height"] = geometry.width(), geometry.height()
        self._store.set_window(self._placement)

    @Slot(str, result=QByteArray)
    def splitState(self, name: str) -> QByteArray:
        """A split's remembered sizes for SplitView.restoreState (empty: its own defaults)."""
        saved = self._placement.get("splits", {}).get(name, "")
        try:
            return QByteArray(base64.b64decode(saved, validate=True))
        except (binascii.Error, ValueError):
            return QByteArray()

    @Slot(str, QByteArray)
    def setSplitState(self, name: str, state: QByteArray) -> None:
        """The user resized a split's panes (SplitView.saveState)."""
        encoded = base64.b64encode(bytes(state.data())).decode()
        splits = self._placement.setdefault("splits", {})
        if splits.get(name) != encoded:
            splits[name] = encoded
            self._window_timer.start()

    @property
    def remembers_size(self) -> bool:
        return "width" in self._placement and "height" in self._placement

    @property
    def sidebar_groups(self) -> str:
        """How the sidebar grouped the chats when ClawQt quit ("date" or "folder")."""
        return self._placement.get("sidebarGroups", "date")

    def set_sidebar_groups(self, groups: str) -> None:
        if self._placement.get("sidebarGroups", "date") != groups:
            self._placement["sidebarGroups"] = groups
            self._window_timer.start()

    @property
    def open_chat(self) -> str:
        """The chat shown when ClawQt quit ("" when none)."""
        return self._placement.get("openChat", "")

    @property
    def tile_chats(self) -> list[str]:
        """The chats shown side by side with the main one when ClawQt quit, left to right."""
        return list(self._placement.get("tiles", []))

    def set_tile_chats(self, keys: list[str]) -> None:
        if self._placement.get("tiles", []) != keys:
            self._placement["tiles"] = list(keys)
            self._window_timer.start()

    # --- each chat's view --------------------------------------------------------------------------
    def _on_session_changed(self) -> None:
        self._flush_chat()
        key = self._session.sessionKey
        self._chat_key = key
        self._chat_view = self._store.chat(key) if key else ChatView()
        if self._remembers_window and self._placement.get("openChat") != key:
            self._placement["openChat"] = key
            self._window_timer.start()
        self.chatShown.emit()

    @Slot(int, float, bool)
    def scrolled(self, view_row: int, offset: float, at_end: bool) -> None:
        """Where the user left the shown chat: `view_row` at the top of the view with `offset` pixels
        of it above the top, or following the newest message (`at_end`). While another chat replaces
        the shown one (its key changed, its view not yet), the list's moves are not the user's."""
        if self._session.sessionKey != self._chat_key:
            return
        view = self._chat_view
        if at_end:
            changed = not view.get("atEnd")
            for name in ("anchor", "row", "offset"):
                view.pop(name, None)  # type: ignore[misc]
            view["atEnd"] = True
        else:
            row = self._model.row_at(view_row)
            if row is None:
                return
            new = {"atEnd": False, "anchor": str(row.key), "row": view_row, "offset": round(offset, 1)}
            changed = any(view.get(k) != v for k, v in new.items())
            view.update(new)  # type: ignore[typeddict-item]
        if changed:
            self._chat_timer.start()

    @Slot(result="QVariantMap")
    def scrollOfShown(self) -> dict[str, Any]:
        """Where to put the shown chat's view: {"atEnd": True}, or the view row to bring to the top
        and how far past its top (the anchor's row now, else the row it had)."""
        view = self._chat_view
        if view.get("atEnd", True) or "row" not in view:
            return {"atEnd": True}
        slot, _, item = view.get("anchor", "").partition(":")  # str(RowKey): "slot:item"
        row = self._model.view_row_of_key(RowKey(slot, item))  # type: ignore[arg-type]
        if row < 0:
            row = view["row"]
        if row >= len(self._model.rows):
            return {"atEnd": True}
        return {"atEnd": False, "row": row, "offset": view.get("offset", 0.0)}

    def _toggles_of(self, key: str) -> dict[Hashable, bool]:
        """The cards the user opened or closed in chat `key` (the model applies them before it builds
        any row)."""
        view = self._chat_view if key == self._chat_key else self._store.chat(key)
        return {_card_key(card): card["open"] for card in view.get("toggled", [])}

    def _toggles_changed(self) -> None:
        toggled = self._model.views.collapse.toggled
        self._chat_view["toggled"] = [_toggled_card(key, is_open) for key, is_open in toggled.items()]
        self._chat_timer.start()

    def _save_chat(self) -> None:
        if self._chat_key:
            self._store.set_chat(self._chat_key, self._chat_view)

    def _flush_chat(self) -> None:
        if self._chat_timer.isActive():
            self._chat_timer.stop()
            self._save_chat()

    def flush(self) -> None:
        """Quitting: what waits for its delay is written now."""
        self._flush_chat()
        if self._window_timer.isActive():
            self._window_timer.stop()
            self._save_window()


def _timer(owner: QObject, slot: Any) -> QTimer:
    timer = QTimer(owner)
    timer.setSingleShot(True)
    timer.setInterval(SAVE_DELAY_MS)
    timer.timeout.connect(slot)
    return timer


def _card_key(card: ToggledCard) -> Hashable:
    """A tool's item id (no slot), or a row's key."""
    return RowKey(card["slot"], card["item"]) if card["slot"] else card["item"]  # type: ignore[arg-type]


def _toggled_card(key: Hashable, is_open: bool) -> ToggledCard:
    if isinstance(key, RowKey):
        return ToggledCard(slot=key.slot, item=key.item, open=is_open)
    return ToggledCard(slot="", item=str(key), open=is_open)
