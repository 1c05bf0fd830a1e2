"""`userTerminals` in QML: the terminal panel's tabs (the user's own shells, from the main side's
UserTerminal*Envelopes), the tab shown, whether the panel is open, and the user's actions passed back
(new, close, sharing, pin, open or refuse an agent's request, keys, paste, the view's size).

Ownership: the main side (`UserTerminalsHost`) owns the processes, sharing, pins and recency; this
object only shows them and asks. It owns what is view state: each terminal's screen
(`InteractiveTerminal`, fed with the output as it arrives, also for tabs not shown, so switching
tabs never replays a backlog), the participation banner's 5-second window, and the panel's size in
cells (new terminals start at it; the shown one is resized to it).

Output is only queued when it arrives; emulation runs in time-boxed slices whenever the loop is idle
(the tab shown first), and only the screen that moved repaints: a 1 MB burst never rebuilds a
document or stalls the GUI. Host errors are shown (notice bar and `error`), never raised into QML."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QByteArray, QModelIndex, QObject, Qt, QTimer, Signal, Slot

from app.contract.errors import HostError
from app.contract.terminal_hosts import UserTerminalsHost
from app.contract.user_terminals import (
    SHARING_NAMES,
    UserTerminalActivityEnvelope,
    UserTerminalChangedEnvelope,
    UserTerminalEnvelope,
    UserTerminalInfo,
    UserTerminalOutputEnvelope,
    UserTerminalRemovedEnvelope,
)
from app.renderer.qt.current_session import CurrentSession
from app.renderer.qt.keyed_list_model import ENTRY_ROLE, KeyedListModel
from app.renderer.qt.notices import Notices
from app.renderer.terminal_keys import key_text

if TYPE_CHECKING:
    from app.renderer.interactive_terminal import InteractiveTerminal

PARTICIPATION_MS = 5000  # the banner stays this long after an agent's last read or write
FEED_BUDGET_S = 0.01  # emulation per slice; the loop handles events (and frames) between slices
DEFAULT_SIZE = (80, 24)
ALT_MODIFIER = 0x08000000  # Qt.AltModifier: Alt+key sends ESC first (readline's Meta)
_CURSOR_KEYS = frozenset({"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F"})

SHARING_LABELS = {"off": "Not shared", "status-only": "Status only", "shared": "Shared"}
SHARING_MODES = [
    {
        "mode": "off",
        "label": SHARING_LABELS["off"],
        "icon": "eye-closed",
        "description": "No agent sees or types anything in it",
    },
    {
        "mode": "status-only",
        "label": SHARING_LABELS["status-only"],
        "icon": "pulse",
        "description": "An agent sees whether it runs and how it ended, not its output",
    },
    {
        "mode": "shared",
        "label": SHARING_LABELS["shared"],
        "icon": "broadcast",
        "description": "An agent can read its output and type into it",
    },
]

ROLES = (
    "terminalId",
    "title",
    "cwd",
    "sharing",
    "sharingLabel",
    "state",
    "pinned",  # pinned to the chat shown now
    "pinnedElsewhere",  # pinned to another chat
    "openedByAgent",
    "command",
    "statusText",
    "agentSentInput",
    "agentLabel",
    "participating",
    "participationText",
)


class TerminalTabs(KeyedListModel):
    """The tabs, one row per terminal in the order they were opened; each field is a named role (and
    the whole entry is `modelData`). Rows are inserted, removed or changed, never reset."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__("terminalId", parent)

    def roleNames(self) -> dict[int, QByteArray]:
        names = super().roleNames()
        names.update({ENTRY_ROLE + 1 + i: QByteArray(name.encode()) for i, name in enumerate(ROLES)})
        return names

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        field = role - ENTRY_ROLE - 1
        if 0 <= field < len(ROLES):
            entry = super().data(index, ENTRY_ROLE)
            return entry.get(ROLES[field]) if entry is not None else None
        return super().data(index, role)


@dataclass
class _Tab:
    info: UserTerminalInfo
    screen: InteractiveTerminal
    participation: QTimer
    agent_label: str = ""


def _new_screen(columns: int, rows: int) -> InteractiveTerminal:
    """pyte loads with the first terminal, not when the window starts."""
    from app.renderer.interactive_terminal import InteractiveTerminal

    return InteractiveTerminal(columns, rows)


def status_text(info: UserTerminalInfo) -> str:
    if info.state == "pending":
        return "Waiting for you: nothing runs until you open it"
    if info.state == "exited":
        if info.signal:
            return f"Ended by {info.signal}"
        return f"Exited with code {info.exit_code}" if info.exit_code is not None else "Exited"
    if info.state in ("failed", "expired"):
        return info.error or ("Could not start" if info.state == "failed" else "Not opened")
    return ""


class UserTerminalsView(QObject):
    changed = Signal()  # the tabs' fields, the tab shown, the panel opened or closed
    terminalAdvanced = Signal(str)  # a terminal's screen moved on: the painted screen repaints

    def __init__(
        self,
        host: UserTerminalsHost,
        session: CurrentSession,
        notices: Notices,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._session = session
        self._notices = notices
        self._tabs: dict[str, _Tab] = {}
        self._current = ""
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
        if self._tabs:
            self._current = next(iter(self._tabs))
            self._schedule()
        self._refresh()

    # --- envelopes ---------------------------------------------------------------------------------
    def _on_envelope(self, envelope: UserTerminalEnvelope) -> None:
        if isinstance(envelope, UserTerminalOutputEnvelope):
            tab = self._tabs.get(envelope.terminal_id)
            if tab is not None:
                tab.screen.append(envelope.data)
                self._schedule()
        elif isinstance(envelope, UserTerminalChangedEnvelope):
            self._changed_info(envelope.info)
        elif isinstance(envelope, UserTerminalRemovedEnvelope):
            self._removed(envelope.terminal_id)
        elif isinstance(envelope, UserTerminalActivityEnvelope):
            tab = self._tabs.get(envelope.terminal_id)
            if tab is not None:
                tab.agent_label = envelope.agent_label
                tab.participation.start()  # (re)starts the 5 s window
                self._refresh()

    def _add(self, info: UserTerminalInfo) -> _Tab:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setTimerType(Qt.TimerType.PreciseTimer)  # a coarse timer may end the 5 s up to 5% early
        timer.setInterval(PARTICIPATION_MS)
        timer.timeout.connect(self._refresh)
        tab = _Tab(info, _new_screen(info.columns, info.rows), timer)
        self._tabs[info.terminal_id] = tab
        return tab

    def _changed_info(self, info: UserTerminalInfo) -> None:
        tab = self._tabs.get(info.terminal_id)
        if tab is None:
            self._add(info)
            if info.state == "pending" and (not self._open or not self._current):
                # an agent asks for a terminal: the user must see the request (its deadline runs),
                # but keyboard focus stays where it is
                self._open = True
                self._current = info.terminal_id
        else:
            tab.info = info
        self._refresh()

    def _removed(self, terminal_id: str) -> None:
        tab = self._tabs.pop(terminal_id, None)
        if tab is None:
            return
        tab.participation.stop()
        tab.participation.deleteLater()
        if terminal_id == self._current:
            self._current = next(reversed(self._tabs), "") if self._tabs else ""
            if self._current:
                self._apply_size(self._current)
        self._refresh()

    # --- what QML shows ------------------------------------------------------------------------------
    def _entry(self, tab: _Tab) -> dict[str, Any]:
        info = tab.info
        shown_key = self._session.sessionKey
        label = tab.agent_label or "The agent"
        participating = tab.participation.isActive() and info.sharing != "off"
        how = "can read and type" if info.sharing == "shared" else "status only"
        return {
            "terminalId": info.terminal_id,
            "title": info.title,
            "cwd": info.cwd,
            "sharing": info.sharing,
            "sharingLabel": SHARING_LABELS.get(info.sharing, info.sharing),
            "state": info.state,
            "pinned": bool(shown_key) and info.pinned_session == shown_key,
            "pinnedElsewhere": info.pinned_session is not None and info.pinned_session != shown_key,
            "openedByAgent": info.opened_by_agent,
            "command": info.command,
            "statusText": status_text(info),
            "agentSentInput": info.agent_sent_input,
            "agentLabel": label,
            "participating": participating,
            "participationText": f"{label} is participating \u00b7 {how}" if participating else "",
        }

    def _refresh(self) -> None:
        self.model.apply([self._entry(tab) for tab in self._tabs.values()])
        self.changed.emit()

    def _get_current(self) -> dict[str, Any]:
        tab = self._tabs.get(self._current)
        return self._entry(tab) if tab is not None else {}

    tabs = Property(QObject, lambda self: self.model, constant=True)
    current = Property("QVariantMap", _get_current, notify=changed)  # the shown tab's entry ({} if none)
    currentId = Property(str, lambda self: self._current, notify=changed)
    panelOpen = Property(bool, lambda self: self._open, notify=changed)
    count = Property(int, lambda self: len(self._tabs), notify=changed)
    error = Property(str, lambda self: self._error, notify=changed)
    # an agent takes part in some terminal right now (the header says so while the panel is hidden)
    participating = Property(
        bool,
        lambda self: any(t.participation.isActive() and t.info.sharing != "off" for t in self._tabs.values()),
        notify=changed,
    )
    sharingModes = Property("QVariantList", lambda self: SHARING_MODES, constant=True)

    # --- the painted screen's source -----------------------------------------------------------------
    def terminal_emulator(self, terminal_id: str) -> InteractiveTerminal | None:
        tab = self._tabs.get(terminal_id)
        return tab.screen if tab is not None else None

    def terminal_key(self, terminal_id: str, key: int, text: str, modifiers: int) -> bool:
        """A key the user pressed in the terminal, as the bytes a terminal program reads; False when
        it sends nothing (a lone modifier, a terminal that is not running)."""
        tab = self._tabs.get(terminal_id)
        if tab is None or tab.info.state != "running":
            return False
        data = key_text(key, text, modifiers)
        if not data:
            return False
        if tab.screen.app_cursor_keys and data in _CURSOR_KEYS:
            data = "\x1bO" + data[2:]  # the program asked for application cursor keys
        elif modifiers & ALT_MODIFIER and not data.startswith("\x1b"):
            data = "\x1b" + data
        self._call("Could not send your keys", self._host.input, terminal_id, data)
        return True

    def terminal_paste(self, terminal_id: str, text: str) -> None:
        """Pasted text, with newlines as the Enter key sends them; marked as a paste when the program
        asked for it (then a pasted line does not run by itself)."""
        tab = self._tabs.get(terminal_id)
        if tab is None or tab.info.state != "running" or not text:
            return
        text = text.replace("\r\n", "\r").replace("\n", "\r")
        if tab.screen.bracketed_paste:
            text = "\x1b[200~" + text.replace("\x1b[201~", "") + "\x1b[201~"
        self._call("Could not paste", self._host.input, terminal_id, text)

    # --- emulation -----------------------------------------------------------------------------------
    def _schedule(self) -> None:
        if not self._feed_timer.isActive():
            self._feed_timer.start()

    @Slot()
    def _feed(self) -> None:
        deadline = time.perf_counter() + FEED_BUDGET_S
        shown = [self._current] if self._open and self._current in self._tabs else []
        behind = False
        for terminal_id in shown + [key for key in self._tabs if key not in shown]:
            screen = self._tabs[terminal_id].screen
            if not screen.behind:
                continue
            left = deadline - time.perf_counter()
            if left <= 0:
                behind = True
                break
            behind = screen.feed_for(left) or behind
            replies = screen.take_replies()
            if replies and self._tabs[terminal_id].info.state == "running":
                self._call("Could not answer the terminal", self._host.answer, terminal_id, replies)
            self.terminalAdvanced.emit(terminal_id)
        if behind:
            self._feed_timer.start()

    # --- the user's actions --------------------------------------------------------------------------
    def _call(self, what: str, call: Callable[..., Any], *args: Any) -> Any:
        """A host call; its HostError goes to the notice bar and `error`, never into QML."""
        try:
            result = call(*args)
        except HostError as exc:
            self._error = f"{what}: {exc}"
            self._notices.failed(what, exc)
            self.changed.emit()
            return None
        return result

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
        if open_ and not self._tabs:
            self.newTerminal()
        elif open_:
            self._schedule()

    @Slot()
    def togglePanel(self) -> None:
        self.setPanelOpen(not self._open)

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
        """The user chose this tab (it becomes the one they use most recently)."""
        if terminal_id not in self._tabs:
            return
        if terminal_id != self._current:
            self._current = terminal_id
            self._apply_size(terminal_id)
            self._refresh()
        self.focus(terminal_id)
        self._schedule()

    @Slot(str)
    def focus(self, terminal_id: str) -> None:
        """The user put the keyboard into this terminal (human recency; never for output)."""
        if terminal_id in self._tabs:
            self._call("Could not focus the terminal", self._host.focus, terminal_id)

    @Slot(str)
    def close(self, terminal_id: str) -> None:
        if terminal_id in self._tabs:
            self._call("Could not close the terminal", self._host.close, terminal_id)

    @Slot(str, str)
    def setSharing(self, terminal_id: str, mode: str) -> None:
        """The user's choice of what agents may do in this terminal (the only way it changes)."""
        if terminal_id in self._tabs and mode in SHARING_NAMES:
            self._call("Could not change sharing", self._host.set_sharing, terminal_id, mode)

    @Slot(str, bool)
    def setPinned(self, terminal_id: str, pinned: bool) -> None:
        """Only the agent of the chat shown may use it (or, unpinned, every chat's agent)."""
        key = self._session.sessionKey
        if terminal_id in self._tabs and (key or not pinned):
            self._call("Could not pin the terminal", self._host.pin, terminal_id, key if pinned else None)

    @Slot(str)
    def openRequested(self, terminal_id: str) -> None:
        """The user opens a terminal an agent asked for: only now does its command run."""
        tab = self._tabs.get(terminal_id)
        if tab is not None and tab.info.state == "pending":
            tab.screen.resize(*self._size)
            self._call("Could not open the terminal", self._host.ready, terminal_id, *self._size)
            self.select(terminal_id)

    @Slot(str)
    def refuse(self, terminal_id: str) -> None:
        tab = self._tabs.get(terminal_id)
        if tab is not None and tab.info.state == "pending":
            self._call("Could not refuse the terminal", self._host.refuse, terminal_id)

    @Slot(int, int)
    def setViewSize(self, columns: int, rows: int) -> None:
        """The cells the panel's screen fits: the terminal shown (and every new one) gets that size."""
        if columns < 2 or rows < 1 or (columns, rows) == self._size:
            return
        self._size = (columns, rows)
        if self._current:
            self._apply_size(self._current)

    def _apply_size(self, terminal_id: str) -> None:
        tab = self._tabs.get(terminal_id)
        if tab is None or tab.info.state == "pending":
            return
        if tab.screen.resize(*self._size):
            self.terminalAdvanced.emit(terminal_id)
        if tab.info.state == "running" and (tab.info.columns, tab.info.rows) != self._size:
            self._call("Could not resize the terminal", self._host.resize, terminal_id, *self._size)

    def shutdown(self) -> None:
        """The window closes: stop listening and end the user's shells (nothing else would)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._feed_timer.stop()
        for terminal_id, tab in list(self._tabs.items()):
            tab.participation.stop()
            self._call("Could not close the terminal", self._host.close, terminal_id)
