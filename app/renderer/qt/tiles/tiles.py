"""Chats side by side: up to MAX_TILES panes beside the main chat, each with its own header,
conversation and composer (tiles/ChatTile.qml, made in a QML context of its own where the pane's
objects go by the main chat's names). Which chats are tiles is kept with the window's placement and
opened again at start. The keyboard moves between the chats on screen and closes a tile.

A closed tile's pane is kept, emptied and hidden, for the next tile: its objects are subscribed to
the agents' envelopes and a turn it started may still be running, so it is never destroyed while
the window lives (three at most)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtGui import QImage

from app.contract.envelopes import LoadResult
from app.contract.errors import HostError
from app.contract.local_stores import MAX_TILES
from app.renderer.qt.agents.picker import AgentPicker
from app.renderer.qt.common.notices import Notices
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.sessions.session_list import SessionList
from app.renderer.qt.tiles.pane import ChatPane, WindowParts

FULL = "Four chats are on screen already: close a tile first (Ctrl+Alt+W)."

# what shows a pane on screen: called with the pane and whether it is shown (the window's TileItems)
PaneView = Callable[[ChatPane, bool], None]


class Tiles(QObject):
    changed = Signal()  # a tile opened or closed, or a tile's chat changed
    focusChanged = Signal()  # another chat on screen has the keyboard

    def __init__(
        self,
        parts: WindowParts,
        main: ChatPane,
        sessions: SessionList,
        agents: AgentPicker,
        parent: QObject | None = None,
        *,
        shown: Sequence[Callable[[LoadResult], None]] = (),
    ) -> None:
        """`shown`: what hears of a chat shown in a tile as of one shown in the main chat (the sidebar
        lists a new chat and marks it seen, the inbox takes its finished turn as read)."""
        super().__init__(parent)
        self._shown = tuple(shown)
        self._parts = parts
        self.main = main
        self._sessions = sessions
        self._agents = agents
        self.panes: list[ChatPane] = []  # the tiles on screen, left to right
        self._spare: list[ChatPane] = []  # closed tiles' panes, emptied, for the next tiles
        self._focused: ChatPane = main
        self.view: PaneView | None = None  # set by the window; objects made without one show none
        sessions.chatEnded.connect(self._chat_ended)

    # --- what QML reads ------------------------------------------------------------------------------
    count = Property(int, lambda self: len(self.panes), notify=changed)
    focusedPane = Property(QObject, lambda self: self._focused, notify=focusChanged)
    chats = Property(list, lambda self: self.keys(), notify=changed)

    @Slot(str, result=str)
    def agentName(self, key: str) -> str:
        """The name of the agent a chat is with ("" before it is open)."""
        return self._agents.names().get(self._agents.agent_of(key), "") if key else ""

    def keys(self) -> list[str]:
        return [pane.session.sessionKey for pane in self.panes]

    def on_screen(self) -> Iterator[ChatPane]:
        """Every pane on screen, the main chat first."""
        yield self.main
        yield from self.panes

    def showing(self, key: str) -> ChatPane | None:
        return next((pane for pane in self.on_screen() if key and pane.session.sessionKey == key), None)

    # --- opening and closing -----------------------------------------------------------------------
    @Slot(str)
    def open(self, key: str) -> None:
        """A chat chosen in the sidebar: the tile showing it gets the keyboard, else the main chat
        shows it."""
        pane = self.showing(key)
        if pane is not None:
            self._focus(pane)
            return
        self.main.session.openSession(key)
        self._focus(self.main)

    @Slot(str)
    def openBeside(self, key: str) -> None:
        """The chat in a tile of its own (a chat already on screen gets the keyboard instead)."""
        pane = self.showing(key)
        if pane is not None:
            self._focus(pane)
            return
        pane = self._new_tile()
        if pane is not None:
            self._parts.ops.spawn(self._open_in(pane, key))

    @Slot()
    def newBeside(self) -> None:
        """A new chat in a tile, with the agent the user made a chat with last."""
        self.newBesideWith("")

    @Slot(str)
    def newBesideWith(self, agent_id: str) -> None:
        """A new chat in a tile with `agent_id` ("": the agent the user made a chat with last)."""
        pane = self._new_tile()
        if pane is not None:
            pane.ops.spawn(pane.session.new_chat(agent_id or self._parts.host.agents.agent_for_new_chat()))

    @Slot(QObject)
    def close(self, pane: QObject) -> None:
        if not isinstance(pane, ChatPane) or pane not in self.panes:
            return
        index = self.panes.index(pane)
        pane.stash()
        self.panes.remove(pane)
        pane.session.clear()
        self._spare.append(pane)
        if self.view is not None:
            self.view(pane, False)
        self._save()
        self.changed.emit()
        if self._focused is pane:
            self._focus(self.panes[index - 1] if index > 0 else self.main)

    @Slot()
    def closeFocused(self) -> None:
        self.close(self._focused)

    def restore(self, keys: list[str]) -> None:
        """The tiles the window had when ClawQt quit, opened again (one that cannot be is said)."""
        for key in keys[:MAX_TILES]:
            self.openBeside(key)
        self._focus(self.main)

    def _new_tile(self) -> ChatPane | None:
        if len(self.panes) >= MAX_TILES:
            self._parts.ops.notices.show(FULL)
            return None
        pane = self._spare.pop(0) if self._spare else self._make_pane()
        self.panes.append(pane)
        if self.view is not None:
            self.view(pane, True)
        self.changed.emit()
        self._focus(pane)
        return pane

    def _make_pane(self) -> ChatPane:
        notices = Notices()
        ops = Operations(self._parts.ops.tasks, notices)
        pane = ChatPane(self._parts, self, remembers_window=False, ops=ops)
        notices.setParent(pane)
        pane.bind(self._sessions, self._agents)
        pane.session.sessionChanged.connect(self._chat_changed)
        for listener in self._shown:
            pane.session.shown.connect(listener)
        return pane

    async def _open_in(self, pane: ChatPane, key: str) -> None:
        try:
            result = await self._parts.host.sessions.activate_session(key)
        except HostError as exc:
            if pane in self.panes and not pane.session.sessionKey:
                self.close(pane)
            self._parts.ops.notices.failed("Could not open that chat beside", exc)
            return
        if pane in self.panes and not pane.session.sessionKey:  # not closed meanwhile
            pane.session.show(result)

    def _chat_ended(self, key: str) -> None:
        """A chat closed or deleted: the tile showing it closes (the main chat opens a new one)."""
        pane = self.showing(key)
        if pane is not None and pane is not self.main:
            pane.session.store.forget(key)
            self.close(pane)

    def _chat_changed(self) -> None:
        self._save()
        self.changed.emit()

    def _save(self) -> None:
        self.main.view_memory.set_tile_chats([key for key in self.keys() if key])

    # --- the keyboard --------------------------------------------------------------------------------
    @Slot(QObject)
    def setFocusedPane(self, pane: QObject) -> None:
        """A chat on screen took the keyboard (its composer was clicked)."""
        if isinstance(pane, ChatPane) and (pane is self.main or pane in self.panes):
            self._focus(pane)

    @Slot()
    def focusNext(self) -> None:
        self._step(1)

    @Slot()
    def focusPrevious(self) -> None:
        self._step(-1)

    def _step(self, by: int) -> None:
        order = list(self.on_screen())
        self._focus(order[(order.index(self._focused) + by) % len(order)])

    def _focus(self, pane: ChatPane) -> None:
        if pane is not self._focused:
            self._focused = pane
            self.focusChanged.emit()

    # --- the window's hooks --------------------------------------------------------------------------
    def thumbnail(self, chip_id: str) -> QImage:
        """A composer's attachment thumbnail, whichever chat on screen holds it (chip ids are unique)."""
        for pane in self.on_screen():
            image = pane.composer_files.thumbnail(chip_id)
            if not image.isNull():
                return image
        return QImage()

    def after_frame(self) -> None:
        for pane in self.panes:
            pane.after_frame()

    def stash(self) -> None:
        for pane in self.panes:
            pane.stash()
