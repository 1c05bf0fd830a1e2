"""One agent child at a time: spawn, the shared in-flight `initialize`, exit watching, restart backoff.

States go out as AgentStateEnvelope: `starting` while the child boots and `initialize` runs (OpenClaw
takes 4-8 s; we wait up to `init_timeout`), `ready`, `exited` (code + stderr tail) or `failed`.
After an exit nothing restarts by itself: the next action calls `ensure_ready()`, which waits out the
backoff first (0, 1, 2, 4, ... 30 s for children that keep dying young).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.contract.envelopes import AgentInfo, AgentStateEnvelope, AgentStateName
from app.contract.errors import AgentRequestFailed, AgentTimedOut, AgentUnavailable, SignInRequired
from app.main.acp.client import ClawClient
from app.main.acp.json_rpc import RpcError
from app.main.acp.recorder import TraceRecorder
from app.main.acp.rpc_connection import RpcConnection
from app.main.acp.stdio_transport import StdioTransport
from app.main.acp.wire_observers import WireObservers
from app.main.agents.auth_methods import is_sign_in_refusal
from app.main.agents.command import AgentCommand
from app.main.agents.errors import agent_error, error_details
from app.main.agents.handshake import InitializeFailed, agent_info, initialize, seen
from app.main.agents.process import AgentProcess, Launcher, RunningAgent

log = logging.getLogger(__name__)

BACKOFF_STEPS = (0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
HEALTHY_AFTER_S = 30.0
OUTPUT_CLOSED_GRACE_S = 1.0
# How long ClawQt waits for each answer before it says so (seconds). A prompt has none: a turn may
# rightly take hours, and Stop is always there. `authenticate` may wait for a browser login.
DEADLINES_S: dict[str, float] = {
    "session/new": 60.0,
    "session/load": 180.0,  # a long history is replayed before the answer
    "session/resume": 60.0,
    "session/list": 30.0,
    "session/close": 30.0,
    "session/delete": 30.0,
    "session/set_mode": 30.0,
    "session/set_config_option": 30.0,
    "session/set_model": 30.0,
    "authenticate": 600.0,
}
DEFAULT_DEADLINE_S = 60.0


def backoff_delay(failures: int) -> float:
    """Seconds to wait before start number `failures + 1` after `failures` early deaths."""
    return BACKOFF_STEPS[min(failures, len(BACKOFF_STEPS) - 1)]


class AgentConnection:
    """Owns the child process and its JSON-RPC connection. The chat service owns everything else."""

    def __init__(
        self,
        command: AgentCommand,
        client: ClawClient,
        *,
        intercept: Callable[[dict[str, Any]], bool],
        on_state: Callable[[AgentStateEnvelope], None],
        on_exit: Callable[[int | None, str], None],
        on_diagnostic: Callable[[str], None],
        recorder: TraceRecorder | None = None,
        log_path: Path | None = None,
        init_timeout: float = 60.0,
        cwd: str | None = None,
        launch: Launcher = AgentProcess.spawn,
    ) -> None:
        self.command = command
        self._launch = launch
        self._client = client
        self._intercept = intercept
        self._on_state = on_state
        self._on_exit = on_exit
        self._on_diagnostic = on_diagnostic
        self._recorder = recorder
        self._log_path = log_path
        self.init_timeout = init_timeout
        self._cwd = cwd
        self._process: RunningAgent | None = None
        self._rpc: RpcConnection | None = None  # made when the child is started
        self._starting: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._ready_at: float | None = None
        self._failures = 0
        self._stopping = False
        self.info: AgentInfo | None = None
        self.state: AgentStateName = "idle"
        self.last_exit_code: int | None = None
        self.generation_of_child = 0
        self._transport: StdioTransport | None = None
        self.deadlines = dict(DEADLINES_S)  # per method; tests shorten them
        self.env_overrides: dict[str, str] = {}  # added to the child's environment (sign-in variables)
        self.observers = WireObservers(recorder)

    # --- state -------------------------------------------------------------------------------
    @property
    def label(self) -> str:
        if self.info is not None:
            return self.info.title or self.info.name
        return self.command.title or self.command.name

    @property
    def is_ready(self) -> bool:
        """Running and answering (also while it refuses chats until someone signs in)."""
        return self.state in ("ready", "sign-in") and self._rpc is not None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def stderr_tail(self, lines: int = 20) -> str:
        return self._process.stderr.tail(lines) if self._process is not None else ""

    def _set_state(self, state: AgentStateName, message: str = "", **extra: Any) -> None:
        self.state = state
        log.info("agent state %s: %s", state, message or self.command.display)
        self._on_state(
            AgentStateEnvelope(
                state=state,
                agent_label=self.label,
                command=self.command.display,
                source=self.command.source,
                reason=self.command.reason,
                message=message,
                **extra,
            )
        )

    # --- starting ----------------------------------------------------------------------------
    async def ensure_ready(self) -> None:
        """Start the child if needed; concurrent callers share one in-flight initialize."""
        if self.is_ready:
            return
        if self._stopping:
            raise AgentUnavailable("ClawQt is shutting down", code="shutting-down")
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(self._start(), name="agent-start")
        await asyncio.shield(self._starting)

    async def _start(self) -> None:
        delay = backoff_delay(self._failures)
        if delay > 0:
            self._set_state("starting", f"restarting the agent in {delay:.0f} s", restart_in_s=delay)
            await asyncio.sleep(delay)
        self.info = None
        self._set_state("starting", f"starting {self.command.display}")
        on_line = self.observers.stderr if self.observers.watch_stderr else None
        try:
            process = await self._launch(
                self.command,
                self._log_path,
                on_line,
                self._cwd,
                {**dict(self.command.env), **self.env_overrides},
            )
        except AgentUnavailable as exc:
            self._failures += 1
            self._set_state("failed", str(exc), code=exc.code)
            raise
        self._process = process
        self.generation_of_child += 1
        assert process.proc.stdin is not None and process.proc.stdout is not None
        transport = StdioTransport(
            process.proc.stdin,
            process.proc.stdout,
            on_raw=self.observers.message,
            intercept=self._intercept,
            on_diagnostic=self._on_diagnostic,
            on_closed=lambda: self._output_closed(process),
        )
        self._rpc = _json_rpc(self._client, transport)
        self._transport = transport
        exited = asyncio.get_running_loop().create_task(process.wait(), name="agent-wait")
        try:
            result = await initialize(self._rpc, exited, self.init_timeout)
        except BaseException as exc:
            self._failures += 1
            await self._discard_child(exited)
            if isinstance(exc, InitializeFailed):
                raise self._fail_init(exc.what, exc.exit_code) from None
            raise
        self.info = agent_info(result, self.command.name)
        self._ready_at = time.monotonic()
        self._watcher = asyncio.get_running_loop().create_task(
            self._watch_exit(exited, process), name="agent-exit-watch"
        )
        self._set_state("ready", f"{self.label} is ready")

    def _fail_init(self, what: str, exit_code: int | None = None) -> AgentUnavailable:
        """One sentence naming the agent; its last stderr lines are the details (and the banner's)."""
        tail = self.stderr_tail()
        message = f"The agent {self.command.name} {what}."
        self._set_state("failed", message, exit_code=exit_code, stderr_tail=tail)
        details = f"{self.command.display}\nLast stderr lines:\n{tail}" if tail else self.command.display
        return AgentUnavailable(message, code="initialize-failed", details=details)

    def _output_closed(self, process: RunningAgent) -> None:
        """The agent closed its stdout: nothing it says can reach ClawQt any more. A child that keeps
        running then would look ready and answer nothing; end it, so its exit is reported (banner,
        Reconnect) and the next action starts a new one."""
        if self._stopping or self._process is not process:
            return

        async def end_if_still_running() -> None:
            await asyncio.sleep(OUTPUT_CLOSED_GRACE_S)  # it may be exiting anyway
            if self._process is process and process.returncode is None and not self._stopping:
                self._on_diagnostic("the agent closed its output but kept running: ending it")
                await process.stop(grace=0.5)

        task = asyncio.get_running_loop().create_task(end_if_still_running(), name="agent-output-closed")
        task.add_done_callback(seen)

    async def _discard_child(self, exited: asyncio.Task[int]) -> None:
        process, conn = self._process, self._rpc
        self._rpc = None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        if process is not None:
            await process.stop()
        exited.cancel()

    # --- exit --------------------------------------------------------------------------------
    async def _watch_exit(self, exited: asyncio.Task[int], process: RunningAgent) -> None:
        try:
            code = await exited
        except asyncio.CancelledError:
            return
        if self._process is not process or self._stopping:
            return
        lived = time.monotonic() - (self._ready_at or time.monotonic())
        self._failures = 0 if lived >= HEALTHY_AFTER_S else self._failures + 1
        self.last_exit_code = code
        tail = process.stderr.tail()
        conn, self._rpc = self._rpc, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        await process.stop(grace=0.5)  # grandchildren left in the group
        message = f"The agent exited with code {code}. It restarts on your next action."
        self._set_state(
            "exited",
            message,
            exit_code=code,
            stderr_tail=tail,
            restart_in_s=backoff_delay(self._failures),
        )
        self._on_exit(code, tail)

    # --- requests ----------------------------------------------------------------------------
    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request to a ready agent, as the plain dicts ClawQt builds (every request, in the
        protocol's schema or not, goes through this one path); JSON-RPC errors and death become
        HostErrors."""
        await self.ensure_ready()
        rpc = self._rpc
        if rpc is None:
            raise AgentUnavailable("The agent is not running", code="agent-not-running")
        deadline = None if method == "session/prompt" else self.deadlines.get(method, DEFAULT_DEADLINE_S)
        try:
            async with asyncio.timeout(deadline):  # the request runs here, never as a task not yet started
                result = await rpc.send_request(method, params)
        except TimeoutError as exc:
            raise AgentTimedOut(
                f"The agent did not answer {method} within {deadline:g} s.",
                details=f"{self.command.display}\nLast stderr lines:\n{self.stderr_tail(10)}",
            ) from exc
        except RpcError as exc:
            offers = self.info is not None and bool(self.info.auth_methods)
            if is_sign_in_refusal(method, exc.code, str(exc), exc.data, self.stderr_tail(5), offers):
                message = agent_error(str(exc), exc.data)
                self._set_state("sign-in", message)
                raise SignInRequired(
                    message, details=error_details(method, exc.code, str(exc), exc.data)
                ) from exc
            raise AgentRequestFailed(
                agent_error(str(exc), exc.data),
                rpc_code=exc.code,
                code="method-not-found" if exc.code == -32601 else "agent-error",
                details=error_details(method, exc.code, str(exc), exc.data),
            ) from exc
        except ConnectionError as exc:
            raise AgentUnavailable(
                f"The agent exited during {method}. It restarts on your next action.",
                code="agent-exited",
            ) from exc
        return result if isinstance(result, dict) else {}

    def refuse(self, msg_id: Any, code: int, message: str) -> None:
        """Answer one of the agent's requests with an error, before the connection sees it (a request
        ClawQt refuses on its raw form)."""
        transport = self._transport
        if transport is None:
            return
        answer = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}
        task = asyncio.get_running_loop().create_task(transport.send(answer), name="agent-refusal")
        task.add_done_callback(seen)

    def signed_in(self) -> None:
        """The agent accepted a sign-in (`authenticate` succeeded): it is ready again."""
        if self.state == "sign-in":
            self._set_state("ready", f"{self.label} is ready")

    def signed_out(self) -> None:
        """The agent forgot the user's sign-in (`logout`): a chat needs a sign-in again."""
        if self.state == "ready":
            self._set_state("sign-in", f"You signed out of {self.label}.")

    async def restart(self) -> None:
        """End the running child and start a new one (it reads new credentials at start). The chat
        service drops the old child's sessions first; this is no crash, so no `exited` state."""
        await self._end_child()
        await self.ensure_ready()

    async def park(self, why: str) -> None:
        """End the child because no chat needs it (no crash, no restart): the next request starts a
        new one. Its whole process group is killed like at quit."""
        if self._stopping or self.state == "idle":
            return
        await self._end_child()
        self._set_state("idle", why)

    async def _end_child(self) -> None:
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(BaseException):
                await self._starting
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(BaseException):
                await watcher
        conn, self._rpc = self._rpc, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        process, self._process = self._process, None
        if process is not None:
            await process.stop()
        self._failures = 0
        self.state = "idle"

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        rpc = self._rpc
        if rpc is None:
            return
        with contextlib.suppress(ConnectionError):
            await rpc.send_notification(method, params)

    async def stop(self) -> None:
        """Kill the whole process group (quit). Idempotent."""
        self._stopping = True
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(BaseException):
                await self._starting
        if self._watcher is not None:
            self._watcher.cancel()
        conn, self._rpc = self._rpc, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        if self._process is not None:
            await self._process.stop()
        self.state = "idle"


def _json_rpc(client: ClawClient, transport: StdioTransport) -> RpcConnection:
    """JSON-RPC over our transport, dispatching the agent's requests and notifications to `client`.
    Every request goes out as the plain dict ClawQt builds, every answer comes back as one."""
    return RpcConnection(transport, requests=client.requests(), notifications=client.notifications())
