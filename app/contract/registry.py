"""The ACP registry's catalog as ClawQt reads it (app/main/agents/registry.py): each agent and how it
installs, and where the catalog came from."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RegistryAgent:
    id: str
    name: str
    version: str
    description: str
    installs: str  # "npx", "uvx" or "binary"
    package: str = ""  # the npx or uvx package
    args: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ()  # a binary's targets ("linux-x86_64", ...)
    repository: str = ""
    license: str = ""


@dataclass(frozen=True)
class Catalog:
    agents: tuple[RegistryAgent, ...]
    source: str  # "fetched", "cached" or "bundled"
    note: str  # where it came from, in words ("Offline: ...")
    skipped: int = 0  # agents left out (an id or distribution that cannot be used)
    fetched_at: float | None = field(default=None)
