"""The ACP registry's catalog as ClawQt reads it (app/main/agents/registry.py): each agent and how it
installs, where the catalog came from, and the agents installed from it (app/main/agents/installs.py)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class BinaryTarget:
    """One platform's download of a binary agent."""

    platform: str  # "linux-x86_64", "darwin-aarch64", ...
    archive: str  # an https address (.tar.gz, .tgz, .tar.bz2, .zip, or the program itself)
    cmd: str  # the program, relative to the unpacked archive ("./agent")
    args: tuple[str, ...] = ()
    sha256: str = ""  # the archive's checksum as the registry lists it ("" when it lists none)


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
    cmd: str = ""  # the package's program, when it is not named like the package
    env: tuple[tuple[str, str], ...] = ()  # set for the agent's process
    binaries: tuple[BinaryTarget, ...] = ()


@dataclass(frozen=True)
class Catalog:
    agents: tuple[RegistryAgent, ...]
    source: str  # "fetched", "cached" or "bundled"
    note: str  # where it came from, in words ("Offline: ...")
    skipped: int = 0  # agents left out (an id or distribution that cannot be used)
    fetched_at: float | None = field(default=None)


@dataclass(frozen=True)
class InstalledAgent:
    """An agent ClawQt installed from the registry into its data folder."""

    id: str  # the registry's id
    name: str
    installs: str  # "npx", "uvx" or "binary"
    version: str  # the one chats start
    previous: str = ""  # the one Roll back returns to ("" when there is none)
    pinned: bool = False  # Update leaves it at `version`
    agent_id: str = ""  # the id the picker offers it under
    answered: bool | None = None  # its first handshake at this version (None: not checked)
    sign_in: tuple[str, ...] = ()  # the ways to sign in it offered then
    check_note: str = ""  # why it did not answer
