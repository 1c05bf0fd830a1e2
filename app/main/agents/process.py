"""The agent child process: spawned in its own process group with the full environment, its stderr
drained continuously, and the whole group killed on stop (Node agents leave grandchildren)."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from app.contract.errors import AgentUnavailable
from app.main.agents.command import AgentCommand
from app.main.agents.stderr_buffer import StderrBuffer
from app.main.core.process_tree import kill_tagged, new_scope, tagged_env
from app.main.openclaw.endpoint import embedding_env

log = logging.getLogger(__name__)

# The SDK-side pipe limit does not matter (we read raw chunks), but asyncio wants one.
_PIPE_LIMIT = 1024 * 1024
_LIVE_GROUPS: set[int] = set()


def kill_all_groups_now() -> None:
    """Last resort at interpreter exit: SIGKILL every agent group still alive, and every process of
    this run that left its group (no orphans)."""
    for pgid in list(_LIVE_GROUPS):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
        _LIVE_GROUPS.discard(pgid)
    with contextlib.suppress(Exception):
        kill_tagged(None)


atexit.register(kill_all_groups_now)


def _open_pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when `pid` exits (Linux >= 5.3); None elsewhere."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        return opener(pid)
    except OSError:
        return None


class RunningAgent(Protocol):
    """What the connection asks of a running agent: its pipes (`proc.stdin`, a StreamWriter, and
    `proc.stdout`, a StreamReader), its stderr, its exit, and a way to stop it. `AgentProcess` is the
    one the app runs; the tests also run agents in-process through the same door."""

    proc: Any
    stderr: StderrBuffer

    @property
    def pid(self) -> int | None: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...

    async def stop(self, grace: float = 2.0) -> None: ...


# how an agent is started: (command, stderr log, each stderr line, working folder, added environment)
Launcher = Callable[
    [AgentCommand, Path | None, Callable[[str], None] | None, str | None, dict[str, str] | None],
    Awaitable[RunningAgent],
]


class AgentProcess:
    """One running agent child. Create with `await AgentProcess.spawn(...)`."""

    def __init__(
        self, command: AgentCommand, proc: asyncio.subprocess.Process, stderr: StderrBuffer, scope: str = ""
    ):
        self.command = command
        self.scope = scope  # its processes' tag (core/process_tree.py): found even after they left the group
        self.proc = proc
        self.stderr = stderr
        self.pid = proc.pid
        self._pidfd = _open_pidfd(proc.pid)
        self._drain_task = asyncio.get_running_loop().create_task(self._drain_stderr(), name="agent-stderr")
        self._leader_watch: asyncio.Task[None] | None = None  # one watch, shared by wait() and stop()

    @classmethod
    async def spawn(
        cls,
        command: AgentCommand,
        log_path: Path | None,
        on_stderr_line: Callable[[str], None] | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> AgentProcess:
        """Start the command (`env` added to ClawQt's own environment); raise AgentUnavailable naming
        the command when it cannot start."""
        full_env = dict(os.environ)  # the full environment: API keys, LANG, XDG_*, OPENCLAW_* all pass
        full_env.setdefault("PYTHONUNBUFFERED", "1")
        for name, value in embedding_env(command.argv).items():  # OpenClaw's embedding variables
            full_env.setdefault(name, value)
        full_env.update(env or {})
        scope = new_scope("agent")
        full_env = tagged_env(full_env, scope)
        try:
            proc = await asyncio.create_subprocess_exec(
                *command.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=full_env,
                cwd=cwd,
                limit=_PIPE_LIMIT,
                start_new_session=sys.platform != "win32",
            )
        except FileNotFoundError as exc:
            raise AgentUnavailable(
                f"The agent command {command.argv[0]!r} was not found "
                f"(from {command.source}: {command.display}). Install it or choose another agent "
                "with --agent or agent.command in the config file.",
                code="agent-not-found",
            ) from exc
        except PermissionError as exc:
            raise AgentUnavailable(
                f"The agent command {command.argv[0]!r} is not executable: {exc}",
                code="agent-not-executable",
            ) from exc
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the command or environment
            raise AgentUnavailable(
                f"The agent command {command.display!r} could not start: {exc}",
                code="agent-spawn-failed",
            ) from exc
        _LIVE_GROUPS.add(proc.pid)
        log.info("agent started: pid %s: %s (%s)", proc.pid, command.display, command.reason)
        return cls(command, proc, StderrBuffer(log_path, on_line=on_stderr_line), scope)

    async def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        try:
            while True:
                chunk = await self.proc.stderr.read(64 * 1024)
                if not chunk:
                    break
                self.stderr.feed(chunk)
        except (asyncio.CancelledError, ConnectionError):
            pass
        finally:
            self.stderr.finish()

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    async def _leader_exited(self) -> None:
        """Wake when the leader exits. `wait()` and `stop()` may both wait at once: they share one
        watch of the pidfd (two readers on one descriptor replaced each other, and one closing it left
        the other failing on a closed descriptor). Waiters may be cancelled; the watch is not."""
        if self._leader_watch is None:
            self._leader_watch = asyncio.get_running_loop().create_task(
                self._watch_leader(), name="agent-leader"
            )
        await asyncio.shield(self._leader_watch)

    async def _watch_leader(self) -> None:
        """Even if a grandchild still holds our pipes open (asyncio's `Process.wait()` waits for the
        pipes too, so it would never return then)."""
        if self._pidfd is not None:
            loop = asyncio.get_running_loop()
            exited = loop.create_future()

            def ended() -> None:
                if not exited.done():
                    exited.set_result(None)

            loop.add_reader(self._pidfd, ended)
            try:
                await exited
            finally:
                loop.remove_reader(self._pidfd)
        while self.proc.returncode is None:  # the pidfd fires just before asyncio reaps
            await asyncio.sleep(0.05 if self._pidfd is None else 0.005)

    async def wait(self) -> int:
        """Wait for the leader to exit, kill what is left of its group (grandchildren holding the
        pipes), then let stderr drain so the tail is complete."""
        await self._leader_exited()
        code = self.proc.returncode
        assert code is not None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._drain_task), timeout=2.0)
        _LIVE_GROUPS.discard(self.pid)
        self._close_pidfd()
        return code

    def _close_pidfd(self) -> None:
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None

    async def stop(self, grace: float = 2.0) -> None:
        """SIGTERM the whole group, then SIGKILL what is left after `grace` seconds."""
        if sys.platform == "win32":  # pragma: no cover - no process groups there
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
            return
        for sig, timeout in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)
            try:
                await asyncio.wait_for(self._leader_exited(), timeout)
                break
            except TimeoutError:
                continue
        # The leader is gone; grandchildren in the group may linger: kill them too, and those that
        # left the group (setsid, double forks) but carry the agent's scope.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.scope:
            kill_tagged(self.scope)
        _LIVE_GROUPS.discard(self.pid)
        self._close_pidfd()
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._drain_task), timeout=1.0)
        self._drain_task.cancel()
