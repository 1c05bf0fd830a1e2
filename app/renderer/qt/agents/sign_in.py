"""`signIn` in QML: the sign-in panel's state (from the main side's SignInEnvelopes) and the user's
choices passed back. Every method runs on the main side; this only shows, forwards and, once signed in,
opens a chat again. It is also the login terminal's screen source (`terminal_emulator`), fed from the
SignInTerminalEnvelopes, and turns key presses into what the terminal reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtGui import QGuiApplication

from app.contract.envelopes import AgentStateEnvelope, Envelope
from app.contract.host_api import SessionsHost, SignInHost
from app.contract.sign_in import AuthMethod, SignInEnvelope, SignInTerminalEnvelope
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.terminal.keys import key_text
from app.renderer.timeline.items import TerminalState

if TYPE_CHECKING:
    from app.renderer.terminal.emulator import TerminalEmulator

SHOWN_PHASES = ("needed", "working", "terminal")


def method_entry(method: AuthMethod) -> dict[str, Any]:
    return {
        "id": method.id,
        "name": method.name,
        "description": method.description,
        "kind": method.kind,
        "vars": [
            {"name": v.name, "label": v.label, "secret": v.secret, "optional": v.optional}
            for v in method.vars
        ],
    }


class SignIn(ChatPart):
    changed = Signal()
    terminalAdvanced = Signal(str)  # the painted login terminal repaints

    def __init__(
        self,
        host: SignInHost,
        sessions: SessionsHost,
        session: CurrentSession,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._state: SignInEnvelope | None = host.state
        self._terminal: TerminalState | None = None
        self._emulator: TerminalEmulator | None = None
        sessions.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if isinstance(envelope, AgentStateEnvelope):
            self.changed.emit()  # started, or another agent shown: whether it offers signing out
        elif isinstance(envelope, SignInEnvelope):
            opened_chat = envelope.phase == "done" and self._state is not None and self._state.phase != "done"
            self._state = envelope
            if envelope.terminal_id and (
                self._terminal is None or self._terminal.terminal_id != envelope.terminal_id
            ):
                self._terminal, self._emulator = TerminalState(envelope.terminal_id), None
            self.changed.emit()
            if opened_chat:
                self._ops.spawn(self._session.reconnect())  # signed in: the chat it refused opens now
        elif isinstance(envelope, SignInTerminalEnvelope):
            terminal = self._terminal
            if terminal is None or terminal.terminal_id != envelope.terminal_id:
                return
            terminal.append(envelope.data)
            if envelope.exited:
                terminal.exited, terminal.exit_code, terminal.signal = (
                    True,
                    envelope.exit_code,
                    envelope.signal,
                )
                self.changed.emit()
            self.terminalAdvanced.emit(envelope.terminal_id)

    # --- the login terminal's screen -----------------------------------------------------------
    def terminal_emulator(self, terminal_id: str) -> TerminalEmulator | None:
        terminal = self._terminal
        if terminal is None or terminal.terminal_id != terminal_id:
            return None
        if self._emulator is None:
            from app.renderer.terminal.emulator import TerminalEmulator

            self._emulator = TerminalEmulator()
        self._emulator.feed_all(terminal)  # a login prints a few lines
        return self._emulator

    # --- the user's choices ----------------------------------------------------------------------
    @Slot(str)
    def choose(self, method_id: str) -> None:
        """An `agent` method: the agent signs in itself."""
        self._ops.spawn(self._host.authenticate(method_id))

    @Slot(str, "QVariantMap")
    def submitValues(self, method_id: str, values: dict[str, Any]) -> None:
        self._ops.spawn(self._host.use_env(method_id, {str(k): str(v) for k, v in values.items()}))

    @Slot(str)
    def openTerminal(self, method_id: str) -> None:
        self._ops.spawn(self._host.start_terminal(method_id))

    @Slot(int, str, int)
    def pressKey(self, key: int, text: str, modifiers: int) -> None:
        self._host.terminal_input(key_text(key, text, modifiers))

    @Slot()
    def paste(self) -> None:
        text = QGuiApplication.clipboard().text()
        if text:
            self._host.terminal_input(text)

    @Slot()
    def copyTerminal(self) -> None:
        if self._terminal is not None:
            from app.renderer.timeline.terminal_screen import render_screen

            QGuiApplication.clipboard().setText(render_screen(self._terminal.output))

    @Slot()
    def stopTerminal(self) -> None:
        self._host.stop_terminal()

    @Slot()
    def retry(self) -> None:
        """Signed in some other way (the agent's own tool): the agent starts again and the chat opens."""
        self._ops.spawn(self._host.retry())

    @Slot()
    def signOut(self) -> None:
        """Sign out of the agent of the chat shown (asked first in the window): its sign-in comes back."""
        self._ops.run(self._host.sign_out(), "Could not sign out")

    # --- what the panel shows ----------------------------------------------------------------------
    canSignOut = Property(bool, lambda self: self._host.can_sign_out, notify=changed)

    def _field(self, name: str, default: Any = "") -> Any:
        return getattr(self._state, name) if self._state is not None else default

    shown = Property(
        bool, lambda self: self._state is not None and self._state.phase in SHOWN_PHASES, notify=changed
    )
    phase = Property(str, lambda self: self._field("phase"), notify=changed)
    agentLabel = Property(str, lambda self: self._field("agent_label"), notify=changed)
    reason = Property(str, lambda self: self._field("reason"), notify=changed)
    methods = variant_property(
        "QVariantList", lambda self: [method_entry(m) for m in self._field("methods", ())], notify=changed
    )
    methodId = Property(str, lambda self: self._field("method_id"), notify=changed)
    error = Property(str, lambda self: self._field("error"), notify=changed)
    notice = Property(str, lambda self: self._field("notice"), notify=changed)
    terminalId = Property(str, lambda self: self._field("terminal_id"), notify=changed)
    terminalRunning = Property(
        bool,
        lambda self: (
            self._terminal is not None and not self._terminal.exited and bool(self._field("terminal_id"))
        ),
        notify=changed,
    )
