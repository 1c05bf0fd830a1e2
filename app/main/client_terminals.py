"""Client-side terminals (`terminal/create|output|wait_for_exit|kill|release`): real processes on a PTY,
each in its own session and process group, owned by the main side.

Authority: the working directory must be inside the session's workspace (its cwd), else the request
fails; the environment is the app's with the agent's variables merged on top; output beyond
`outputByteLimit` is dropped from the start at a character boundary and reported `truncated`; kill keeps
the output; release kills if needed and frees the id; every terminal ends when its session closes or the
app quits. Output is also pushed to the renderer as it arrives, so the tool card that embeds the terminal
shows it live.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_OUTPUT_LIMIT = 1024 * 1024
READ_CHUNK = 65536


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
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


@dataclass
class ClientTerminal:
    terminal_id: str
    session_key: str
    argv: list[str]
    cwd: str
    limit: int
    proc: Any  # ptyprocess.PtyProcess
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


class ClientTerminals:
    """All client-side terminals of the app."""

    def __init__(self, on_output: OnOutput | None = None) -> None:
        self._terminals: dict[str, ClientTerminal] = {}
        self._on_output = on_output
        self._reapers: set[asyncio.Future[None]] = set()

    def __len__(self) -> int:
        return len(self._terminals)

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
        try:
            from ptyprocess import PtyProcess  # POSIX only; imported when a terminal is first needed
        except ImportError as exc:  # Windows: the capability is not advertised, but an agent may try
            raise TerminalError(f"client terminals need a POSIX PTY on this platform: {exc}") from exc

        run_in = cwd or workspace
        if not os.path.isabs(run_in):
            run_in = os.path.join(workspace, run_in)
        if not inside(run_in, workspace):
            raise TerminalError(f"cwd {run_in!r} is outside the session's workspace {workspace!r}")
        if not os.path.isdir(run_in):
            raise TerminalError(f"cwd {run_in!r} is not a directory")
        merged = dict(os.environ)
        for variable in env or []:
            if isinstance(variable, dict) and isinstance(variable.get("name"), str):
                merged[variable["name"]] = str(variable.get("value", ""))
        merged.setdefault("TERM", "xterm-256color")
        limit = (
            output_byte_limit
            if isinstance(output_byte_limit, int) and output_byte_limit >= 0
            else DEFAULT_OUTPUT_LIMIT
        )
        argv = [command, *(args or [])]
        try:
            proc = PtyProcess.spawn(argv, cwd=run_in, env=merged, dimensions=(40, 120))
        except (OSError, FileNotFoundError) as exc:
            raise TerminalError(f"cannot start {command!r}: {exc}") from exc
        terminal_id = f"term-{uuid.uuid4().hex[:12]}"
        loop = asyncio.get_running_loop()
        terminal = ClientTerminal(
            terminal_id, session_key, argv, run_in, limit, proc, exited=loop.create_future()
        )
        self._terminals[terminal_id] = terminal
        os.set_blocking(proc.fd, False)
        loop.add_reader(proc.fd, self._readable, terminal)
        log.info("terminal %s started: %s in %s", terminal_id, argv, run_in)
        return terminal_id

    def _readable(self, terminal: ClientTerminal) -> None:
        try:
            data = os.read(terminal.proc.fd, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: the other side of the PTY is gone
            data = b""
        if data:
            terminal.append(data)
            if self._on_output is not None:
                self._on_output(terminal.session_key, terminal.terminal_id, data, None)
            return
        asyncio.get_running_loop().remove_reader(terminal.proc.fd)
        self._reapers.add(task := asyncio.ensure_future(self._reap(terminal)))
        task.add_done_callback(self._reapers.discard)

    async def _reap(self, terminal: ClientTerminal) -> None:
        proc = terminal.proc
        await asyncio.get_running_loop().run_in_executor(None, _wait_quietly, proc)
        sig = proc.signalstatus
        status = ExitStatus(
            proc.exitstatus if sig is None else None, signal.Signals(sig).name if sig is not None else None
        )
        terminal.status = status
        if terminal.exited is not None and not terminal.exited.done():
            terminal.exited.set_result(status)
        with contextlib.suppress(OSError):
            proc.close(force=True)
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

    def kill(self, session_key: str, terminal_id: str) -> None:
        """Kill the process group; the output stays until release."""
        terminal = self._get(terminal_id, session_key)
        if terminal.status is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(terminal.proc.pid, signal.SIGKILL)

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
        for terminal in list(self._terminals.values()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(terminal.proc.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(terminal.proc.fd)
        self._terminals.clear()


def _wait_quietly(proc: Any) -> None:
    with contextlib.suppress(Exception):
        proc.wait()
