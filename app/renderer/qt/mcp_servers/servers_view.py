"""The user's MCP servers, the UI side [mcpServers]: the servers for Settings (each with the agents that
get it), adding one from its name, how it starts and its secrets (`NAME=value` lines: environment
variables of a stdio server, headers of an http one; kept in the keyring by the main side, never shown
again), removing one, turning it off for an agent; and a server that could not start for a chat said
as a notice of that chat. Every check and what is kept is the main side's (app/main/mcp_servers)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope
from app.contract.host_api import AgentsHost, SessionsHost
from app.contract.mcp_servers import McpServersHost, Transport
from app.renderer.qt.common.operations import Operations

MCP = "mcp-servers"  # the notices' topic


def secrets_of(text: str) -> tuple[dict[str, str], str]:
    """`NAME=value` lines as a dict, and why not ("" when every line is one)."""
    secrets: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip():
            return {}, f"Line {number} is not NAME=value."
        secrets[name.strip()] = value.strip()
    return secrets, ""


class McpServersView(QObject):
    changed = Signal()

    def __init__(
        self, host: McpServersHost, agents: AgentsHost, sessions: SessionsHost, ops: Operations,
        parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self._host = host
        self._agents = agents
        self._ops = ops
        self._servers: list[dict[str, Any]] | None = None  # read when a view shows them
        self._problem = ""
        sessions.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "mcp_server_problem":
            self._ops.notices.show(envelope.problem, topic=MCP, session=envelope.session_key)
        elif envelope.kind == "agents_changed":
            self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Read again the next time a view shows the list (most windows never open Settings)."""
        self._servers = None
        self.changed.emit()

    def _listed(self) -> list[dict[str, Any]]:
        if self._servers is not None:
            return self._servers
        agents = [(choice.agent_id, choice.name) for choice in self._agents.choices()]
        self._servers = [
            {
                **asdict(server),
                "secret_names": list(server.secret_names),  # a list QML joins
                "off_for": list(server.off_for),
                "agents": [{"id": i, "name": n, "on": i not in server.off_for} for i, n in agents],
            }
            for server in self._host.servers()
        ]
        return self._servers

    @Slot(str, str, str, str, result=bool)
    def add(self, name: str, transport: str, command: str, secrets_text: str) -> bool:
        """Keep a server; False (and `problem` says why) when it cannot be kept as typed."""
        secrets, problem = secrets_of(secrets_text)
        kinds: dict[str, Transport] = {"stdio": "stdio", "http": "http", "sse": "sse"}
        if not problem:
            problem = self._host.add(name, kinds.get(transport, "stdio"), command, secrets)
        self._problem = problem
        self.refresh()
        return not problem

    @Slot(str)
    def remove(self, name: str) -> None:
        self._host.remove(name)
        self.refresh()

    @Slot(str, str, bool)
    def setEnabled(self, name: str, agent_id: str, enabled: bool) -> None:
        self._host.set_enabled(name, agent_id, enabled)
        self.refresh()

    servers = Property(list, lambda self: self._listed(), notify=changed)
    problem = Property(str, lambda self: self._problem, notify=changed)
