"""Install and locate the Node ACP test agent (tests/agents/node_agent), an agent written on the npm
package `@agentclientprotocol/sdk` (pinned 2.4.0): an ACP implementation independent of the Python SDK.

The suite owns the install: `<repo>/.cache/node-acp-agent/` holds package.json, package-lock.json, the
agent script and node_modules. `ensure_node_agent()`:

- takes a file lock (`.cache/node-acp-agent.lock`) so parallel pytest processes install once;
- reuses the cache when its stamp (a hash of package.json + package-lock.json) matches and the installed
  SDK's own package.json says 2.4.0 (a cached run costs milliseconds);
- otherwise runs `npm ci` in a fresh staging directory next to the cache and swaps it in with renames,
  so an interrupted install never leaves a half-filled cache (leftover staging dirs are removed later);
- copies agent.mjs into the cache every time (atomically, only when it changed): Node resolves the
  SDK import relative to the script, and ESM imports ignore NODE_PATH.

Failures raise NodeAgentSetupError with a message that says what to do; the test fixture turns it into
a test failure (never a silent skip).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from tests.install_cache import file_lock, remove_leftovers, tail
from tests.paths import REPO, TESTS

NODE_AGENT_SOURCE = TESTS / "agents" / "node_agent"
CACHE_DIR = REPO / ".cache" / "node-acp-agent"

SDK_PACKAGE = "@agentclientprotocol/sdk"
SDK_VERSION = "2.4.0"
AGENT_SCRIPT = "agent.mjs"
INSTALL_FILES = ("package.json", "package-lock.json")
STAMP_FILE = ".clawqt-install-stamp"
MIN_NODE_MAJOR = 18
INSTALL_TIMEOUT_S = 300.0
LOCK_TIMEOUT_S = INSTALL_TIMEOUT_S + 60.0


class NodeAgentSetupError(RuntimeError):
    """Node/npm missing or the SDK install failed; the message says how to fix it."""


@dataclass(frozen=True)
class NodeAgent:
    """A ready-to-run Node test agent."""

    argv: tuple[str, ...]
    cache_dir: Path
    node_version: str
    installed_now: bool
    setup_seconds: float


def _sdk_package_json(cache_dir: Path) -> Path:
    return cache_dir.joinpath("node_modules", *SDK_PACKAGE.split("/"), "package.json")


def install_stamp(source: Path = NODE_AGENT_SOURCE) -> str:
    """What the cache must have been installed from: the manifest and lockfile contents."""
    digest = hashlib.sha256()
    for name in INSTALL_FILES:
        digest.update(name.encode())
        digest.update((source / name).read_bytes())
    return f"{SDK_PACKAGE}@{SDK_VERSION} {digest.hexdigest()}"


def installed_sdk_version(cache_dir: Path) -> str | None:
    try:
        data = json.loads(_sdk_package_json(cache_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def is_installed(cache_dir: Path, stamp: str) -> bool:
    """True when the cache was installed from these files and holds the pinned SDK."""
    try:
        recorded = (cache_dir / STAMP_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return recorded == stamp and installed_sdk_version(cache_dir) == SDK_VERSION


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise NodeAgentSetupError(
            f"`{name}` was not found on PATH. The Node SDK integration tests need Node.js "
            f">= {MIN_NODE_MAJOR} with npm: install it (e.g. `apt-get install nodejs npm`, or from "
            "https://nodejs.org) and make sure `node` and `npm` are on PATH, then rerun the tests."
        )
    return path


def _node_version(node: str) -> str:
    try:
        out = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        raise NodeAgentSetupError(f"`{node} --version` failed ({exc}); check the Node.js install.") from exc
    match = re.match(r"v?(\d+)\.", out)
    if match is None or int(match.group(1)) < MIN_NODE_MAJOR:
        raise NodeAgentSetupError(
            f"Node.js {out or '(unknown version)'} at {node} is too old: the ACP SDK test agent needs "
            f"Node.js >= {MIN_NODE_MAJOR}. Upgrade Node.js and rerun the tests."
        )
    return out


def _npm_install(npm: str, source: Path, cache_dir: Path, stamp: str) -> None:
    """`npm ci` into a staging directory, verify it, then swap it in place of the cache."""
    staging = cache_dir.parent / f"{cache_dir.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    staging.mkdir(parents=True)
    try:
        for name in INSTALL_FILES:
            shutil.copy2(source / name, staging / name)
        command = [
            npm,
            "ci",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--omit=dev",
            "--loglevel=error",
        ]
        env = dict(os.environ, npm_config_update_notifier="false")
        try:
            result = subprocess.run(
                command,
                cwd=staging,
                env=env,
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise NodeAgentSetupError(
                f"`npm ci` for {SDK_PACKAGE}@{SDK_VERSION} did not finish within {INSTALL_TIMEOUT_S:.0f} s. "
                "Check that the npm registry is reachable (`npm config get registry`, `npm ping`) and "
                "rerun the tests."
            ) from exc
        if result.returncode != 0:
            raise NodeAgentSetupError(
                f"Installing {SDK_PACKAGE}@{SDK_VERSION} with `{' '.join(command[1:])}` in {staging} failed "
                f"(exit code {result.returncode}). The tests need the npm registry once (later runs reuse "
                f"{cache_dir}). Check `npm ping` and your npm proxy/registry settings, or run "
                f"`npm ci --omit=dev` in a copy of {source} to see the full error.\n"
                f"npm output:\n{tail(result.stderr + result.stdout)}"
            )
        version = installed_sdk_version(staging)
        if version != SDK_VERSION:
            raise NodeAgentSetupError(
                f"`npm ci` succeeded but installed {SDK_PACKAGE} {version!r}, not {SDK_VERSION}; check "
                f"{source / 'package-lock.json'}."
            )
        (staging / STAMP_FILE).write_text(stamp + "\n", encoding="utf-8")
        trash = cache_dir.parent / f"{cache_dir.name}.old-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        if cache_dir.exists():
            os.replace(cache_dir, trash)
        os.replace(staging, cache_dir)
        shutil.rmtree(trash, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _sync_file(source: Path, target: Path) -> None:
    """Copy `source` over `target` atomically when the contents differ."""
    data = source.read_bytes()
    with contextlib.suppress(OSError):
        if target.read_bytes() == data:
            return
    temporary = target.with_name(f".{target.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}")
    temporary.write_bytes(data)
    os.replace(temporary, target)


def ensure_node_agent(cache_dir: Path = CACHE_DIR, source: Path = NODE_AGENT_SOURCE) -> NodeAgent:
    """Install (or reuse) the Node test agent; returns the argv that runs it."""
    started = time.monotonic()
    node = _tool("node")
    node_version = _node_version(node)
    stamp = install_stamp(source)
    installed_now = False
    with file_lock(
        cache_dir.parent / f"{cache_dir.name}.lock", "the Node ACP SDK", NodeAgentSetupError, LOCK_TIMEOUT_S
    ):
        remove_leftovers(cache_dir)
        if not is_installed(cache_dir, stamp):
            npm = _tool("npm")
            _npm_install(npm, source, cache_dir, stamp)
            installed_now = True
        _sync_file(source / AGENT_SCRIPT, cache_dir / AGENT_SCRIPT)
    return NodeAgent(
        argv=(node, str(cache_dir / AGENT_SCRIPT)),
        cache_dir=cache_dir,
        node_version=node_version,
        installed_now=installed_now,
        setup_seconds=round(time.monotonic() - started, 3),
    )


__all__ = ["CACHE_DIR", "SDK_VERSION", "NodeAgent", "NodeAgentSetupError", "ensure_node_agent"]
