"""The agents the user may start a chat with, as the New chat picker and the sidebar's filter show
them: each agent's name, command line, mark (initials on its colour) and whether it runs. Ctrl+N opens
a chat with the agent used last, the picker (Ctrl+Shift+N) with the one chosen. The list and what it
means come from the `agents` host part; this object only shows it and asks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope
from app.contract.host_api import AgentsHost, SessionsHost
from app.renderer.agent_avatar import colour_index, initials
from app.renderer.qt.current_session import CurrentSession
from app.renderer.qt.keyed_list_model import KeyedListModel
from app.renderer.qt.tasks import TaskRunner

STATE_WORDS = {"ready": "running", "sign-in": "needs sign-in", "starting": "starting", "exited": "exited"}


class AgentPicker(QObject):
    changed = Signal()

    def __init__(
        self,
        host: AgentsHost,
        sessions: SessionsHost,
        session: CurrentSession,
        tasks: TaskRunner,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._session = session
        self._tasks = tasks
        self.model = KeyedListModel("agentId", self)
        self._names: dict[str, str] = {}
        self.refresh()
        sessions.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "agents_changed":
            self.refresh()

    def refresh(self) -> None:
        entries = [self._entry(choice) for choice in self._host.choices()]
        self._names = {entry["agentId"]: entry["name"] for entry in entries}
        self.model.apply(entries)
        self.changed.emit()

    def _entry(self, choice: Any) -> dict[str, Any]:
        return {
            "agentId": choice.agent_id,
            "name": choice.name,
            "profileName": choice.profile_name,
            "command": choice.command,
            "reason": choice.reason,
            "state": STATE_WORDS.get(choice.state, ""),
            "initials": initials(choice.name),
            "colourIndex": colour_index(choice.name),
            "lastUsed": choice.agent_id == self._host.last_used,
        }

    def name_of(self, agent_id: str) -> str:
        return self._names.get(agent_id, "")

    def agent_of(self, session_key: str) -> str:
        return self._host.agent_of(session_key)

    def entry_of(self, agent_id: str) -> dict[str, Any] | None:
        return next((e for e in self.model.entries if e["agentId"] == agent_id), None)

    @Slot(str)
    def newChatWith(self, agent_id: str) -> None:
        self._tasks.spawn(self._session.new_chat(agent_id))

    agentModel = Property(QObject, lambda self: self.model, constant=True)
    count = Property(int, lambda self: len(self._names), notify=changed)
    lastUsed = Property(str, lambda self: self._host.last_used, notify=changed)
    lastUsedRow = Property(
        int,
        lambda self: next((i for i, a in enumerate(self._names) if a == self._host.last_used), 0),
        notify=changed,
    )
    filterChoices = Property(
        list,
        lambda self: (
            [{"value": "", "text": "All agents"}]
            + [{"value": agent_id, "text": name} for agent_id, name in self._names.items()]
        ),
        notify=changed,
    )
    lastUsedName = Property(str, lambda self: self._names.get(self._host.last_used, ""), notify=changed)
