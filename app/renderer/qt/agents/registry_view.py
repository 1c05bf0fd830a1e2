"""`agentRegistry`: Settings > Agents' list of the ACP registry's agents (name, version, how it
installs, what it is) and where the list came from; fetched again when Settings opens and on Refresh.
Reading the registry, fetching and caching it are the main side's (`AgentSettingsHost.registry`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.registry import Catalog, RegistryAgent
from app.contract.settings_hosts import AgentSettingsHost
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property


def _row(agent: RegistryAgent) -> dict[str, Any]:
    if agent.installs == "binary":
        how = "a download for " + ", ".join(agent.platforms)
    else:
        how = " ".join([agent.installs, agent.package, *agent.args])
    return {
        "id": agent.id,
        "name": agent.name,
        "version": agent.version,
        "description": agent.description,
        "installs": agent.installs,
        "how": how,
    }


class AgentRegistryView(QObject):
    changed = Signal()

    def __init__(self, host: AgentSettingsHost, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._catalog: Catalog | None = None
        self._fetching = False

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

    agents = variant_property(
        "QVariantList",
        lambda self: [_row(a) for a in self._catalog.agents] if self._catalog else [],
        notify=changed,
    )
    note = Property(str, lambda self: self._catalog.note if self._catalog else "", notify=changed)
    source = Property(str, lambda self: self._catalog.source if self._catalog else "", notify=changed)
    fetching = Property(bool, lambda self: self._fetching, notify=changed)
