"""The ACP registry's catalog of agents (agentclientprotocol.com's registry.json): each agent's name,
version, description and how it installs (an npx package, a uvx package, or per-platform binaries).
Fetched when the user opens Settings' Agents or asks again, cached in the data folder; the first start
offline shows the copy bundled with ClawQt (resources/registry/registry.json), and the catalog always
says where it came from.

What the registry says is read, never trusted: the file is bounded (MAX_REGISTRY_BYTES), at most
MAX_AGENTS agents, each field of its type and length, an agent whose id or distribution cannot be
used left out (and counted)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.contract.bundled import resources_dir
from app.contract.registry import BinaryTarget, Catalog, RegistryAgent
from app.main.files.atomic import atomic_write_bytes
from app.main.files.regular_files import read_user_file

REGISTRY_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json"
CACHE_FILE = "acp-registry.json"
MAX_REGISTRY_BYTES = 4 * 1024 * 1024
MAX_AGENTS = 500
MAX_TEXT = 500  # characters of a description; names and versions are shorter still
FETCH_TIMEOUT_S = 10.0
AGENT_ID = re.compile(r"^[a-z][a-z0-9-]{0,63}$")
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,100}$")
KINDS = ("npx", "uvx", "binary")  # how an agent installs, in the order one is chosen


def _text(value: Any, limit: int = 100) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _args(value: Any) -> tuple[str, ...]:
    listed: list[Any] = value if isinstance(value, list) else []
    return tuple(_text(a, 200) for a in listed[:32] if isinstance(a, str))


def _env(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        return ()
    pairs = [(k, _text(v, 500)) for k, v in value.items() if isinstance(k, str) and isinstance(v, str)]
    return tuple((k, v) for k, v in pairs[:32] if ENV_NAME.match(k))


def _download_address(url: str) -> bool:
    """https, or http to this machine (a local mirror): a download is never sent in the clear."""
    if url.startswith("https://"):
        return True
    host = urllib.parse.urlsplit(url).hostname if url.startswith("http://") else None
    return host in LOOPBACK_HOSTS


def _binary(platform: str, spec: Any) -> BinaryTarget | None:
    """One platform's download: an https archive and a relative program inside it."""
    if not isinstance(spec, dict):
        return None
    archive, cmd = _text(spec.get("archive"), 1000), _text(spec.get("cmd"), 200)
    if not _download_address(archive) or not cmd or cmd.startswith("/") or ".." in cmd.split("/"):
        return None
    sha256 = _text(spec.get("sha256"), 64).lower()
    return BinaryTarget(platform[:40], archive, cmd, _args(spec.get("args")), sha256)


def _agent(raw: Any) -> RegistryAgent | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not AGENT_ID.match(raw["id"]):
        return None
    distribution = raw.get("distribution")
    if not isinstance(distribution, dict):
        return None
    for kind in KINDS:
        spec = distribution.get(kind)
        if not isinstance(spec, dict) or not spec:
            continue
        if kind == "binary":
            found = (_binary(k, v) for k, v in sorted(spec.items()) if isinstance(k, str))
            targets = tuple(target for target in found if target is not None)[:32]
            if not targets:
                continue
            extra: dict[str, Any] = {
                "platforms": tuple(t.platform for t in targets),
                "binaries": targets,
            }
        else:
            package = _text(spec.get("package"), 200)
            if not package:
                continue
            extra = {
                "package": package,
                "args": _args(spec.get("args")),
                "cmd": _text(spec.get("cmd"), 100),
                "env": _env(spec.get("env")),
            }
        return RegistryAgent(
            raw["id"],
            _text(raw.get("name")) or raw["id"],
            _text(raw.get("version"), 64),
            _text(raw.get("description"), MAX_TEXT),
            kind,
            repository=_text(raw.get("repository"), 300),
            license=_text(raw.get("license"), 64),
            **extra,
        )
    return None


def parse_registry(data: bytes) -> tuple[tuple[RegistryAgent, ...], int]:
    """The agents a registry file lists that ClawQt can use, and how many it left out. ValueError,
    with a sentence, for a file that is not a registry at all."""
    if len(data) > MAX_REGISTRY_BYTES:
        raise ValueError(f"it is larger than {MAX_REGISTRY_BYTES // (1024 * 1024)} MB")
    try:
        parsed = json.loads(data)
    except ValueError as exc:
        raise ValueError(f"it is not JSON ({exc})") from exc
    listed = parsed.get("agents") if isinstance(parsed, dict) else None
    if not isinstance(listed, list):
        raise ValueError("it has no list of agents")
    agents, skipped, seen = [], max(0, len(listed) - MAX_AGENTS), set()
    for raw in listed[:MAX_AGENTS]:
        agent = _agent(raw)
        if agent is None or agent.id in seen:
            skipped += 1
            continue
        seen.add(agent.id)
        agents.append(agent)
    return tuple(sorted(agents, key=lambda a: a.name.casefold())), skipped


def bundled_registry() -> Path:
    return resources_dir() / "registry" / "registry.json"


def _fetch(url: str) -> bytes:
    import urllib.request  # http.client and email with it: only when the registry is fetched

    request = urllib.request.Request(url, headers={"User-Agent": "ClawQt"})
    with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT_S) as response:
        data: bytes = response.read(MAX_REGISTRY_BYTES + 1)
        return data


class Registry:
    def __init__(
        self, data_dir: Path, url: str = REGISTRY_URL, fetch: Callable[[str], bytes] = _fetch
    ) -> None:
        self._cache = data_dir / CACHE_FILE
        self._url = url
        self._fetch = fetch
        self._catalog: Catalog | None = None

    def catalog(self) -> Catalog:
        """What is known without the network: the last fetched copy, else the bundled one."""
        if self._catalog is None:
            self._catalog = self._local("")
        return self._catalog

    async def refresh(self) -> Catalog:
        """Fetch the registry (off the event loop); kept in the data folder. Offline, or a copy that
        cannot be used: the one known before, with a note saying why."""
        try:
            data = await asyncio.to_thread(self._fetch, self._url)
            agents, skipped = parse_registry(data)
        except (OSError, ValueError) as exc:
            self._catalog = self._local(f"Offline: the ACP registry could not be fetched ({_why(exc)}). ")
            return self._catalog
        with contextlib.suppress(OSError):  # shown now; fetched again next time
            await asyncio.to_thread(atomic_write_bytes, str(self._cache), data, 0o600, False)
        now = time.time()
        note = f"The ACP registry, fetched now: {_count(agents)}."
        self._catalog = Catalog(agents, "fetched", note, skipped, now)
        return self._catalog

    def _local(self, why: str) -> Catalog:
        for path, source in ((self._cache, "cached"), (bundled_registry(), "bundled")):
            try:
                agents, skipped = parse_registry(read_user_file(path, MAX_REGISTRY_BYTES + 1))
            except (OSError, ValueError):
                continue
            at = path.stat().st_mtime if source == "cached" else None
            said = (
                "a copy fetched " + time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
                if at
                else "the copy bundled with ClawQt"
            )
            return Catalog(agents, source, f"{why}Showing {said}: {_count(agents)}.", skipped, at)
        return Catalog((), "bundled", f"{why}No copy of the ACP registry could be read.")


def _count(agents: tuple[RegistryAgent, ...]) -> str:
    return "1 agent" if len(agents) == 1 else f"{len(agents)} agents"


def _why(exc: Exception) -> str:
    reason = getattr(exc, "reason", None)
    return str(reason or exc).strip() or type(exc).__name__
