"""The terminal panel's tabs as QML sees them: the sharing modes, one model row per tab with named roles,
and the fields each terminal shows (`terminal_entry`). The view (user_terminals.py) decides which
terminals are tabs and which are panes of one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QObject, Qt, QTimer

from app.contract.user_terminals import UserTerminalInfo
from app.renderer.qt.common.keyed_list_model import ENTRY_ROLE, KeyedListModel
from app.renderer.qt.common.named_roles import ModelIndex

if TYPE_CHECKING:
    from app.renderer.terminal.live import InteractiveTerminal

PARTICIPATION_MS = 5000  # the banner stays this long after an agent's last read or write
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
    "shell",
    "paneCount",  # of a tab: how many panes it shows (a row's fields are its first pane's)
    "splitParticipating",  # of a tab: an agent takes part in one of its panes
)


class TerminalTabs(KeyedListModel):
    """The tabs, one row per tab in the order they were opened (a tab shows one terminal or several
    split panes); each field is a named role (and the whole entry is `modelData`). Rows are inserted,
    removed or changed, never reset."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__("terminalId", parent)

    def roleNames(self) -> dict[int, QByteArray]:
        names = super().roleNames()
        names.update({ENTRY_ROLE + 1 + i: QByteArray(name.encode()) for i, name in enumerate(ROLES)})
        return names

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        field = role - ENTRY_ROLE - 1
        if 0 <= field < len(ROLES):
            entry = super().data(index, ENTRY_ROLE)
            return entry.get(ROLES[field]) if entry is not None else None
        return super().data(index, role)


@dataclass
class ShownTerminal:
    """One terminal as the panel keeps it: its info, its screen and its participation window."""

    info: UserTerminalInfo
    screen: InteractiveTerminal
    participation: QTimer
    agent_label: str = ""


def shown_terminal(
    info: UserTerminalInfo, parent: QObject, participation_over: Callable[[], None]
) -> ShownTerminal:
    """A terminal's screen at its size and its participation window (`participation_over` when it
    ends); pyte loads with the first terminal, not when the window starts."""
    from app.renderer.terminal.live import InteractiveTerminal

    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setTimerType(Qt.TimerType.PreciseTimer)  # a coarse timer may end the 5 s up to 5% early
    timer.setInterval(PARTICIPATION_MS)
    timer.timeout.connect(participation_over)
    return ShownTerminal(info, InteractiveTerminal(info.columns, info.rows), timer)


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


def takes_part(shown: ShownTerminal) -> bool:
    """An agent read or typed within the participation window, and the terminal is still shared."""
    return shown.participation.isActive() and shown.info.sharing != "off"


def terminal_entry(shown: ShownTerminal, shown_key: str) -> dict[str, Any]:
    """What the panel shows of one terminal; `shown_key`: the chat shown ("pinned" is relative to it)."""
    info = shown.info
    label = shown.agent_label or "The agent"
    participating = takes_part(shown)
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
        "shell": info.shell,
    }
