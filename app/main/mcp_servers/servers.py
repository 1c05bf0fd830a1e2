"""The user's MCP servers, kept in the data folder (`mcp-servers.json`: names, how each runs, which
agents do not get it, the names of its secrets) with the secrets' values in the system keyring (the
sign-in's SecretStore, under `mcp:<name>`). Each agent gets, in every session/new|load|resume, the
servers it is not turned off for that it can take: stdio always (ACP requires it), http and sse only
when it declares `mcpCapabilities.http` / `.sse`. A server is checked as the agents get it
(probe.py): one that does not start is said on the chat, never dropped in silence."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.contract.envelopes import AgentInfo
from app.contract.mcp_servers import McpServerView, Transport
from app.main.agents.secret_store import SecretStore
from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.stores.json_map import JsonMap

MAX_NAME_CHARS = 64
MAX_COMMAND_CHARS = 4_000


@dataclass(frozen=True)
class McpServer:
    name: str
    transport: Transport
    command: str  # stdio: the command line; http/sse: the URL
    secret_names: tuple[str, ...] = ()
    off_for: tuple[str, ...] = field(default=())

    def record(self) -> dict[str, Any]:
        return {
            "transport": self.transport, "command": self.command, "secrets": list(self.secret_names),
            "offFor": list(self.off_for),
        }  # fmt: skip

    @staticmethod
    def read(name: str, raw: Any) -> McpServer | None:
        if not isinstance(raw, dict) or raw.get("transport") not in ("stdio", "http", "sse"):
            return None
        lists = [raw.get(k, []) for k in ("secrets", "offFor")]
        if not isinstance(raw.get("command"), str) or not all(isinstance(v, list) for v in lists):
            return None
        secrets, off = ([x for x in v if isinstance(x, str)] for v in lists)
        return McpServer(name, raw["transport"], raw["command"], tuple(secrets), tuple(off))

    def view(self) -> McpServerView:
        return McpServerView(self.name, self.transport, self.command, self.secret_names, self.off_for)

    def params(self, secrets: dict[str, str]) -> dict[str, Any]:
        """The server as ACP's `McpServer` (stdio: command, args, env; http/sse: url, headers)."""
        pairs = [{"name": key, "value": secrets[key]} for key in self.secret_names if key in secrets]
        if self.transport == "stdio":
            words = shlex.split(self.command)
            return {"name": self.name, "command": words[0], "args": words[1:], "env": pairs}
        return {"type": self.transport, "name": self.name, "url": self.command, "headers": pairs}


def problem_with(name: str, transport: Transport, command: str, taken: bool) -> str:
    """Why a server cannot be kept as typed ("" when it can)."""
    if not name.strip() or len(name) > MAX_NAME_CHARS or not name.replace("-", "").replace("_", "").isalnum():
        return f"A server's name is letters, digits, - and _ (at most {MAX_NAME_CHARS})."
    if taken:
        return f"There is a server named “{name}” already."
    if not command.strip() or len(command) > MAX_COMMAND_CHARS:
        return "Say how the server starts: its command line, or its address."
    if transport == "stdio":
        try:
            return "" if shlex.split(command) else "Say the command that starts the server."
        except ValueError as exc:
            return f"The command line cannot be read ({exc})."
    if not command.startswith(("http://", "https://")):
        return "An address starting with http:// or https://."
    return ""


def secrets_of(name: str) -> str:
    """Whose values a server's secrets are in the SecretStore (beside the agents' sign-in values)."""
    return f"mcp:{name}"


class McpServersFile(JsonMap[dict[str, Any]]):
    entry_kind = "an MCP server"

    def accept(self, value: object) -> dict[str, Any] | None:
        server = McpServer.read("x", value)
        return server.record() if server is not None else None


class UserMcpServers:
    def __init__(self, data_dir: Path | None = None, problems: LocalProblems | None = None) -> None:
        folder = data_dir or paths.data_dir()
        self._file = McpServersFile("mcp-servers.json", folder, problems, "MCP servers")
        self._secrets = SecretStore(folder)

    def servers(self) -> list[McpServer]:
        found = (McpServer.read(name, raw) for name, raw in sorted(self._file.items().items()))
        return [server for server in found if server is not None]

    def add(self, name: str, transport: Transport, command: str, secrets: dict[str, str]) -> str:
        name, command = name.strip(), command.strip()
        taken = any(s.name == name for s in self.servers())
        problem = problem_with(name, transport, command, taken)
        if problem:
            return problem
        kept = {key.strip(): value for key, value in secrets.items() if key.strip()}
        self._secrets.store(secrets_of(name), kept)
        self._file.set(name, McpServer(name, transport, command, tuple(sorted(kept))).record())
        return ""

    def remove(self, name: str) -> bool:
        if name not in self._file.items():
            return False
        self._file.set(name, {})
        self._secrets.forget(secrets_of(name))
        return True

    def set_enabled(self, name: str, agent_id: str, enabled: bool) -> None:
        server = next((s for s in self.servers() if s.name == name), None)
        if server is None:
            return
        off = {a for a in server.off_for if a != agent_id} | (set() if enabled else {agent_id})
        self._file.set(name, replace(server, off_for=tuple(sorted(off))).record())

    def for_agent(self, agent_id: str, info: AgentInfo | None) -> list[tuple[McpServer, dict[str, Any]]]:
        """The servers this agent gets now, each with its ACP params (its secrets read from the keyring)."""
        given = []
        for server in self.servers():
            takes = server.transport == "stdio" or (
                info is not None and info.supports("mcpCapabilities", server.transport)
            )
            if agent_id not in server.off_for and takes:
                given.append((server, server.params(self._secrets.env_for(secrets_of(server.name)))))
        return given
