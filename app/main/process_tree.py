"""Every process ClawQt starts (the agent, client terminals, the sign-in terminal) and everything they
start carries two environment variables: CLAWQT_INSTANCE (this run of ClawQt) and CLAWQT_SCOPE (what it
belongs to: "agent", "terminal:<id>", "sign-in"). Descendants inherit them even when they leave the
process group (`setsid`) or double-fork away from their parent, which is how they escaped a kill of the
group. Ending a terminal, a session or the app also kills every process of this run that still carries
the scope, found through /proc (Linux). Where there is no /proc only the process group is killed
(a documented limit); a process that scrubs its environment escapes too.

Also here: waiting for a child's exit without tying up a thread (a pidfd on Linux, else polling): a
process that closed its terminal but kept running used to hold a worker of the shared thread pool
forever, and a few of them blocked every file read and preview that needed that pool."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import uuid
from collections.abc import Callable
from pathlib import Path

INSTANCE_VAR = "CLAWQT_INSTANCE"
SCOPE_VAR = "CLAWQT_SCOPE"
INSTANCE = f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
POLL_S = 0.05
_PROC = Path("/proc")


def tagged_env(env: dict[str, str], scope: str) -> dict[str, str]:
    """`env` with this run's instance and `scope` added (what the kill finds later)."""
    return {**env, INSTANCE_VAR: INSTANCE, SCOPE_VAR: scope}


def _tags(pid: int) -> tuple[str, str] | None:
    try:
        raw = (_PROC / str(pid) / "environ").read_bytes()
    except OSError:  # gone, or another user's
        return None
    instance = scope = ""
    for entry in raw.split(b"\0"):
        if entry.startswith(b"CLAWQT_INSTANCE="):
            instance = entry[len(b"CLAWQT_INSTANCE=") :].decode("utf-8", "replace")
        elif entry.startswith(b"CLAWQT_SCOPE="):
            scope = entry[len(b"CLAWQT_SCOPE=") :].decode("utf-8", "replace")
    return (instance, scope) if instance else None


def tagged_pids(scope: str | None = None) -> list[int]:
    """Live processes of this run in `scope` or a scope below it (`scope/...`; every scope when None);
    [] where there is no /proc."""
    if not _PROC.is_dir():
        return []
    found = []
    own = os.getpid()
    for entry in _PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == own:
            continue
        tags = _tags(int(entry.name))
        if tags is not None and tags[0] == INSTANCE and (scope is None or _within(tags[1], scope)):
            found.append(int(entry.name))
    return found


def _within(tag: str, scope: str) -> bool:
    return tag == scope or tag.startswith(scope + "/")


def new_scope(kind: str) -> str:
    """A scope of its own for one owner (`kind/<unique>`): two chat services in one process (tests)
    never kill each other's processes."""
    return f"{kind}/{uuid.uuid4().hex[:12]}"


def kill_tagged(scope: str | None = None, rounds: int = 3) -> int:
    """SIGKILL every process of this run in `scope`; a few rounds, for children forked meanwhile.
    How many were killed."""
    killed = 0
    for _ in range(rounds):
        pids = tagged_pids(scope)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
    return killed


async def wait_exited(pid: int, is_alive: Callable[[], bool]) -> None:
    """Return once child `pid` has exited (it can then be reaped without blocking). A pidfd where the
    platform has one; else `is_alive` (a non-blocking check) is polled."""
    pidfd = -1
    if hasattr(os, "pidfd_open"):
        with contextlib.suppress(OSError):
            pidfd = os.pidfd_open(pid)
    if pidfd < 0:
        while is_alive():
            await asyncio.sleep(POLL_S)
        return
    loop = asyncio.get_running_loop()
    readable = loop.create_future()
    loop.add_reader(pidfd, lambda: readable.done() or readable.set_result(None))
    try:
        await readable
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)


__all__ = ["INSTANCE", "kill_tagged", "new_scope", "tagged_env", "tagged_pids", "wait_exited"]
