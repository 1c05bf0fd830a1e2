"""`agentRegistry`: Settings > Agents' list of the ACP registry's agents (name, version, how it
installs, what it is) and where the list came from, fetched again when Settings opens and on Refresh;
and each agent's install: Install, Update, Pin, Roll back, Uninstall, an install's progress (its log's
last line, the whole log on demand) and Cancel. Reading, fetching and installing are the main side's
(`AgentSettingsHost`); the logs shown and the sentences said are this view's."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.registry import Catalog, InstalledAgent, RegistryAgent
from app.contract.settings_hosts import AgentSettingsHost
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

LOG_LINES = 400  # of an install's log kept for the view


def _how(agent: RegistryAgent) -> str:
    if agent.installs == "binary":
        return "a download for " + ", ".join(agent.platforms)
    return " ".join([agent.installs, agent.package, *agent.args])


def _state(agent: RegistryAgent | None, installed: InstalledAgent | None, busy: bool) -> str:
    if busy:
        return "installing"
    if installed is None:
        return "available"
    if agent is not None and agent.version != installed.version and not installed.pinned:
        return "update"
    return "installed"


def _check(installed: InstalledAgent | None) -> str:
    """What its first handshake at this version found, in a sentence ("" when not checked)."""
    if installed is None or installed.answered is None:
        return ""
    if installed.answered:
        ways = ", ".join(installed.sign_in)
        return f"Answers ACP; signs in with {ways}." if ways else "Answers ACP; asks for no sign-in."
    return f"Did not answer a first handshake ({installed.check_note}): it may need its own setup first."


class AgentRegistryView(QObject):
    changed = Signal()
    logChanged = Signal()  # a line of an install's log came: the rows stay, their log lines follow

    def __init__(self, host: AgentSettingsHost, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._catalog: Catalog | None = None
        self._fetching = False
        self._logs: dict[str, list[str]] = {}  # each agent's last install's log
        self._said: dict[str, str] = {}  # each agent's last outcome, in words
        self._log_revision = 0
        self._busy: set[str] = set()  # installs this view started and is waiting on

    def _show(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self.changed.emit()

    @Slot()
    def load(self) -> None:
        """What is known now, at once; then the registry fetched again (Settings opened)."""
        self._show(self._host.registry())
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        if self._fetching:
            return
        self._fetching = True
        self.changed.emit()
        self._ops.spawn(self._refresh())

    async def _refresh(self) -> None:
        try:
            self._show(await self._host.refresh_registry())
        finally:
            self._fetching = False
            self.changed.emit()

    # --- installs ---------------------------------------------------------------------------------
    def _progress(self, agent_id: str, line: str) -> None:
        log = self._logs.setdefault(agent_id, [])
        log.append(line)
        del log[:-LOG_LINES]
        self._log_revision += 1
        self.logChanged.emit()

    @Slot(str)
    def install(self, agent_id: str) -> None:
        """Install the agent, or update it to the registry's version."""
        if agent_id in self._busy or agent_id in self._host.installing():
            return
        self._busy.add(agent_id)
        self._logs[agent_id] = []
        self._said.pop(agent_id, None)
        self._ops.spawn(self._install(agent_id))
        self.changed.emit()

    async def _install(self, agent_id: str) -> None:
        try:
            why = await self._host.install(agent_id, lambda line: self._progress(agent_id, line))
        finally:
            self._busy.discard(agent_id)
            self.changed.emit()
        self._say(agent_id, why, "Installed: offered on New chat.")

    @Slot(str)
    def cancel(self, agent_id: str) -> None:
        self._host.cancel_install(agent_id)

    @Slot(str, bool)
    def pin(self, agent_id: str, pinned: bool) -> None:
        self._say(agent_id, self._host.pin(agent_id, pinned), "Pinned." if pinned else "Updates allowed.")

    @Slot(str)
    def rollBack(self, agent_id: str) -> None:
        said = "Rolled back: new chats start this version; a running one keeps its own until restarted."
        self._say(agent_id, self._host.roll_back(agent_id), said)

    @Slot(str)
    def uninstall(self, agent_id: str) -> None:
        self._ops.spawn(self._uninstall(agent_id))

    async def _uninstall(self, agent_id: str) -> None:
        why = await self._host.uninstall(agent_id)
        self._logs.pop(agent_id, None)
        self._say(agent_id, why, "Uninstalled: no longer offered from the next start.")

    def _say(self, agent_id: str, why: str, done: str) -> None:
        self._said[agent_id] = why or done
        self.changed.emit()

    @Slot(str, result=str)
    def logText(self, agent_id: str) -> str:
        return "\n".join(self._logs.get(agent_id, []))

    @Slot(str, result=str)
    def lastLine(self, agent_id: str) -> str:
        log = self._logs.get(agent_id)
        return log[-1] if log else ""

    def _rows(self) -> list[dict[str, Any]]:
        listed = self._catalog.agents if self._catalog else ()
        installed = {agent.id: agent for agent in self._host.installed()}
        busy = self._busy | set(self._host.installing())
        rows = [self._row(agent.id, agent, installed.get(agent.id), busy) for agent in listed]
        known = {agent.id for agent in listed}
        rows += [self._row(i, None, agent, busy) for i, agent in installed.items() if i not in known]
        return rows

    def _row(
        self, agent_id: str, agent: RegistryAgent | None, installed: InstalledAgent | None, busy: set[str]
    ) -> dict[str, Any]:
        return {
            "id": agent_id,
            "name": agent.name if agent else installed.name if installed else agent_id,
            "version": agent.version if agent else "no longer listed",
            "description": agent.description if agent else "",
            "installs": agent.installs if agent else installed.installs if installed else "",
            "how": _how(agent) if agent else "",
            "state": _state(agent, installed, agent_id in busy),
            "installedVersion": installed.version if installed else "",
            "previous": installed.previous if installed else "",
            "pinned": bool(installed and installed.pinned),
            "said": self._said.get(agent_id, ""),
            "check": _check(installed),
        }

    agents = variant_property("QVariantList", lambda self: self._rows(), notify=changed)
    note = Property(str, lambda self: self._catalog.note if self._catalog else "", notify=changed)
    source = Property(str, lambda self: self._catalog.source if self._catalog else "", notify=changed)
    fetching = Property(bool, lambda self: self._fetching, notify=changed)
    logRevision = Property(int, lambda self: self._log_revision, notify=logChanged)
