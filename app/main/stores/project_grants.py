"""What a project's `.clawqt.json` asks to grant its chats - folders the agent may use beside the
chat's own (`additionalDirectories`) and MCP servers it is given (`mcpServers`) - and the user's
trust in it. The file may come with a repository the user cloned, so nothing it grants is used until
the user trusted the file's grants as they read them now: trust is kept in the data folder
(`trusted-projects.json`) as the file's path and a digest of its grants, and a file whose grants
changed is asked about again."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.main.core.problems import LocalProblems
from app.main.stores.json_map import JsonMap

TRUST_FILE = "trusted-projects.json"
MAX_FOLDERS = 32
MAX_SERVERS = 16
MAX_TEXT = 4_000
TRANSPORTS = ("stdio", "http", "sse")


@dataclass(frozen=True)
class Grants:
    """A project file's grants, read: folders made absolute (relative ones from the file's folder)
    and MCP servers as records (`name`, `transport`, `command`)."""

    folders: tuple[str, ...] = ()
    servers: tuple[dict[str, str], ...] = ()
    problems: tuple[str, ...] = ()  # entries left out, in words

    def __bool__(self) -> bool:
        return bool(self.folders or self.servers)

    @property
    def digest(self) -> str:
        """What trust is given to: these folders and servers exactly."""
        text = json.dumps({"folders": self.folders, "servers": self.servers}, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


NO_GRANTS = Grants()


def read_grants(data: dict[str, Any], folder: Path) -> Grants:
    """The grants of a project file's parsed `data`; entries of the wrong kind are left out, said."""
    problems: list[str] = []
    folders: list[str] = []
    listed = data.get("additionalDirectories", [])
    if not isinstance(listed, list):
        problems.append('"additionalDirectories" is not a list of folders')
        listed = []
    for entry in listed[:MAX_FOLDERS]:
        if not isinstance(entry, str) or not entry.strip() or len(entry) > MAX_TEXT:
            problems.append(f"the folder {entry!r} is not a path")
            continue
        path = os.path.normpath(os.path.join(folder, os.path.expanduser(entry.strip())))
        if path not in folders:
            folders.append(path)
    servers: list[dict[str, str]] = []
    named = data.get("mcpServers", {})
    if not isinstance(named, dict):
        problems.append('"mcpServers" is not an object of servers by name')
        named = {}
    for name, raw in list(named.items())[:MAX_SERVERS]:
        server = _server(name, raw)
        if server is None:
            problems.append(f"the MCP server {name!r} is not {{transport, command}}")
        else:
            servers.append(server)
    return Grants(tuple(folders), tuple(servers), tuple(problems))


def _server(name: str, raw: Any) -> dict[str, str] | None:
    plain = isinstance(name, str) and name.replace("-", "").replace("_", "").isalnum()
    if not plain or len(name) > 64 or not isinstance(raw, dict):
        return None
    transport, command = raw.get("transport", "stdio"), raw.get("command")
    if transport not in TRANSPORTS or not isinstance(command, str) or not command.strip():
        return None
    if len(command) > MAX_TEXT or (transport != "stdio" and not command.startswith(("http://", "https://"))):
        return None
    return {"name": name, "transport": transport, "command": command.strip()}


class _TrustFile(JsonMap[str]):
    entry_kind = "a digest"

    def accept(self, value: object) -> str | None:
        return value if isinstance(value, str) and len(value) == 64 else None


class ProjectTrust:
    """The project files whose grants the user trusted, each with the digest of what was trusted."""

    def __init__(self, data_dir: Path | None = None, problems: LocalProblems | None = None) -> None:
        self._file = _TrustFile(TRUST_FILE, data_dir, problems, "trusted projects")

    def trusted(self, path: str, grants: Grants) -> bool:
        return bool(grants) and self._file.items().get(path) == grants.digest

    def trust(self, path: str, grants: Grants) -> None:
        self._file.set(path, grants.digest)

    def forget(self, path: str) -> None:
        self._file.set(path, "")
