"""The agent's state as the header and the banner show it: its name, starting / ready / working /
exited / failed, and when it exited or failed, a banner with the exit code, the last stderr lines and
Reconnect (which starts it again and reloads the session; the draft is never touched). When ClawQt
restarts a stuck agent by itself (`AgentRecoveryEnvelope`), the banner says so while it runs, the
notice bar says what happened and the chat shown is reloaded; if the restart fails, Reconnect."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import AgentRecoveryEnvelope, AgentStateEnvelope, Envelope
from app.contract.host_api import SessionsHost
from app.renderer.present.agent_avatar import colour_index, initials
from app.renderer.present.agent_callout import callout_title
from app.renderer.qt.common.notices import AGENT
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession


class AgentStatus(ChatPart):
    changed = Signal()
    bannerChanged = Signal()

    def __init__(
        self, host: SessionsHost, session: CurrentSession, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._label = host.agent_label
        self._state = "idle"
        self._message = ""
        self._banner: dict[str, Any] = {}
        session.liveChanged.connect(self.changed)
        session.sessionChanged.connect(self.changed)  # a read-only chat names its own agent
        host.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if isinstance(envelope, AgentStateEnvelope):
            self._label, self._state, self._message = envelope.agent_label, envelope.state, envelope.message
            if envelope.state in ("exited", "failed"):
                exit_code = envelope.exit_code if envelope.exit_code is not None else -1
                title = callout_title(self._label, envelope.state, envelope.code or "", exit_code, False)
                self._banner = {
                    "exitCode": exit_code,
                    "stderr": envelope.stderr_tail,
                    "message": envelope.message,
                    "code": envelope.code,
                    "title": title,
                }
                self.bannerChanged.emit()
            elif envelope.state == "ready" and self._banner and not self._banner.get("recovering"):
                self._banner = {}  # an agent is working for the chat again: the failure is behind
                self.bannerChanged.emit()
            self.changed.emit()
        elif isinstance(envelope, AgentRecoveryEnvelope):
            self._recovery(envelope)

    def _recovery(self, envelope: AgentRecoveryEnvelope) -> None:
        if envelope.phase == "restarting":
            title = callout_title(self._label, "", "", -1, True)
            self._banner = {"message": envelope.message, "recovering": True, "title": title}
        elif envelope.phase == "failed":
            title = callout_title(self._label, "failed", "", -1, False)
            self._banner = {"exitCode": -1, "stderr": "", "message": envelope.message, "title": title}
        else:
            self._banner = {}
            self._ops.notices.show(envelope.message, topic=AGENT)
            shown = self._session.sessionKey
            if not envelope.session_key or envelope.session_key == shown:
                self._ops.spawn(self._session.reconnect())  # the chat shown, open again
        self.bannerChanged.emit()

    @Slot()
    def reconnect(self) -> None:
        self._banner = {}
        self.bannerChanged.emit()
        self._ops.spawn(self._session.reconnect())

    def _get_state(self) -> str:
        return "working" if self._state == "ready" and self._session.busy else self._state

    label = Property(str, lambda self: self._label, notify=changed)
    initials = Property(str, lambda self: initials(self._label), notify=changed)
    colourIndex = Property(int, lambda self: colour_index(self._label), notify=changed)
    # whose turns the conversation shows: the agent's, or the one a read-only chat was with
    turnLabel = Property(str, lambda self: self._turn_label(), notify=changed)
    turnInitials = Property(str, lambda self: initials(self._turn_label()), notify=changed)
    turnColour = Property(int, lambda self: colour_index(self._turn_label()), notify=changed)
    state = Property(str, _get_state, notify=changed)

    def _turn_label(self) -> str:
        """The agent of the chat this pane shows (a tile's may not be the running agent the window's
        footer speaks of)."""
        if self._session.readOnly:
            return self._session.read_only_agent or self._label
        key = self._session.sessionKey
        return (self._host.label_of(key) if key else "") or self._label

    message = Property(str, lambda self: self._message, notify=changed)
    banner = variant_property("QVariantMap", lambda self: self._banner, notify=bannerChanged)
