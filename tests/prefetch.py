"""Everything the suite installs into .cache/, installed in the background from the start of a run of the
whole suite (`python -m tests.prefetch`, started by tests/conftest.py): the workers run the quick tests
meanwhile instead of waiting, one on the install and the other on its lock. Each install is the same
function a fixture calls, under the same lock and cache stamp, so a fixture finds it done, waits for the
one under way, or (when it failed here) installs again itself and reports the error in its test.
`python -m tests.prefetch` also works on its own, to install everything before running tests."""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tests.paths import REPO, TESTS

# in the order the tests need them: the OpenClaw tests run right after the unit tests (the bundle is built
# only by its own check, tests/conftest.py BUNDLE_CHECK)
INSTALLS = (
    ("Node 24 and OpenClaw", "tests.e2e.openclaw_env", "ensure_openclaw"),
    ("fast-agent", "tests.fast_agent_support", "ensure_fast_agent"),
    ("the Node ACP SDK test agent", "tests.node_support", "ensure_node_agent"),
    ("the TypeScript ACP SDK's example agent", "tests.real_agents_support", "ensure_ts_sdk_example"),
    ("the Python ACP SDK's example agents", "tests.real_agents_support", "ensure_python_sdk_examples"),
)
LOG = REPO / ".cache" / "prefetch.log"


def install_all(installs: Sequence[tuple[str, str, str]] = INSTALLS) -> int:
    """Every install in turn; a failure is printed and the next one runs. The number that failed."""
    failed = 0
    for what, module, function in installs:
        started = time.monotonic()
        try:
            getattr(importlib.import_module(module), function)()
        except Exception as exc:  # each install's own error says what to do; its test reports it again
            failed += 1
            print(f"prefetch: {what} failed after {time.monotonic() - started:.0f} s: {exc}", flush=True)
        else:
            print(f"prefetch: {what} ready after {time.monotonic() - started:.0f} s", flush=True)
    return failed


def start_in_background() -> subprocess.Popen[bytes]:
    """`python -m tests.prefetch` in a process group of its own, its output in .cache/prefetch.log."""
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with open(LOG, "wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "tests.prefetch"],
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """End the installs still under way (the run ended first: an interrupted or a partial run); each
    install stages its work and a later run clears what an interrupted one left."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def covers_the_whole_suite(args: Sequence[str], rootdir: Path, filtered: bool) -> bool:
    """Only a run of everything prefetches: a run of some tests must not install what they never use."""
    if filtered:
        return False
    return all((rootdir / arg).resolve() in (REPO, TESTS) for arg in args or ["tests"])


if __name__ == "__main__":
    sys.exit(1 if install_all() else 0)
