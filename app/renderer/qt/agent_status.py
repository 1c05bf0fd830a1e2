"""The agent's state as the header and the banner show it: its name, starting / ready / working /
exited / failed, and when it exited or failed, a banner with the exit code, the last stderr lines and
Reconnect (which starts it again and reloads the session; the draft is never touched)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import AgentStateEnvelope, Envelope
from app.contract.host_api import SessionsHost
from app.renderer.agent_avatar import colour_index, initials
from app.renderer.qt.current_session import CurrentSession
from app.renderer.qt.tasks import TaskRunner


class AgentStatus(QObject):
    changed = Signal()
    bannerChanged = Signal()

    def __init__(
        self, host: SessionsHost, session: CurrentSession, tasks: TaskRunner, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._session = session
        self._tasks = tasks
        self._label = host.agent_label
        self._state = "idle"
        self._message = ""
        self._banner: dict[str, Any] = {}
        session.liveChanged.connect(self.changed)
        host.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if isinstance(envelope, AgentStateEnvelope):
            self._label, self._state, self._message = envelope.agent_label, envelope.state, envelope.message
            if envelope.state in ("exited", "failed"):
                self._banner = {
                    "exitCode": envelope.exit_code if envelope.exit_code is not None else -1,
                    "stderr": envelope.stderr_tail,
                    "message": envelope.message,
                }
                self.bannerChanged.emit()
            self.changed.emit()

    @Slot()
    def reconnect(self) -> None:
        self._banner = {}
        self.bannerChanged.emit()
        self._tasks.spawn(self._session.reconnect())

    def _get_state(self) -> str:
        return "working" if self._state == "ready" and self._session.busy else self._state

    label = Property(str, lambda self: self._label, notify=changed)
    initials = Property(str, lambda self: initials(self._label), notify=changed)
    colourIndex = Property(int, lambda self: colour_index(self._label), notify=changed)
    state = Property(str, _get_state, notify=changed)
    message = Property(str, lambda self: self._message, notify=changed)
    banner = Property("QVariantMap", lambda self: self._banner, notify=bannerChanged)
