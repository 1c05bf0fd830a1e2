"""`userTerminals` in QML: the terminal panel's tabs (the user's own shells, from the main side's
UserTerminal*Envelopes), their split panes, the pane the keyboard goes to, whether the panel is open,
and the user's actions passed back (new, split, close, sharing, pin, open or refuse an agent's
request, keys, paste, each pane's size).

Ownership: the main side (`UserTerminalsHost`) owns the processes, sharing, pins and recency; this
object only shows them and asks. It owns what is view state: each terminal's screen
(`InteractiveTerminal`, fed with the output as it arrives, also for tabs not shown, so switching
tabs never replays a backlog), the participation banner's 5-second window, and the panel's size in
cells (new terminals start at it; each pane is resized to the cells it fits), and which tab each
terminal is shown in (`PaneLayout`, from each info's `split_of`).

Output is only queued when it arrives; emulation runs in time-boxed slices whenever the loop is idle
(the tab shown first), and only the screen that moved repaints: a 1 MB burst never rebuilds a
document or stalls the GUI. Host errors are shown (notice bar and `error`), never raised into QML."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QObject, QTimer, Signal, Slot

from app.contract.errors import HostError
from app.contract.terminal_hosts import UserTerminalsHost
from app.contract.user_terminals import (
    SHARING_NAMES,
    SPLIT_DIRECTIONS,
    UserTerminalActivityEnvelope,
    UserTerminalChangedEnvelope,
    UserTerminalEnvelope,
    UserTerminalInfo,
    UserTerminalOutputEnvelope,
    UserTerminalRemovedEnvelope,
)
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.terminals.tabs import (
    SHARING_MODES,
    ShownTerminal,
    TerminalTabs,
    shown_terminal,
    takes_part,
    terminal_entry,
)
from app.renderer.terminal.keys import pasted_text, program_key_text
from app.renderer.terminal.layout import PaneLayout, placed

if TYPE_CHECKING:
    from app.renderer.terminal.live import InteractiveTerminal

FEED_BUDGET_S = 0.01  # emulation per slice; the loop handles events (and frames) between slices
DEFAULT_SIZE = (80, 24)


class UserTerminalsView(ChatPart):
    changed = Signal()  # the tabs' fields, the tab shown, the panel opened or closed
    layoutChanged = Signal()  # the panes of the tab shown are others or placed otherwise
    terminalAdvanced = Signal(str)  # a terminal's screen moved on: the painted screen repaints

    def __init__(
        self, host: UserTerminalsHost, session: CurrentSession, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._terminals: dict[str, ShownTerminal] = {}
        self._layout = PaneLayout()  # which tab each terminal is shown in, and the tabs' panes
        self._current = ""  # the pane the keyboard goes to, in the tab shown
        self._shown_layout: dict[str, Any] = {}
        self._open = False
        self._size = DEFAULT_SIZE
        self._error = ""
        self.model = TerminalTabs(self)
        self._feed_timer = QTimer(self)  # the next emulation slice, as soon as the loop is idle
        self._feed_timer.setSingleShot(True)
        self._feed_timer.setInterval(0)
        self._feed_timer.timeout.connect(self._feed)
        for info in host.terminals():  # terminals that outlived an earlier view
            self._add(info).screen.append(host.output(info.terminal_id))
        self._unsubscribe: Callable[[], None] | None = host.subscribe(self._on_envelope)
        session.sessionChanged.connect(self._refresh)  # "pinned" is relative to the chat shown
        if self._terminals:
            self._set_current(self._layout.last_used(self._layout.tabs()[0]))
            self._schedule()
        self._refresh()

    # --- envelopes ---------------------------------------------------------------------------------
    def _on_envelope(self, envelope: UserTerminalEnvelope) -> None:
        if isinstance(envelope, UserTerminalOutputEnvelope):
            tab = self._terminals.get(envelope.terminal_id)
            if tab is not None:
                tab.screen.append(envelope.data)
                self._schedule()
        elif isinstance(envelope, UserTerminalChangedEnvelope):
            self._changed_info(envelope.info)
        elif isinstance(envelope, UserTerminalRemovedEnvelope):
            self._removed(envelope.terminal_id)
        elif isinstance(envelope, UserTerminalActivityEnvelope):
            tab = self._terminals.get(envelope.terminal_id)
            if tab is not None:
                tab.agent_label = envelope.agent_label
                tab.participation.start()  # (re)starts the 5 s window
                self._refresh()

    def _add(self, info: UserTerminalInfo) -> ShownTerminal:
        tab = shown_terminal(info, self, self._refresh)
        self._terminals[info.terminal_id] = tab
        beside = self._terminals.get(info.split_of or "")
        size = (beside.info.columns, beside.info.rows) if beside is not None else self._size
        self._layout.add(info.terminal_id, info.split_of, info.split_direction, size)
        return tab

    def _changed_info(self, info: UserTerminalInfo) -> None:
        tab = self._terminals.get(info.terminal_id)
        if tab is None:
            self._add(info)
            if info.state == "pending" and (not self._open or not self._current):
                # an agent asks for a terminal: the user must see the request (its deadline runs),
                # but keyboard focus stays where it is
                self._open = True
                self._set_current(info.terminal_id)
            elif info.state == "running" and info.split_of in self._terminals:
                # a pane the user asked for beside another (here, or by confirming a card): shown
                self._open = True
                self._set_current(info.terminal_id)
                self._schedule()
        else:
            tab.info = info
        self._refresh()

    def _removed(self, terminal_id: str) -> None:
        tab = self._terminals.pop(terminal_id, None)
        if tab is None:
            return
        tab.participation.stop()
        tab.participation.deleteLater()
        still = self._layout.remove(terminal_id)
        if terminal_id == self._current:
            tabs = self._layout.tabs()
            self._set_current(self._layout.last_used(still or (tabs[-1] if tabs else "")))
        self._refresh()

    def _set_current(self, terminal_id: str) -> None:
        self._current = terminal_id
        if terminal_id:
            self._layout.touch(terminal_id)

    # --- what QML shows ------------------------------------------------------------------------------
    def _entry(self, tab: ShownTerminal) -> dict[str, Any]:
        return terminal_entry(tab, self._session.sessionKey)

    def _tab_entry(self, tab: str) -> dict[str, Any]:
        """A tab's row: its first pane's fields, how many panes it shows, whether an agent takes part
        in any of them."""
        panes = [self._terminals[pane] for pane in self._layout.panes(tab) if pane in self._terminals]
        entry = self._entry(panes[0])
        entry["paneCount"] = len(panes)
        entry["splitParticipating"] = any(map(takes_part, panes[1:]))
        return entry

    def _refresh(self) -> None:
        self.model.apply([self._tab_entry(tab) for tab in self._layout.tabs()])
        layout = self._layout.tree(self._layout.tab_of(self._current) or "")
        if layout != self._shown_layout:  # only then: the panes' views are rebuilt on each change
            self._shown_layout = layout
            self.layoutChanged.emit()
        self.changed.emit()

    def _get_current(self) -> dict[str, Any]:
        tab = self._terminals.get(self._current)
        return self._entry(tab) if tab is not None else {}

    tabs = Property(QObject, lambda self: self.model, constant=True)
    # the shown tab's entry ({} if none)
    current = variant_property("QVariantMap", _get_current, notify=changed)
    currentId = Property(str, lambda self: self._current, notify=changed)
    entries = variant_property(  # every terminal's entry by id: a split pane's title row shows its own
        "QVariantMap", lambda self: {k: self._entry(t) for k, t in self._terminals.items()}, notify=changed
    )
    # the tab shown, and its panes as nested maps ({"pane": id} or {"orientation", "first", "second"})
    currentTab = Property(str, lambda self: self._layout.tab_of(self._current) or "", notify=changed)
    layout = variant_property("QVariantMap", lambda self: self._shown_layout, notify=layoutChanged)
    panelOpen = Property(bool, lambda self: self._open, notify=changed)
    count = Property(int, lambda self: len(self._terminals), notify=changed)
    error = Property(str, lambda self: self._error, notify=changed)
    # an agent takes part in some terminal right now (the header says so while the panel is hidden)
    participating = Property(
        bool, lambda self: any(map(takes_part, self._terminals.values())), notify=changed
    )
    sharingModes = variant_property("QVariantList", lambda self: SHARING_MODES, constant=True)

    # --- the painted screen's source -----------------------------------------------------------------
    def terminal_emulator(self, terminal_id: str) -> InteractiveTerminal | None:
        tab = self._terminals.get(terminal_id)
        return tab.screen if tab is not None else None

    def terminal_key(self, terminal_id: str, key: int, text: str, modifiers: int) -> bool:
        """A key the user pressed in the terminal, as the bytes a terminal program reads; False when
        it sends nothing (a lone modifier, a terminal that is not running)."""
        tab = self._terminals.get(terminal_id)
        if tab is None or tab.info.state != "running":
            return False
        data = program_key_text(key, text, modifiers, tab.screen.app_cursor_keys)
        if not data:
            return False
        self._call("Could not send your keys", self._host.input, terminal_id, data)
        return True

    def terminal_paste(self, terminal_id: str, text: str) -> None:
        """Pasted text, with newlines as the Enter key sends them; marked as a paste when the program
        asked for it (then a pasted line does not run by itself)."""
        tab = self._terminals.get(terminal_id)
        if tab is None or tab.info.state != "running" or not text:
            return
        self._call(
            "Could not paste", self._host.input, terminal_id, pasted_text(text, tab.screen.bracketed_paste)
        )

    # --- emulation -----------------------------------------------------------------------------------
    def _schedule(self) -> None:
        if not self._feed_timer.isActive():
            self._feed_timer.start()

    @Slot()
    def _feed(self) -> None:
        deadline = time.perf_counter() + FEED_BUDGET_S
        tab = self._layout.tab_of(self._current) if self._open else None
        shown = self._layout.panes(tab) if tab else []
        behind = False
        for terminal_id in shown + [key for key in self._terminals if key not in shown]:
            screen = self._terminals[terminal_id].screen
            if not screen.behind:
                continue
            left = deadline - time.perf_counter()
            if left <= 0:
                behind = True
                break
            behind = screen.feed_for(left) or behind
            replies = screen.take_replies()
            if replies and self._terminals[terminal_id].info.state == "running":
                self._call("Could not answer the terminal", self._host.answer, terminal_id, replies)
            self.terminalAdvanced.emit(terminal_id)
        if behind:
            self._feed_timer.start()

    # --- the user's actions --------------------------------------------------------------------------
    def _call(self, what: str, call: Callable[..., Any], *args: Any) -> Any:
        """A host call; its HostError goes to the notice bar and `error`, never into QML."""
        return self._ops.call(what, lambda: call(*args), refused=lambda exc: self._show_error(what, exc))

    def _show_error(self, what: str, error: HostError) -> None:
        self._error = f"{what}: {error}"
        self.changed.emit()

    @Slot()
    def dismissError(self) -> None:
        """The user read the error (or what failed has worked since)."""
        if self._error:
            self._error = ""
            self.changed.emit()

    @Slot(bool)
    def setPanelOpen(self, open_: bool) -> None:
        """Show or hide the panel; shown without any terminal, it opens one."""
        if open_ != self._open:
            self._open = open_
            self.changed.emit()
        if open_ and not self._terminals:
            self.newTerminal()
        elif open_:
            self._schedule()

    @Slot(result=str)
    def newTerminal(self) -> str:
        """A shell in the folder of the chat shown (the main side keeps it inside the workspace)."""
        timeline = self._session.timeline
        key = self._session.sessionKey or None
        generation = timeline.generation if timeline is not None else 0
        terminal_id = self._call("Could not open a terminal", self._host.open, key, generation, *self._size)
        if terminal_id:
            self._open = True
            self.dismissError()
            self.select(terminal_id)
        return terminal_id or ""

    @Slot(str)
    def select(self, terminal_id: str) -> None:
        """The user chose this tab (its pane used last), or this pane: it becomes the one they use
        most recently."""
        if terminal_id not in self._terminals:
            return
        if terminal_id in self._layout.tabs() and self._layout.tab_of(self._current) != terminal_id:
            terminal_id = self._layout.last_used(terminal_id)
        self.focus(terminal_id)
        self._schedule()

    @Slot(str)
    def focus(self, terminal_id: str) -> None:
        """The user put the keyboard into this terminal (human recency; never for output): the pane
        the header and the keyboard follow."""
        if terminal_id not in self._terminals:
            return
        if terminal_id != self._current:
            self._set_current(terminal_id)
            self._refresh()
        self._call("Could not focus the terminal", self._host.focus, terminal_id)

    @Slot(str)
    def split(self, direction: str) -> None:
        """A new shell beside the pane the keyboard is in (same folder and shell), on `direction`."""
        beside = self._terminals.get(self._current)
        if beside is None or beside.info.state == "pending" or direction not in SPLIT_DIRECTIONS:
            return
        columns, rows = beside.info.columns, beside.info.rows
        orientation, _first = placed(direction, columns, rows)
        size = (max(2, columns // 2), rows) if orientation == "row" else (columns, max(1, rows // 2))
        terminal_id = self._call(
            "Could not split the terminal", self._host.split, self._current, direction, *size
        )
        if terminal_id:
            self.dismissError()
            self.select(terminal_id)

    @Slot(str)
    def close(self, terminal_id: str) -> None:
        if terminal_id in self._terminals:
            self._call("Could not close the terminal", self._host.close, terminal_id)

    @Slot(str)
    def closeTab(self, tab: str) -> None:
        """Every pane of the tab."""
        for terminal_id in self._layout.panes(tab):
            self.close(terminal_id)

    @Slot(str, str)
    def setSharing(self, terminal_id: str, mode: str) -> None:
        """The user's choice of what agents may do in this terminal (the only way it changes)."""
        if terminal_id in self._terminals and mode in SHARING_NAMES:
            self._call("Could not change sharing", self._host.set_sharing, terminal_id, mode)

    @Slot(str, bool)
    def setPinned(self, terminal_id: str, pinned: bool) -> None:
        """Only the agent of the chat shown may use it (or, unpinned, every chat's agent)."""
        key = self._session.sessionKey
        if terminal_id in self._terminals and (key or not pinned):
            self._call("Could not pin the terminal", self._host.pin, terminal_id, key if pinned else None)

    @Slot(str)
    def openRequested(self, terminal_id: str) -> None:
        """The user opens a terminal an agent asked for: only now does its command run."""
        tab = self._terminals.get(terminal_id)
        if tab is not None and tab.info.state == "pending":
            tab.screen.resize(*self._size)
            self._call("Could not open the terminal", self._host.ready, terminal_id, *self._size)
            self.select(terminal_id)

    @Slot(str)
    def refuse(self, terminal_id: str) -> None:
        tab = self._terminals.get(terminal_id)
        if tab is not None and tab.info.state == "pending":
            self._call("Could not refuse the terminal", self._host.refuse, terminal_id)

    @Slot(str, int, int)
    def setPaneSize(self, terminal_id: str, columns: int, rows: int) -> None:
        """The cells a pane's screen fits: its terminal gets that size (and, for a tab of one pane,
        every new terminal starts at it)."""
        tab = self._terminals.get(terminal_id)
        if tab is None or columns < 2 or rows < 1:
            return
        if len(self._layout.panes(self._layout.tab_of(terminal_id) or "")) == 1:
            self._size = (columns, rows)
        if tab.info.state == "pending":
            return
        if tab.screen.resize(columns, rows):
            self.terminalAdvanced.emit(terminal_id)
        if tab.info.state == "running" and (tab.info.columns, tab.info.rows) != (columns, rows):
            self._call("Could not resize the terminal", self._host.resize, terminal_id, columns, rows)

    def shutdown(self) -> None:
        """The window closes: stop listening (the shells end with the main side, `HostApi.shutdown`)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._feed_timer.stop()
        for tab in self._terminals.values():
            tab.participation.stop()
