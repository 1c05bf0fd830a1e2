"""Agents installed from the ACP registry into the data folder: each version in a folder of its own
(`installed-agents/<id>/<version>/`, its program linked as `agent` in it), `current` a link to the
version chats start, and a manifest (`installed.json`, written by the one atomic writer) saying which
version is current, which came before it (what Roll back returns to) and whether it is pinned. The
picker's command line names `<id>/current/agent`, so an update or a roll back is one link replaced
and a running agent keeps the files it started from (only versions other than those two are removed).
Installs run one per agent; Cancel stops the tool and removes the half-made folder."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.contract.registry import InstalledAgent, RegistryAgent
from app.main.agents.install_kinds import InstallError, Progress
from app.main.agents.profiles import AgentProfile
from app.main.files.atomic import PRIVATE, atomic_write_bytes

log = logging.getLogger(__name__)

ROOT = "installed-agents"
MANIFEST = "installed.json"
LAUNCHER = "agent"  # in each version's folder: a link to its program
CURRENT = "current"
Installer = Callable[[RegistryAgent, Path, Progress], Awaitable[Path]]


def _installer(kind: str) -> Installer | None:
    """Each kind's installer, imported on first use: a run that installs nothing loads no archive,
    download or npm code (import statements, so the bundle's analysis finds them)."""
    if kind == "npx":
        from app.main.agents.npm_agents import install_npx

        return install_npx
    if kind == "uvx":
        from app.main.agents.install_kinds import install_uvx

        return install_uvx
    if kind == "binary":
        from app.main.agents.download import install_binary

        return install_binary
    return None


class Installs:
    def __init__(self, data_dir: Path, installers: dict[str, Installer] | None = None) -> None:
        self.root = data_dir / ROOT
        self._installers = installers  # None: the kinds ClawQt knows (_installer)
        self._jobs: dict[str, asyncio.Task[Path]] = {}
        self.on_installed: Callable[[AgentProfile], object] | None = None  # offered at once

    # --- what is installed ------------------------------------------------------------------------
    def _manifest(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads((self.root / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("installed agents' manifest unreadable (%s): none offered", exc)
            return {}
        agents = data.get("agents") if isinstance(data, dict) else None
        return {k: v for k, v in agents.items() if isinstance(v, dict)} if isinstance(agents, dict) else {}

    def _write(self, manifest: dict[str, dict[str, Any]]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        data = json.dumps({"agents": manifest}, indent=2, sort_keys=True).encode("utf-8")
        atomic_write_bytes(str(self.root / MANIFEST), data, PRIVATE)

    def installed(self) -> list[InstalledAgent]:
        return [_installed(agent_id, entry) for agent_id, entry in sorted(self._manifest().items())]

    def installing(self) -> list[str]:
        return sorted(self._jobs)

    def profiles(self) -> tuple[AgentProfile, ...]:
        """The installed agents as the picker offers them."""
        return tuple(self._profile(agent_id, entry) for agent_id, entry in sorted(self._manifest().items()))

    def _profile(self, agent_id: str, entry: dict[str, Any]) -> AgentProfile:
        argv = (str(self.root / agent_id / CURRENT / LAUNCHER), *_strings(entry.get("args")))
        env = tuple((k, v) for k, v in (entry.get("env") or {}).items() if isinstance(v, str))
        name = str(entry.get("name") or agent_id)
        reason = f"installed from the ACP registry (version {entry.get('version', '?')})"
        return AgentProfile(agent_id, name, argv, "registry", reason, env)

    # --- installing -------------------------------------------------------------------------------
    async def install(self, agent: RegistryAgent, progress: Progress) -> str:
        """`agent` at the registry's version (a first install or an update): "" when it is the current
        version now, else why not, in one sentence."""
        entry = self._manifest().get(agent.id)
        if agent.id in self._jobs:
            return f"{agent.name} is being installed already."
        if entry is not None and entry.get("version") == agent.version:
            return f"{agent.name} {agent.version} is installed already."
        if entry is not None and entry.get("pinned"):
            return f"{agent.name} is pinned at {entry.get('version')}: unpin it to update."
        folder = self.root / agent.id / agent.version
        if entry is not None and entry.get("previous") == agent.version and (folder / LAUNCHER).exists():
            progress(f"{agent.name} {agent.version} is still installed: switching to it.")
            return self._switch(agent.id, agent.version, agent)
        job = asyncio.ensure_future(self._fresh(agent, folder, progress))
        self._jobs[agent.id] = job
        try:
            await job
        except asyncio.CancelledError:
            caller = asyncio.current_task()
            if caller is not None and caller.cancelling():
                raise  # the caller was cancelled (the window closing), not the install alone
            return f"Installing {agent.name} was cancelled; nothing was changed."
        except InstallError as exc:
            return str(exc)
        finally:
            self._jobs.pop(agent.id, None)
            if entry is None and folder.parent.is_dir() and not any(folder.parent.iterdir()):
                folder.parent.rmdir()  # a first install that failed leaves no trace
        progress(f"Installed {agent.name} {agent.version}.")
        why = self._switch(agent.id, agent.version, agent)
        if not why:
            await self._check(agent, progress)
        return why

    async def _check(self, agent: RegistryAgent, progress: Progress) -> None:
        """A first handshake with the version now current; what it said kept beside it."""
        entry = self._manifest().get(agent.id)
        if entry is None:
            return
        profile = self._profile(agent.id, entry)
        progress("Checking that it answers ACP...")
        from app.main.agents.install_check import first_handshake  # only when something was installed

        found = await first_handshake(profile.argv, dict(profile.env), os.path.expanduser("~"))
        if found.answered:
            said = f" (version {found.version})" if found.version else ""
            ways = ", ".join(found.sign_in) or "nothing asked"
            progress(f"It answers ACP{said}; signing in: {ways}.")
        else:
            progress(f"It did not answer a first handshake: {found.note}. It may need its own setup first.")
        manifest = self._manifest()  # read again: another agent's install may have ended meanwhile
        if agent.id not in manifest:
            return
        manifest[agent.id]["check"] = {
            "version": agent.version,
            "answered": found.answered,
            "signIn": list(found.sign_in),
            "note": found.note,
        }
        with contextlib.suppress(OSError):  # a note only: the install stands
            self._write(manifest)

    async def _fresh(self, agent: RegistryAgent, folder: Path, progress: Progress) -> Path:
        installers = self._installers
        installer = installers.get(agent.installs) if installers is not None else _installer(agent.installs)
        if installer is None:
            raise InstallError(f"ClawQt cannot install {agent.installs!r} agents.")
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(folder)  # what an earlier, interrupted install left
        folder.mkdir(parents=True)
        try:
            program = await installer(agent, folder, progress)
            (folder / LAUNCHER).symlink_to(os.path.relpath(program, folder))
        except BaseException:
            await asyncio.to_thread(shutil.rmtree, folder, True)
            raise
        return program

    def cancel(self, agent_id: str) -> bool:
        job = self._jobs.get(agent_id)
        return job is not None and job.cancel()

    def _switch(self, agent_id: str, version: str, agent: RegistryAgent | None = None) -> str:
        """`version` made current (the link replaced at once), the one before it kept as previous."""
        manifest = self._manifest()
        old = manifest.get(agent_id)
        entry = dict(old or {})
        if agent is not None:
            entry.update(name=agent.name, installs=agent.installs, args=list(agent.args), env=dict(agent.env))
        entry["previous"] = old.get("version", "") if old and old.get("version") != version else ""
        entry["version"] = version
        entry.setdefault("pinned", False)
        link, staged = self.root / agent_id / CURRENT, self.root / agent_id / f".{CURRENT}-new"
        try:
            with contextlib.suppress(FileNotFoundError):
                staged.unlink()
            staged.symlink_to(version)
            staged.replace(link)
            manifest[agent_id] = entry
            self._write(manifest)
        except OSError as exc:
            return f"The installed agent could not be switched to {version}: {exc}."
        self._prune(agent_id, {version, entry["previous"]})
        if old is None and self.on_installed is not None:
            self.on_installed(self._profile(agent_id, entry))
        return ""

    def _prune(self, agent_id: str, keep: set[str]) -> None:
        for child in (self.root / agent_id).iterdir():
            if child.is_dir() and not child.is_symlink() and child.name not in keep:
                shutil.rmtree(child, ignore_errors=True)

    # --- pin, roll back, uninstall -----------------------------------------------------------------
    def pin(self, agent_id: str, pinned: bool) -> str:
        manifest = self._manifest()
        if agent_id not in manifest:
            return f"{agent_id} is not installed."
        manifest[agent_id]["pinned"] = pinned
        try:
            self._write(manifest)
        except OSError as exc:
            return f"The pin could not be saved: {exc}."
        return ""

    def roll_back(self, agent_id: str) -> str:
        entry = self._manifest().get(agent_id)
        if entry is None:
            return f"{agent_id} is not installed."
        previous = str(entry.get("previous") or "")
        if not previous or not (self.root / agent_id / previous / LAUNCHER).exists():
            return f"{entry.get('name', agent_id)} has no earlier version to roll back to."
        if agent_id in self._jobs:
            return f"{entry.get('name', agent_id)} is being installed."
        return self._switch(agent_id, previous)

    async def uninstall(self, agent_id: str) -> str:
        manifest = self._manifest()
        if agent_id not in manifest:
            return f"{agent_id} is not installed."
        if agent_id in self._jobs:
            return f"{manifest[agent_id].get('name', agent_id)} is being installed: cancel that first."
        del manifest[agent_id]
        try:
            self._write(manifest)
        except OSError as exc:
            return f"The agent could not be uninstalled: {exc}."
        await asyncio.to_thread(shutil.rmtree, self.root / agent_id, True)
        return ""


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _installed(agent_id: str, entry: dict[str, Any]) -> InstalledAgent:
    version = str(entry.get("version") or "")
    check = entry.get("check")
    check = check if isinstance(check, dict) and check.get("version") == version else {}
    return InstalledAgent(
        agent_id,
        str(entry.get("name") or agent_id),
        str(entry.get("installs") or ""),
        version,
        str(entry.get("previous") or ""),
        bool(entry.get("pinned")),
        agent_id,
        answered=check.get("answered") if isinstance(check.get("answered"), bool) else None,
        sign_in=_strings(check.get("signIn")),
        check_note=str(check.get("note") or ""),
    )
