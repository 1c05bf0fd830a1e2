"""Install and locate real ACP agents that nobody here wrote, for the tests that run them (fast-agent's
own install is tests/fast_agent_support.py, on the machinery here):

- the Python ACP SDK's example agents (`examples/echo_agent.py`, `examples/agent.py`), taken from the
  sdist of the `agent-client-protocol` version installed in the running interpreter (the wheel has no
  examples): `.cache/acp-python-sdk-examples/`. They run with that same interpreter.
- the TypeScript ACP SDK's example agent, `dist/examples/agent.js` of the npm package
  `@agentclientprotocol/sdk` 1.9.0: the newest release that ships its examples compiled (2.x excludes
  `dist/examples` from the package). Installed by `npm ci` from tests/agents/ts_sdk_example/ into
  `.cache/ts-sdk-example/` and run unmodified with the machine's Node.

Nothing of these agents is kept in the repository. Each install works like tests/node_support.py: an
exclusive file lock (parallel pytest processes install once), a stamp saying what the cache was
installed from (a cached run costs milliseconds), a staging directory next to the cache that is swapped
in with renames only once it is complete (an interrupted install never leaves a half-filled cache), and a
RealAgentSetupError whose message says what to do; the test fixtures turn it into a FAILURE, never a
silent skip.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from tests.install_cache import file_lock, remove_leftovers, tail
from tests.node_support import NodeAgentSetupError, _node_version, _tool
from tests.paths import REPO, TESTS

CACHE = REPO / ".cache"
STAMP_FILE = ".clawqt-install-stamp"
INSTALL_TIMEOUT_S = 600.0
LOCK_TIMEOUT_S = INSTALL_TIMEOUT_S + 60.0

SDK_DIST = "agent-client-protocol"
PY_EXAMPLES = ("echo_agent.py", "agent.py")
PY_EXAMPLES_CACHE = CACHE / "acp-python-sdk-examples"

TS_EXAMPLE_SOURCE = TESTS / "agents" / "ts_sdk_example"
TS_EXAMPLE_CACHE = CACHE / "ts-sdk-example"
TS_SDK_PACKAGE = "@agentclientprotocol/sdk"
TS_SDK_VERSION = "1.9.0"
TS_EXAMPLE_SCRIPT = ("dist", "examples", "agent.js")
NPM_FILES = ("package.json", "package-lock.json")


class RealAgentSetupError(RuntimeError):
    """A real agent could not be installed or found; the message says how to fix it."""


Installed = TypeVar("Installed")


def installed_or_fail(
    what: str, install: Callable[[], Installed], error: type[Exception] = RealAgentSetupError
) -> Installed:
    """What `install` makes ready; when it cannot, the test FAILS with its words (how to fix it), never
    skips. Failed outside the except block: no chained traceback in the report."""
    try:
        agent = install()
    except error as exc:
        problem = str(exc)
    else:
        return agent
    pytest.fail(f"{what} unavailable: {problem}", pytrace=False)


@dataclass(frozen=True)
class InstalledAgent:
    """A ready-to-run real agent: `argv` starts it (fast-agent adds its own options: see below)."""

    argv: tuple[str, ...]
    cache_dir: Path
    version: str
    runtime: str  # what runs it ("CPython 3.13.0 at ...", "node v20...")
    installed_now: bool
    setup_seconds: float


# --- shared machinery --------------------------------------------------------------------------------
def _recorded_stamp(cache_dir: Path) -> str | None:
    try:
        return (cache_dir / STAMP_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def _run(command: list[str], what: str, hint: str, cwd: Path | None = None) -> str:
    """Run an install step; its stdout, or a RealAgentSetupError with the output's tail and `hint`."""
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    env["npm_config_update_notifier"] = "false"
    try:
        result = subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise RealAgentSetupError(f"{what} did not finish within {INSTALL_TIMEOUT_S:.0f} s. {hint}") from exc
    except OSError as exc:
        raise RealAgentSetupError(f"{what} could not start ({exc}). {hint}") from exc
    if result.returncode != 0:
        raise RealAgentSetupError(
            f"{what} failed (exit code {result.returncode}): `{' '.join(command)}`. {hint}\n"
            f"output:\n{tail(result.stderr + result.stdout)}"
        )
    return result.stdout


def _install(
    cache_dir: Path,
    what: str,
    stamp: str,
    is_complete: Callable[[Path], bool],
    build: Callable[[Path], None],
) -> bool:
    """Reuse `cache_dir` when its stamp matches and `is_complete` holds; else `build(staging)` into a
    fresh staging directory, stamp it and swap it in. True when it installed now."""
    with file_lock(cache_dir.parent / f"{cache_dir.name}.lock", what, RealAgentSetupError, LOCK_TIMEOUT_S):
        remove_leftovers(cache_dir)
        if _recorded_stamp(cache_dir) == stamp and is_complete(cache_dir):
            return False
        staging = cache_dir.parent / f"{cache_dir.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        staging.mkdir(parents=True)
        try:
            build(staging)
            if not is_complete(staging):
                raise RealAgentSetupError(f"Installing {what} into {staging} left it incomplete.")
            (staging / STAMP_FILE).write_text(stamp + "\n", encoding="utf-8")
            trash = cache_dir.parent / f"{cache_dir.name}.old-{os.getpid()}-{uuid.uuid4().hex[:8]}"
            if cache_dir.exists():
                os.replace(cache_dir, trash)
            os.replace(staging, cache_dir)
            shutil.rmtree(trash, ignore_errors=True)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
        return True


def _digest(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# --- the Python SDK's example agents -------------------------------------------------------------------
def installed_sdk_version() -> str:
    return importlib.metadata.version(SDK_DIST)


def _examples_complete(cache_dir: Path) -> bool:
    return all((cache_dir / "examples" / name).is_file() for name in PY_EXAMPLES)


def _extract_examples(sdist: Path, target: Path, version: str) -> None:
    """Copy examples/<name> out of the sdist (read member by member: no path from the archive is used)."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[-1]: m for m in archive.getmembers() if m.isfile()}
        missing = [name for name in PY_EXAMPLES if f"examples/{name}" not in members]
        if missing:
            present = sorted(n for n in members if n.startswith("examples/")) or ["(no examples/ at all)"]
            raise RealAgentSetupError(
                f"The sdist of {SDK_DIST} {version} ({sdist.name}) has no {', '.join(missing)}; its "
                f"examples are: {', '.join(present)}. Pick the agents from what it has, or pin another "
                f"{SDK_DIST} version in pyproject.toml."
            )
        for name in PY_EXAMPLES:
            source = archive.extractfile(members[f"examples/{name}"])
            assert source is not None
            (target / name).write_bytes(source.read())


def ensure_python_sdk_examples(cache_dir: Path = PY_EXAMPLES_CACHE) -> dict[str, InstalledAgent]:
    """Fetch (or reuse) the Python SDK's example agents; {file name: agent run by this interpreter}."""
    started = time.monotonic()
    version = installed_sdk_version()
    stamp = f"{SDK_DIST}=={version} sdist examples/{','.join(PY_EXAMPLES)}"
    hint = (
        f"The tests need PyPI once (later runs reuse {cache_dir}); try `pip download --no-binary :all: "
        f"--no-deps {SDK_DIST}=={version}` to see the full error."
    )

    def build(staging: Path) -> None:
        download = staging / "download"
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-binary",
                ":all:",
                "--no-deps",
                f"{SDK_DIST}=={version}",
                "-d",
                str(download),
            ],
            f"Downloading the sdist of {SDK_DIST} {version}",
            hint,
        )
        sdists = sorted(download.glob("*.tar.gz"))
        if len(sdists) != 1:
            raise RealAgentSetupError(
                f"`pip download` of {SDK_DIST} {version} gave {[p.name for p in download.iterdir()]}, not "
                f"one .tar.gz sdist. {hint}"
            )
        _extract_examples(sdists[0], staging / "examples", version)
        shutil.rmtree(download)

    installed_now = _install(
        cache_dir, f"the {SDK_DIST} {version} examples", stamp, _examples_complete, build
    )
    seconds = round(time.monotonic() - started, 3)
    return {
        name: InstalledAgent(
            argv=(sys.executable, str(cache_dir / "examples" / name)),
            cache_dir=cache_dir,
            version=version,
            runtime=f"Python {sys.version.split()[0]} at {sys.executable}",
            installed_now=installed_now,
            setup_seconds=seconds,
        )
        for name in PY_EXAMPLES
    }


# --- the TypeScript SDK's example agent --------------------------------------------------------------
def _ts_sdk_dir(cache_dir: Path) -> Path:
    return cache_dir.joinpath("node_modules", *TS_SDK_PACKAGE.split("/"))


def _ts_example_complete(cache_dir: Path) -> bool:
    try:
        data = json.loads((_ts_sdk_dir(cache_dir) / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(data, dict)
        and data.get("version") == TS_SDK_VERSION
        and _ts_sdk_dir(cache_dir).joinpath(*TS_EXAMPLE_SCRIPT).is_file()
    )


def ensure_ts_sdk_example(
    cache_dir: Path = TS_EXAMPLE_CACHE, source: Path = TS_EXAMPLE_SOURCE
) -> InstalledAgent:
    """Install (or reuse) the npm SDK whose package carries the compiled example agent."""
    started = time.monotonic()
    try:
        node = _tool("node")
        node_version = _node_version(node)
    except NodeAgentSetupError as exc:
        raise RealAgentSetupError(str(exc)) from None
    stamp = f"{TS_SDK_PACKAGE}@{TS_SDK_VERSION} examples {_digest(*(source / n for n in NPM_FILES))}"
    hint = (
        f"The tests need the npm registry once (later runs reuse {cache_dir}). Check `npm ping` and your "
        f"npm registry settings, or run `npm ci --omit=dev` in a copy of {source}."
    )

    def build(staging: Path) -> None:
        try:
            npm = _tool("npm")
        except NodeAgentSetupError as exc:
            raise RealAgentSetupError(str(exc)) from None
        for name in NPM_FILES:
            shutil.copy2(source / name, staging / name)
        command = [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--omit=dev", "--loglevel=error"]
        _run(command, f"Installing {TS_SDK_PACKAGE}@{TS_SDK_VERSION}", hint, cwd=staging)
        if not _ts_example_complete(staging):
            raise RealAgentSetupError(
                f"`npm ci` installed {TS_SDK_PACKAGE} without {'/'.join(TS_EXAMPLE_SCRIPT)} or not at "
                f"{TS_SDK_VERSION}; check {source / 'package-lock.json'}."
            )

    installed_now = _install(
        cache_dir, f"{TS_SDK_PACKAGE}@{TS_SDK_VERSION}", stamp, _ts_example_complete, build
    )
    return InstalledAgent(
        argv=(node, str(_ts_sdk_dir(cache_dir).joinpath(*TS_EXAMPLE_SCRIPT))),
        cache_dir=cache_dir,
        version=TS_SDK_VERSION,
        runtime=f"node {node_version}",
        installed_now=installed_now,
        setup_seconds=round(time.monotonic() - started, 3),
    )


__all__ = [
    "TS_SDK_VERSION",
    "InstalledAgent",
    "RealAgentSetupError",
    "ensure_python_sdk_examples",
    "ensure_ts_sdk_example",
    "installed_or_fail",
]
