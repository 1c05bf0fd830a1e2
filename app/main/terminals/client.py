"""Client-side terminals (`terminal/create|output|wait_for_exit|kill|release`): real processes on a PTY,
each in its own session and process group, owned by the main side.

Authority: the working directory must be inside the session's workspace (its cwd), else the request
fails; the environment is the app's with the agent's variables merged on top; output beyond
`outputByteLimit` (at most MAX_OUTPUT_LIMIT, whatever the agent asks) is dropped from the start at a
character boundary and reported `truncated`; at most MAX_RUNNING terminals run at once; kill keeps the
output; release kills if needed and frees the id; every terminal ends when its session closes or the
app quits, with every process it started, also those that left its process group (core/process_tree.py).
Output is also pushed to the renderer as it arrives, so the tool card that embeds the terminal
shows it live.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.main.core.paths import within
from app.main.core.process_tree import ScopeSweeper, kill_tagged, new_scope, tagged_env
from app.main.terminals.pty import PtyHandle, exec_problem, spawn_pty

log = logging.getLogger(__name__)

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
MAX_OUTPUT_LIMIT = 16 * 1024 * 1024  # an agent may ask for less output kept, never for more than this
MAX_RUNNING = 64  # running terminals at once, all sessions together


class TerminalError(Exception):
    """A refused or failed terminal request (the message goes back to the agent)."""


@dataclass
class ExitStatus:
    exit_code: int | None
    signal: str | None

    def to_acp(self) -> dict[str, Any]:
        return {"exitCode": self.exit_code, "signal": self.signal}


def trim_to_limit(data: bytes, limit: int) -> tuple[bytes, bool]:
    """The last `limit` bytes, starting at a UTF-8 character boundary; True if anything was dropped."""
    if len(data) <= limit:
        return data, False
    cut = len(data) - limit
    while cut < len(data) and (data[cut] & 0xC0) == 0x80:  # skip continuation bytes
        cut += 1
    return data[cut:], True


def inside(path: str, root: str) -> bool:
    return within(os.path.realpath(path), os.path.realpath(root))


@dataclass
class ClientTerminal:
    terminal_id: str
    session_key: str
    argv: list[str]
    cwd: str
    limit: int
    pty: PtyHandle
    output: bytearray = field(default_factory=bytearray)
    truncated: bool = False
    status: ExitStatus | None = None
    exited: asyncio.Future[ExitStatus] | None = None

    def append(self, data: bytes) -> None:
        self.output.extend(data)
        if len(self.output) > self.limit * 2:  # amortized trimming
            self._trim()

    def _trim(self) -> None:
        kept, dropped = trim_to_limit(bytes(self.output), self.limit)
        if dropped:
            self.output = bytearray(kept)
            self.truncated = True

    def snapshot(self) -> tuple[str, bool]:
        self._trim()
        return bytes(self.output).decode("utf-8", "replace"), self.truncated


OnOutput = Callable[[str, str, bytes, ExitStatus | None], None]  # session key, id, new bytes, exit
Spawn = Callable[[list[str], str, dict[str, str], tuple[int, int]], PtyHandle]


class ClientTerminals:
    """All client-side terminals of the app."""

    def __init__(self, on_output: OnOutput | None = None, spawn: Spawn = spawn_pty) -> None:
        self._terminals: dict[str, ClientTerminal] = {}
        self._on_output = on_output
        self._spawn = spawn  # the platform's PTY (tests also run the threaded reader on Linux)
        self._reapers: set[asyncio.Future[None]] = set()
        self._scope = new_scope("terminals")  # what the kills find: every process of these terminals
        self._sweeper = ScopeSweeper()  # the kills of the processes that left a terminal's group

    def __len__(self) -> int:
        return len(self._terminals)

    @property
    def running_count(self) -> int:
        """Terminals whose command still runs (an agent's idle child must not be stopped under them)."""
        return sum(t.status is None for t in self._terminals.values())

    def create(
        self,
        session_key: str,
        workspace: str,
        command: str,
        args: list[str] | None = None,
        env: list[dict[str, Any]] | None = None,
        cwd: str | None = None,
        output_byte_limit: int | None = None,
    ) -> str:
        run_in = cwd or workspace
        if not os.path.isabs(run_in):
            run_in = os.path.join(workspace, run_in)
        if not inside(run_in, workspace):
            raise TerminalError(f"cwd {run_in!r} is outside the session's workspace {workspace!r}")
        if not os.path.isdir(run_in):
            raise TerminalError(f"cwd {run_in!r} is not a directory")
        merged = dict(os.environ)
        for variable in env or []:
            if not isinstance(variable, dict) or not isinstance(variable.get("name"), str):
                raise TerminalError(f"an env entry is not {{name, value}}: {variable!r:.80}")
            value = variable.get("value", "")
            merged[variable["name"]] = value if isinstance(value, str) else str(value)
        merged.setdefault("TERM", "xterm-256color")
        limit = (
            min(output_byte_limit, MAX_OUTPUT_LIMIT)
            if isinstance(output_byte_limit, int) and output_byte_limit >= 0
            else DEFAULT_OUTPUT_LIMIT
        )
        argv = [command, *(args or [])]
        if sum(t.status is None for t in self._terminals.values()) >= MAX_RUNNING:
            raise TerminalError(
                f"refused to run {command!r:.80}: {MAX_RUNNING} terminals are running already "
                "(release some first)"
            )
        terminal_id = f"term-{uuid.uuid4().hex[:12]}"
        merged = tagged_env(merged, f"{self._scope}/{terminal_id}")
        problem = exec_problem(argv, merged)
        if problem:
            raise TerminalError(f"refused to run {command!r:.80}: {problem}")
        try:
            pty = self._spawn(argv, run_in, merged, (40, 120))
        except ImportError as exc:  # no PTY library for this platform
            raise TerminalError(f"client terminals are not available on this platform: {exc}") from exc
        except OSError as exc:
            raise TerminalError(f"cannot start {command!r}: {exc}") from exc
        loop = asyncio.get_running_loop()
        terminal = ClientTerminal(
            terminal_id, session_key, argv, run_in, limit, pty, exited=loop.create_future()
        )
        self._terminals[terminal_id] = terminal
        pty.start(lambda data: self._received(terminal, data), lambda: self._ended(terminal))
        log.info("terminal %s started: %s in %s", terminal_id, argv, run_in)
        return terminal_id

    def _received(self, terminal: ClientTerminal, data: bytes) -> None:
        terminal.append(data)
        if self._on_output is not None:
            self._on_output(terminal.session_key, terminal.terminal_id, data, None)

    def _ended(self, terminal: ClientTerminal) -> None:
        self._reapers.add(task := asyncio.ensure_future(self._reap(terminal)))
        task.add_done_callback(self._reapers.discard)

    async def _reap(self, terminal: ClientTerminal) -> None:
        code, sig = await terminal.pty.wait()
        status = ExitStatus(code, sig)
        terminal.status = status
        if terminal.exited is not None and not terminal.exited.done():
            terminal.exited.set_result(status)
        terminal.pty.close()
        if self._on_output is not None:
            self._on_output(terminal.session_key, terminal.terminal_id, b"", status)
        log.info("terminal %s exited: %s", terminal.terminal_id, status)

    def _get(self, terminal_id: str, session_key: str) -> ClientTerminal:
        terminal = self._terminals.get(terminal_id)
        if terminal is None or terminal.session_key != session_key:
            raise TerminalError(f"unknown terminal {terminal_id!r}")
        return terminal

    def output(self, session_key: str, terminal_id: str) -> dict[str, Any]:
        terminal = self._get(terminal_id, session_key)
        text, truncated = terminal.snapshot()
        result: dict[str, Any] = {"output": text, "truncated": truncated}
        if terminal.status is not None:
            result["exitStatus"] = terminal.status.to_acp()
        return result

    async def wait_for_exit(self, session_key: str, terminal_id: str) -> dict[str, Any]:
        terminal = self._get(terminal_id, session_key)
        assert terminal.exited is not None
        status = await asyncio.shield(terminal.exited)
        return status.to_acp()

    def running(self, terminal_id: str) -> bool:
        terminal = self._terminals.get(terminal_id)
        return terminal is not None and terminal.status is None

    def kill_any(self, terminal_id: str) -> None:
        """Kill a terminal whichever session it belongs to (ClawQt's own decision, not a request)."""
        terminal = self._terminals.get(terminal_id)
        if terminal is not None:
            self._kill(terminal)

    def kill(self, session_key: str, terminal_id: str) -> None:
        """Kill the command and everything it started; the output stays until release."""
        self._kill(self._get(terminal_id, session_key))

    def _kill(self, terminal: ClientTerminal) -> None:
        """Its process group at once, and the processes that left it (setsid, double forks) but still
        carry the terminal's scope right after, off the loop (with the other terminals killed now)."""
        if terminal.status is None:
            terminal.pty.kill()
        self._sweeper.sweep(f"{self._scope}/{terminal.terminal_id}")

    def release(self, session_key: str, terminal_id: str) -> None:
        self.kill(session_key, terminal_id)  # (also checks the id belongs to the session)
        self._terminals.pop(terminal_id, None)

    def close_session(self, session_key: str) -> int:
        """End every terminal of a session (closed, or the app quits)."""
        ids = [t.terminal_id for t in self._terminals.values() if t.session_key == session_key]
        for terminal_id in ids:
            self.release(session_key, terminal_id)
        return len(ids)

    def shutdown(self) -> None:
        self._sweeper.cancel()
        for terminal in list(self._terminals.values()):
            terminal.pty.kill()
            terminal.pty.close()
        self._terminals.clear()
        kill_tagged(self._scope)  # also what released terminals left behind
