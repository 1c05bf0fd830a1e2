"""Every process ClawQt starts (the agent, client terminals, the sign-in terminal) and everything they
start carries two environment variables: CLAWQT_INSTANCE (this run of ClawQt) and CLAWQT_SCOPE (what it
belongs to: "agent", "terminal:<id>", "sign-in"). Descendants inherit them even when they leave the
process group (`setsid`) or double-fork away from their parent, which is how they escaped a kill of the
group. Ending a terminal, a session or the app also kills every process of this run that still carries
the scope, found through /proc (Linux). Where there is no /proc only the process group is killed
(a documented limit); a process that scrubs its environment escapes too. A process in the middle of an
exec shows an empty environment: a scan reads it again until it settles (a `setsid` on its way to its
command used to be missed by a kill at that moment). A scan reads every process's
environment: the kills a chat's terminals ask for together share one scan, run off the loop
(`ScopeSweeper`; one scan per terminal, on the loop, held the window 0.3-1.6 s for 64 of them).

Also here: waiting for a child's exit without tying up a thread (a pidfd on Linux, else polling): a
process that closed its terminal but kept running used to hold a worker of the shared thread pool
forever, and a few of them blocked every file read and preview that needed that pool."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
import uuid
from collections.abc import Callable, Collection
from pathlib import Path

log = logging.getLogger(__name__)

INSTANCE_VAR = "CLAWQT_INSTANCE"
SCOPE_VAR = "CLAWQT_SCOPE"
INSTANCE = f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
POLL_S = 0.05
SETTLE_S = 0.5  # how long a scan waits for a process in an exec to show its environment
SETTLE_POLL_S = 0.005
PF_KTHREAD = 0x00200000  # /proc/<pid>/stat flags: a kernel thread
_PROC = Path("/proc")


def tagged_env(env: dict[str, str], scope: str) -> dict[str, str]:
    """`env` with this run's instance and `scope` added (what the kill finds later)."""
    return {**env, INSTANCE_VAR: INSTANCE, SCOPE_VAR: scope}


def _tags(pid: int) -> tuple[str, str] | bool | None:
    """(instance, scope) of a process of some run of ClawQt; None when it is gone, another user's or
    untagged; True while it is unsettled: a live process whose environment reads empty, which is what
    /proc shows of a process in the middle of an exec (a `setsid` becoming its command)."""
    try:
        raw = (_PROC / str(pid) / "environ").read_bytes()
    except OSError:  # gone, or another user's
        return None
    if not raw:
        return _live_user_process(pid) or None
    instance = scope = ""
    for entry in raw.split(b"\0"):
        if entry.startswith(b"CLAWQT_INSTANCE="):
            instance = entry[len(b"CLAWQT_INSTANCE=") :].decode("utf-8", "replace")
        elif entry.startswith(b"CLAWQT_SCOPE="):
            scope = entry[len(b"CLAWQT_SCOPE=") :].decode("utf-8", "replace")
    return (instance, scope) if instance else None


def _live_user_process(pid: int) -> bool:
    """Neither a zombie nor a kernel thread (both read an empty environment for good)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return False
    fields = stat.rsplit(") ", 1)[1].split()
    return fields[0] != "Z" and not int(fields[6]) & PF_KTHREAD


def tagged_pids(scope: str | None = None) -> list[int]:
    """Live processes of this run in `scope` or a scope below it (`scope/...`; every scope when None);
    [] where there is no /proc."""
    return _tagged(None if scope is None else (scope,))


def _tagged(scopes: Collection[str] | None) -> list[int]:
    """Live processes of this run in any of `scopes` or below one (every scope when None): one scan,
    and the processes caught in an exec read again until they settle (for up to SETTLE_S)."""
    if not _PROC.is_dir():
        return []
    own = os.getpid()
    pids = [int(entry.name) for entry in _PROC.iterdir() if entry.name.isdigit() and int(entry.name) != own]
    found: list[int] = []
    deadline = time.monotonic() + SETTLE_S
    while True:
        unsettled = []
        for pid in pids:
            tags = _tags(pid)
            if tags is True:
                unsettled.append(pid)
            elif (
                isinstance(tags, tuple)
                and tags[0] == INSTANCE
                and (scopes is None or _within(tags[1], scopes))
            ):
                found.append(pid)
        if not unsettled or time.monotonic() > deadline:
            return found
        pids = unsettled
        time.sleep(SETTLE_POLL_S)


def _within(tag: str, scopes: Collection[str]) -> bool:
    return any(tag == scope or tag.startswith(scope + "/") for scope in scopes)


def new_scope(kind: str) -> str:
    """A scope of its own for one owner (`kind/<unique>`): two chat services in one process (tests)
    never kill each other's processes."""
    return f"{kind}/{uuid.uuid4().hex[:12]}"


def kill_tagged(scope: str | None = None, rounds: int = 3) -> int:
    """SIGKILL every process of this run in `scope` (every scope when None). How many were killed."""
    return kill_scopes(None if scope is None else (scope,), rounds)


def kill_scopes(scopes: Collection[str] | None, rounds: int = 3) -> int:
    """SIGKILL every process of this run in any of `scopes`; a few rounds, for children forked
    meanwhile. How many were killed."""
    killed = 0
    for _ in range(rounds):
        pids = _tagged(scopes)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
    return killed


class ScopeSweeper:
    """Kills the processes of the scopes asked for in a worker thread, the scopes asked for in one turn
    of the loop in one scan (a chat closing its terminals asks for each in turn). Without a running
    loop the kill is done at once."""

    def __init__(self) -> None:
        self._asked: set[str] = set()
        self._sweep: asyncio.Task[None] | None = None

    def sweep(self, scope: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            kill_tagged(scope)
            return
        self._asked.add(scope)
        if self._sweep is None or self._sweep.done():
            self._sweep = loop.create_task(self._run(), name="scope-sweep")
            self._sweep.add_done_callback(_report)

    async def _run(self) -> None:
        await asyncio.sleep(0)  # the scopes asked for in the rest of this turn
        while self._asked:
            scopes, self._asked = frozenset(self._asked), set()
            await asyncio.to_thread(kill_scopes, scopes)

    def cancel(self) -> None:
        """Quit: the caller kills the whole scope itself."""
        self._asked.clear()
        if self._sweep is not None:
            self._sweep.cancel()


def _report(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("killing the processes of a scope failed", exc_info=task.exception())


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

    def ended() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(pidfd, ended)
    try:
        await readable
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)


__all__ = [
    "INSTANCE",
    "ScopeSweeper",
    "kill_scopes",
    "kill_tagged",
    "new_scope",
    "tagged_env",
    "tagged_pids",
    "wait_exited",
]
