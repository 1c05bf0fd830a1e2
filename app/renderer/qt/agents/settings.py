"""`agentSettings`: the Agents section of Settings. Adds an agent (offered at once), edits a configured
one's command line, folder, environment and default mode and model (from its next start), and removes
one (from the next start). Every check and every write is the main side's (`AgentSettingsHost`); this
object holds what the form shows and says what happened next to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.settings_hosts import AgentSettingsHost
from app.renderer.qt.common.desktop_dialog import folder_dialog, open_dialog
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

EMPTY_DRAFT = {"name": "", "command": "", "folder": "", "env": "", "defaultMode": "", "defaultModel": ""}


class AgentSettingsView(QObject):
    changed = Signal()
    added = Signal()  # the add form may be cleared
    folderChosen = Signal(str)  # the editor's folder field takes it

    def __init__(
        self, host: AgentSettingsHost | None, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._editing = ""  # the configured agent whose details are open
        self._draft: dict[str, str] = dict(EMPTY_DRAFT)
        self._problem = ""
        self._said = ""  # what the last save did, when it did something worth saying
        self._saving = 0
        self.dialog: Any = None  # the folder dialog while it is open

    def _configured(self) -> list[str]:
        return self._host.configured() if self._host is not None else []

    def _run(self, save: Callable[[], Awaitable[str]], done: str, after: Callable[[], None]) -> None:
        """Run one save; its refusal becomes `problem`, else `done` is said and `after` runs."""
        self._saving += 1
        self._problem = self._said = ""
        self.changed.emit()
        self._ops.spawn(self._saved(save, done, after))

    async def _saved(self, save: Callable[[], Awaitable[str]], done: str, after: Callable[[], None]) -> None:
        try:
            self._problem = await save()
            if not self._problem:
                self._said = done
                after()
        finally:
            self._saving -= 1
            self.changed.emit()

    @Slot(str, str)
    def add(self, name: str, command: str) -> None:
        """Add an agent (offered at once; in the config file's "agents" when it could be written)."""
        if self._host is None:
            return
        host = self._host

        async def add() -> str:
            said = await host.add(name, command)
            if name.strip() in host.configured():
                self.added.emit()  # offered, even when the file could not be written
            return said

        self._run(add, f"{name.strip()} was added.", lambda: None)

    @Slot(str)
    def remove(self, name: str) -> None:
        if self._host is not None:
            host = self._host
            self._run(
                lambda: host.remove(name), f"{name} is removed from the next start.", self._close_if(name)
            )

    @Slot(str)
    def edit(self, name: str) -> None:
        """Open a configured agent's details as the config file holds them now."""
        if self._host is None or name not in self._configured():
            return
        details = self._host.details(name)
        self._problem = self._said = ""
        if not details:
            self._problem = f"The details of {name} could not be read from the config file."
            self._editing = ""
        else:
            self._editing = name
            self._draft = {**EMPTY_DRAFT, **details}
        self.changed.emit()

    @Slot()
    def cancel(self) -> None:
        self._editing = ""
        self._problem = ""
        self.changed.emit()

    @Slot(str, str, str, str, str)
    def save(self, command: str, folder: str, env: str, default_mode: str, default_model: str) -> None:
        """Save the open agent's details; they apply when it next starts (a running one keeps going)."""
        if self._host is None or not self._editing:
            return
        host, name = self._host, self._editing
        self._draft = {
            **self._draft,
            "command": command,
            "folder": folder,
            "env": env,
            "defaultMode": default_mode,
            "defaultModel": default_model,
        }
        self._run(
            lambda: host.edit(name, command, folder, env, default_mode, default_model),
            f"{name}'s details are saved: they apply when it next starts.",
            self._close_if(name),
        )

    @Slot()
    def chooseFolder(self) -> None:
        """The editor's Browse…: the desktop's folder dialog, starting at the folder typed so far."""
        start = self._draft.get("folder", "")
        self.dialog = open_dialog(
            self.dialog, lambda: folder_dialog("The agent's default folder", self.folderChosen.emit, start)
        )

    def _close_if(self, name: str) -> Callable[[], None]:
        def close() -> None:
            if self._editing == name:
                self._editing = ""

        return close

    configured = variant_property("QVariantList", lambda self: self._configured(), notify=changed)
    editing = Property(str, lambda self: self._editing, notify=changed)
    draft = variant_property("QVariantMap", lambda self: dict(self._draft), notify=changed)
    problem = Property(str, lambda self: self._problem, notify=changed)
    said = Property(str, lambda self: self._said, notify=changed)
    saving = Property(bool, lambda self: self._saving > 0, notify=changed)
