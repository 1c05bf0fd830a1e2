"""Asking for the user when an agent waits for them or is done: a permission request, a card of proposed
terminal actions, or the end of a turn arrives while the window is not focused (its chat may not be the
one on screen either). A desktop notification (clicking it brings the window up on that chat:
`openRequested`): through the desktop's notification service (the `notifications` host part, which
decides how the text is sent so a chosen title is shown as written), else through the system tray
where the platform draws its messages itself (not on Linux, where the tray's fallback balloon reads
rich text), else the window's alert (its taskbar entry flashes). A permission request's notification
carries Allow and Deny where the desktop draws buttons (the request's own once-options: `answered`
hands the choice to the inbox, which answers it). Presentation only: that the request waits at all is
the main side's rule.

At most one notification per chat until the window is focused again: an agent asking ten times in a
row is one message, not ten. A turn the user stopped is not announced (they know)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication, QWindow

from app.contract.envelopes import Envelope
from app.contract.host_api import SessionsHost
from app.contract.notifications import Action, NotificationsHost
from app.contract.proposals import ProposalEnvelope
from app.renderer.present.inbox_items import quick_answers
from app.renderer.qt.common.operations import Operations

NOTIFY_MS = 10_000  # how long the tray message stays (the desktop may cap it)
WINDOW_NAME = "mainWindow"  # the chat window's objectName (Main.qml)
COMMAND_CHARS = 80  # how much of a proposed command a notification quotes
ANSWERS = (("allow", "Allow"), ("deny", "Deny"))  # a permission request's buttons, where it has both


def _is_chat_window(window: QWindow | None) -> bool:
    return window is not None and window.objectName() == WINDOW_NAME


def _proposes(envelope: ProposalEnvelope) -> str:
    """The recommended choice's first command, one line, short: what the card would run."""
    recommended = next((c for c in envelope.choices if c.choice == envelope.recommended), None)
    choice = recommended or (envelope.choices[0] if envelope.choices else None)
    commands = [a.input for a in choice.actions if a.input] if choice else []
    if not commands:
        return "the agent proposes terminal actions."
    line = " ".join(commands[0].split())
    line = line if len(line) <= COMMAND_CHARS else line[: COMMAND_CHARS - 1] + "…"
    return f"the agent proposes a terminal command: {line}"


class Attention(QObject):
    notified = Signal(str, str)  # (how: "desktop" | "tray" | "alert", the message) at each call
    openRequested = Signal(str)  # the user clicked a notification: bring the window up on this chat
    answered = Signal(str, str)  # (chat, "allow" | "deny"): a permission request's button was chosen

    def __init__(
        self,
        host: SessionsHost,
        title_of: Callable[[str], str],
        parent: QObject | None = None,
        enabled: Callable[[], bool] = lambda: True,
        desktop: NotificationsHost | None = None,
        ops: Operations | None = None,
    ) -> None:
        super().__init__(parent)
        self._desktop = desktop if ops is not None else None
        self._ops = ops
        if self._desktop is not None:
            self._desktop.subscribe_clicks(self.openRequested.emit)
            self._desktop.subscribe_actions(self.answered.emit)
        self._title_of = title_of
        self._enabled = enabled  # the user's Settings: off means the sidebar's mark alone says it
        self._tray: object | None = None  # QSystemTrayIcon, made on first use (widgets only then)
        self._told: set[str] = set()  # chats already notified since the window was last focused
        self._last = ""  # the chat of the newest notification (what clicking it opens)
        host.subscribe(self._on_envelope)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.focusWindowChanged.connect(self._on_focus)

    def _on_focus(self, window: QWindow | None) -> None:
        if _is_chat_window(window):
            self._told.clear()

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "permission_request":
            tool = envelope.tool_call.get("title")
            asks = f"permission to run {tool}" if isinstance(tool, str) and tool else "your permission"
            buttons = ANSWERS if len(quick_answers(envelope.options)) == len(ANSWERS) else ()
            self._call(envelope.session_key, f"the agent asks {asks}.", actions=buttons)
        elif envelope.kind == "question_asked" and not envelope.refused:
            asked = (envelope.form.title if envelope.form else "") or envelope.message
            self._call(
                envelope.session_key,
                f"the agent asks: {asked[:120]}" if asked else "the agent asks a question.",
            )
        elif envelope.kind == "proposal" and envelope.state == "awaiting":
            self._call(envelope.session_key, _proposes(envelope))
        elif envelope.kind == "prompt_settled" and not envelope.stopped:
            error = envelope.error
            done = f"the turn failed: {error}" if error else "the agent finished its reply."
            self._call(envelope.session_key, done, needs_you=bool(error))

    def _call(self, key: str, what: str, needs_you: bool = True, actions: Sequence[Action] = ()) -> None:
        """Notify once per chat while the chat window is not focused."""
        if key in self._told or not self._enabled() or _is_chat_window(QGuiApplication.focusWindow()):
            return
        self._told.add(key)
        self._last = key
        self.notify(f"{self._title_of(key)} {'needs you' if needs_you else 'is done'}: {what}", key, actions)

    def clicked(self) -> None:
        """The user clicked the newest notification (the tray's `messageClicked`)."""
        if self._last:
            self.openRequested.emit(self._last)

    def notify(self, message: str, key: str = "", actions: Sequence[Action] = ()) -> None:
        """Tell the user outside the window: a desktop notification, else the tray's message where the
        platform draws it, else the window's alert."""
        if self._desktop is not None and self._ops is not None:
            self._ops.spawn(self._deliver(message, key, actions))
        else:
            self._without_desktop(message)

    async def _deliver(self, message: str, key: str, actions: Sequence[Action]) -> None:
        if self._desktop is not None and await self._desktop.notify("ClawQt", message, key, actions):
            self.notified.emit("desktop", message)
        else:
            self._without_desktop(message)

    def _without_desktop(self, message: str) -> None:
        tray = self._tray_icon() if not sys.platform.startswith("linux") else None
        if tray is not None:
            tray.showMessage("ClawQt", message, tray.MessageIcon.Information, NOTIFY_MS)  # type: ignore[attr-defined]
            self.notified.emit("tray", message)
            return
        for window in QGuiApplication.topLevelWindows():
            if _is_chat_window(window) and window.isVisible():
                window.alert(0)  # until the user activates it
        self.notified.emit("alert", message)

    def _tray_icon(self) -> object | None:
        """The tray icon, made and shown once, when the desktop has a tray and widgets are available."""
        if self._tray is not None:
            return self._tray
        try:
            from PySide6.QtWidgets import QApplication, QStyle, QSystemTrayIcon
        except ImportError:  # pragma: no cover - PySide6 always ships QtWidgets
            return None
        app = QApplication.instance()
        if not isinstance(app, QApplication) or not QSystemTrayIcon.isSystemTrayAvailable():
            return None
        icon = app.windowIcon()
        if icon.isNull():
            icon = app.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation)
        tray = QSystemTrayIcon(icon, self)
        tray.setToolTip("ClawQt")
        tray.messageClicked.connect(self.clicked)
        tray.show()
        self._tray = tray
        return tray
