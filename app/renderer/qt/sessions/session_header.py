"""The shown session's header: its title (the sidebar's), modes, config options (the model picker
first), usage meter and slash commands, kept in step with the metadata events of its timeline; choosing
a mode or an option asks the agent."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import LoadResult
from app.contract.host_api import SessionsHost
from app.renderer.present.session_header import command_entries, config_entries, mode_entries, usage_entry
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import value_property, variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.sessions.session_list import SessionList

NOT_TAKEN = "The agent did not take that setting"


class SessionHeader(ChatPart):
    changed = Signal()

    def __init__(
        self,
        host: SessionsHost,
        session: CurrentSession,
        sessions: SessionList,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._sessions = sessions
        self._modes: dict[str, Any] = {}
        self._config: list[dict[str, Any]] = []
        session.shown.connect(self._on_shown)
        session.metadataChanged.connect(self._on_metadata)
        session.sessionChanged.connect(self.changed)  # a replayed trace has a title of its own
        sessions.changed.connect(self.changed)

    def _on_shown(self, result: LoadResult) -> None:
        if result.modes is not None or not result.resumed_live:
            self._modes = result.modes or {}
            self._config = list(result.config_options)
        self.changed.emit()

    def _on_metadata(self, fields: list[str]) -> None:
        timeline = self._session.timeline
        if timeline is None:
            return
        if "mode" in fields and self._modes and timeline.meta.mode:
            self._modes = {**self._modes, "currentModeId": timeline.meta.mode}
        if "config_options" in fields:
            self._config = list(timeline.meta.config_options)
        self.changed.emit()

    @Slot(str)
    def setMode(self, mode_id: str) -> None:
        self._ops.run(self._host.set_mode(self._session.sessionKey, mode_id), NOT_TAKEN)

    @Slot(str, "QVariant")
    def setConfigOption(self, config_id: str, value: Any) -> None:
        call = self._host.set_config_option(self._session.sessionKey, config_id, value)
        self._ops.run(call, NOT_TAKEN, done=self._take_options)

    def _take_options(self, options: tuple[dict[str, Any], ...]) -> None:
        if options:
            self._config = list(options)
            self.changed.emit()

    def _meta(self) -> Any:
        timeline = self._session.timeline
        return timeline.meta if timeline is not None else None

    title = value_property(
        str,
        lambda self: self._session.trace_title or self._sessions.title_of(self._session.sessionKey),
        notify=changed,
    )
    # a replayed trace's modes and options are shown nowhere: there is no agent to change them in
    modes = variant_property(
        "QVariantList",
        lambda self: [] if self._session.readOnly else mode_entries(self._modes),
        notify=changed,
    )
    currentMode = Property(str, lambda self: str(self._modes.get("currentModeId") or ""), notify=changed)
    configOptions = variant_property(
        "QVariantList",
        lambda self: [] if self._session.readOnly else config_entries(self._config),
        notify=changed,
    )
    usage = variant_property(
        "QVariantMap", lambda self: usage_entry(self._meta().usage if self._meta() else None), notify=changed
    )
    commands = variant_property(
        "QVariantList",
        lambda self: command_entries(self._meta().commands if self._meta() else []),
        notify=changed,
    )
