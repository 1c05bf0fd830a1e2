"""The user's own terminals: real shells on PTYs that belong to the user, not to a chat.

Ownership: this service owns every user terminal's process, its output as the agent may see it
(`TerminalOutputLog`, marked at arrival with the sharing mode), its sharing mode, its pin and the human
recency order. The panel (renderer) shows what the envelopes say and asks through the `UserTerminalsHost`
calls; the agent-side tools (`terminal_tools.py`) use the `agent_*` calls, which can read, type and ask
for a terminal but never change sharing, pins or recency.

Authority: sharing and pins change only through `set_sharing` / `pin` (the panel's controls). Human
recency moves only on creation, `focus` and `input` (the user's keys); output, agent reads and agent
input never move it. A terminal an agent asks for starts no process until the panel calls `ready` (the
user opened it), and never after its deadline or `refuse`.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import itertools
import logging
import os
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from app.contract.errors import HostError
from app.contract.terminal_hosts import UserTerminalListener
from app.contract.user_terminals import (
    SHARING_NAMES,
    ActivityName,
    SharingName,
    UserTerminalActivityEnvelope,
    UserTerminalChangedEnvelope,
    UserTerminalEnvelope,
    UserTerminalInfo,
    UserTerminalOutputEnvelope,
    UserTerminalRemovedEnvelope,
)
from app.main.listeners import Listeners
from app.main.paths import within
from app.main.pty_backends import PtyHandle, spawn_pty
from app.main.terminal_output_log import SharingMode, TerminalOutputLog

log = logging.getLogger(__name__)

# Output kept for a panel view built after it arrived (characters, newest kept).
VIEW_TAIL_CHARS = 512 * 1024
# At most this many user terminals at once (each is a shell process).
MAX_USER_TERMINALS = 32
# An agent's request for a terminal waits this long for the user, then never runs.
OPEN_DEADLINE_SECONDS = 30.0
MIN_COLUMNS, MAX_COLUMNS = 2, 1000
MIN_ROWS, MAX_ROWS = 1, 500
TITLE_CHARS = 80
SHUTDOWN_REAP_SECONDS = 2.0  # at quit, how long closed shells get to be reaped

Spawn = Callable[[list[str], str, dict[str, str], tuple[int, int]], PtyHandle]


def default_shell() -> list[str]:
    """The user's login shell as an interactive shell (COMSPEC on Windows)."""
    if sys.platform == "win32":  # pragma: no cover - no Windows machine runs the tests yet
        return [os.environ.get("COMSPEC", "cmd.exe")]
    return [os.environ.get("SHELL") or "/bin/sh"]


@dataclass
class _Terminal:
    info: UserTerminalInfo
    log: TerminalOutputLog
    recency: int
    pty: PtyHandle | None = None
    decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")("replace")
    )
    tail: deque[str] = field(default_factory=deque)
    tail_chars: int = 0
    wakers: list[asyncio.Future[None]] = field(default_factory=list)
    deadline: float = 0.0
    start_command: str = ""
    wait_task: asyncio.Task[None] | None = None


class UserTerminals:
    def __init__(
        self,
        workspace_root: str,
        session_folder: Callable[[str, int], str | None],
        shell: list[str] | None = None,
        spawn: Spawn = spawn_pty,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._root = os.path.realpath(workspace_root)
        self._session_folder = session_folder
        self._shell = shell or default_shell()
        self._spawn = spawn
        self._clock = clock
        self._terminals: dict[str, _Terminal] = {}
        self._listeners: Listeners[UserTerminalEnvelope] = Listeners(log, "a user terminal listener failed")
        self._ids = itertools.count(1)
        self._recency = itertools.count(1)
        self._closed_waits: set[asyncio.Task[None]] = set()

    @property
    def workspace_root(self) -> str:
        return self._root

    # --- what the panel sees ----------------------------------------------------------------------
    def terminals(self) -> list[UserTerminalInfo]:
        return [terminal.info for terminal in self._terminals.values()]

    def subscribe(self, listener: UserTerminalListener) -> Callable[[], None]:
        return self._listeners.subscribe(listener)

    def output(self, terminal_id: str) -> str:
        terminal = self._terminals.get(terminal_id)
        return "".join(terminal.tail) if terminal is not None else ""

    def _emit(self, envelope: UserTerminalEnvelope) -> None:
        self._listeners.emit(envelope)  # one broken view must not stop the others or the PTY reader

    def _update(self, terminal: _Terminal, **changes: object) -> None:
        terminal.info = replace(terminal.info, **changes)  # type: ignore[arg-type]
        self._emit(UserTerminalChangedEnvelope(terminal.info))

    # --- the user's actions -------------------------------------------------------------------------
    def folder_for(self, session_key: str | None, generation: int) -> str:
        """The session's folder when it is open at `generation` and inside the workspace root, else
        the root: a user terminal never starts outside it."""
        folder = self._session_folder(session_key, generation) if session_key else None
        if folder:
            real = os.path.realpath(folder)
            if within(real, self._root) and os.path.isdir(real):
                return real
        return self._root

    def open(self, session_key: str | None, generation: int, columns: int, rows: int) -> str:
        cwd = self.folder_for(session_key, generation)
        terminal = self._add(Path(cwd).name or cwd, cwd, "off", pinned=None, by_agent=False)
        self._start_or_forget(terminal, columns, rows)
        return terminal.info.terminal_id

    def open_confirmed(
        self, cwd: str, title: str, command: str = "", columns: int = 80, rows: int = 24
    ) -> str:
        """A terminal the user asked for by confirming a proposal card: started at once in `cwd` (inside
        the workspace root, else HostError), `command` typed into it once the shell runs."""
        real = os.path.realpath(cwd)
        if not within(real, self._root) or not os.path.isdir(real):
            raise HostError(
                f"{cwd} is not a folder inside the workspace {self._root}.", code="outside-workspace"
            )
        terminal = self._add(title or Path(real).name or real, real, "off", pinned=None, by_agent=False)
        terminal.start_command = command
        self._start_or_forget(terminal, columns, rows)
        return terminal.info.terminal_id

    def _start_or_forget(self, terminal: _Terminal, columns: int, rows: int) -> None:
        """Start a terminal the user asked for; one that cannot start leaves no tab (HostError says why)."""
        try:
            self._start(terminal, columns, rows)
        except HostError:
            self._terminals.pop(terminal.info.terminal_id, None)
            self._emit(UserTerminalRemovedEnvelope(terminal.info.terminal_id))
            raise

    def _add(
        self,
        title: str,
        cwd: str,
        sharing: SharingName,
        pinned: str | None,
        by_agent: bool,
        command: str = "",
        state: str = "running",
    ) -> _Terminal:
        if len(self._terminals) >= MAX_USER_TERMINALS:
            raise HostError(
                f"At most {MAX_USER_TERMINALS} terminals can be open; close one first.", code="too-many"
            )
        terminal_id = f"t{next(self._ids)}"
        info = UserTerminalInfo(
            terminal_id=terminal_id,
            title=title[:TITLE_CHARS],
            cwd=cwd,
            sharing=sharing,
            state=state,  # type: ignore[arg-type]
            pinned_session=pinned,
            opened_by_agent=by_agent,
            command=command,
        )
        terminal = _Terminal(info, TerminalOutputLog(SharingMode(sharing)), next(self._recency))
        self._terminals[terminal_id] = terminal
        self._emit(UserTerminalChangedEnvelope(info))
        return terminal

    def _start(self, terminal: _Terminal, columns: int, rows: int) -> None:
        columns, rows = _clamp_size(columns, rows)
        env = dict(os.environ)
        env.update(TERM="xterm-256color", COLUMNS=str(columns), LINES=str(rows), CLAWQT_TERMINAL="1")
        try:
            pty = self._spawn(list(self._shell), terminal.info.cwd, env, (rows, columns))
        except (OSError, ImportError) as error:
            self._update(terminal, state="failed", error=f"The shell could not start: {error}")
            raise HostError(f"The shell could not start: {error}", code="terminal-failed") from error
        terminal.pty = pty
        self._update(terminal, state="running", columns=columns, rows=rows, error="")
        terminal_id = terminal.info.terminal_id
        pty.start(lambda data: self._on_data(terminal_id, data), lambda: self._on_eof(terminal_id))
        task = asyncio.get_running_loop().create_task(self._wait_exit(terminal_id, pty))
        task.add_done_callback(_log_failure)
        terminal.wait_task = task
        if terminal.start_command:
            pty.write(terminal.start_command.encode() + b"\r")

    def ready(self, terminal_id: str, columns: int, rows: int) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None or terminal.info.state != "pending":
            return
        if self._clock() >= terminal.deadline:
            self._expire(terminal, "The request waited too long and was not opened.")
            return
        with contextlib.suppress(HostError):  # the failure is on the tab (state failed)
            self._start(terminal, columns, rows)
        self._wake(terminal)

    def refuse(self, terminal_id: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None and terminal.info.state == "pending":
            self._expire(terminal, "You refused this terminal; its command did not run.")

    def _expire(self, terminal: _Terminal, why: str) -> None:
        terminal.start_command = ""
        self._update(terminal, state="expired", error=why)
        self._wake(terminal)

    def close(self, terminal_id: str) -> None:
        terminal = self._terminals.pop(terminal_id, None)
        if terminal is None:
            return
        if terminal.pty is not None:
            terminal.pty.close()
        if terminal.wait_task is not None and not terminal.wait_task.done():
            self._closed_waits = {task for task in self._closed_waits if not task.done()}
            self._closed_waits.add(terminal.wait_task)  # it reaps the killed shell; shutdown awaits it
        self._wake(terminal)
        self._emit(UserTerminalRemovedEnvelope(terminal_id))

    def input(self, terminal_id: str, text: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            return
        terminal.recency = next(self._recency)
        self._write(terminal, text.encode("utf-8", "surrogatepass"))

    def answer(self, terminal_id: str, text: str) -> None:
        """The panel's emulator answering the program's own question (cursor position, device
        attributes): typed into the terminal like input, but not the user's doing (recency stays)."""
        terminal = self._terminals.get(terminal_id)
        if terminal is not None and text:
            self._write(terminal, text.encode("utf-8", "surrogatepass"))

    def resize(self, terminal_id: str, columns: int, rows: int) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            return
        columns, rows = _clamp_size(columns, rows)
        if (columns, rows) == (terminal.info.columns, terminal.info.rows):
            return
        if terminal.pty is not None and terminal.info.state == "running":
            terminal.pty.resize(rows, columns)
        self._update(terminal, columns=columns, rows=rows)

    def focus(self, terminal_id: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None:
            terminal.recency = next(self._recency)

    def set_sharing(self, terminal_id: str, mode: SharingName) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None or mode not in SHARING_NAMES or mode == terminal.info.sharing:
            return
        terminal.log.user_set_sharing(SharingMode(mode))
        self._update(terminal, sharing=mode)
        self._wake(terminal)  # a long poll re-checks sharing now

    def pin(self, terminal_id: str, session_key: str | None) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None and session_key != terminal.info.pinned_session:
            self._update(terminal, pinned_session=session_key)
            self._wake(terminal)

    async def shutdown(self) -> None:
        """Close every terminal and reap its shell (killed with its group) before returning."""
        waits = [t.wait_task for t in self._terminals.values() if t.wait_task is not None]
        for terminal_id in list(self._terminals):
            self.close(terminal_id)
        waits.extend(task for task in self._closed_waits if not task.done())
        self._closed_waits.clear()
        if waits:
            _done, pending = await asyncio.wait(waits, timeout=SHUTDOWN_REAP_SECONDS)
            for task in pending:
                task.cancel()

    # --- the PTY ------------------------------------------------------------------------------------
    def _write(self, terminal: _Terminal, data: bytes) -> bool:
        if terminal.pty is None or terminal.info.state != "running":
            return False
        try:
            terminal.pty.write(data)
        except OSError:
            return False
        return True

    def _on_data(self, terminal_id: str, data: bytes) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            return
        terminal.log.append(data)
        text = terminal.decoder.decode(data)
        if text:
            self._keep_for_views(terminal, text)
            self._emit(UserTerminalOutputEnvelope(terminal_id, text))
        self._wake(terminal)

    @staticmethod
    def _keep_for_views(terminal: _Terminal, text: str) -> None:
        terminal.tail.append(text)
        terminal.tail_chars += len(text)
        while terminal.tail_chars > VIEW_TAIL_CHARS and len(terminal.tail) > 1:
            terminal.tail_chars -= len(terminal.tail.popleft())

    def _on_eof(self, terminal_id: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None:
            rest = terminal.decoder.decode(b"", final=True)
            if rest:
                self._keep_for_views(terminal, rest)
                self._emit(UserTerminalOutputEnvelope(terminal_id, rest))

    async def _wait_exit(self, terminal_id: str, pty: PtyHandle) -> None:
        code, signal = await pty.wait()
        terminal = self._terminals.get(terminal_id)
        if terminal is None or terminal.pty is not pty:
            return
        self._update(terminal, state="exited", exit_code=code, signal=signal)
        self._wake(terminal)

    def _wake(self, terminal: _Terminal) -> None:
        wakers, terminal.wakers = terminal.wakers, []
        for waker in wakers:
            if not waker.done():
                waker.set_result(None)

    # --- what the agent-side tools use (never sharing, pins or recency) ----------------------------
    def info(self, terminal_id: str) -> UserTerminalInfo | None:
        terminal = self._terminals.get(terminal_id)
        return terminal.info if terminal is not None else None

    def output_log(self, terminal_id: str) -> TerminalOutputLog | None:
        terminal = self._terminals.get(terminal_id)
        return terminal.log if terminal is not None else None

    def by_human_recency(self) -> list[UserTerminalInfo]:
        """Terminals the user touched most recently first (creation, focus, the user's own input)."""
        ordered = sorted(self._terminals.values(), key=lambda terminal: terminal.recency, reverse=True)
        return [terminal.info for terminal in ordered]

    def agent_write(self, terminal_id: str, data: bytes) -> bool:
        """Input from an agent (the tools checked it may type); False when nothing runs to take it."""
        terminal = self._terminals.get(terminal_id)
        if terminal is None or not self._write(terminal, data):
            return False
        if not terminal.info.agent_sent_input:
            self._update(terminal, agent_sent_input=True)
        return True

    def agent_activity(self, terminal_id: str, activity: ActivityName, agent_label: str) -> None:
        if terminal_id in self._terminals:
            self._emit(UserTerminalActivityEnvelope(terminal_id, activity, agent_label))

    def agent_request(
        self, session_key: str, title: str, command: str, cwd: str, sharing: SharingName
    ) -> str:
        """A pending tab pinned to the agent's chat; nothing runs until the user opens it in time."""
        terminal = self._add(
            title or (command.split()[0] if command.split() else "Terminal"),
            cwd,
            sharing,
            pinned=session_key,
            by_agent=True,
            command=command,
            state="pending",
        )
        terminal.deadline = self._clock() + OPEN_DEADLINE_SECONDS
        terminal.start_command = command
        # the tab says "expired" on time even when no tool call asks again
        asyncio.get_running_loop().call_later(OPEN_DEADLINE_SECONDS + 0.05, self.expire_overdue)
        return terminal.info.terminal_id

    def expire_overdue(self) -> None:
        """Pending requests past their deadline end (called by the tools before answering)."""
        now = self._clock()
        for terminal in list(self._terminals.values()):
            if terminal.info.state == "pending" and now >= terminal.deadline:
                self._expire(terminal, "The request waited too long and was not opened.")

    async def changed(self, terminal_id: str, timeout: float) -> None:
        """Wait until the terminal has new output, changes state or sharing, closes, or `timeout`."""
        terminal = self._terminals.get(terminal_id)
        if terminal is None or timeout <= 0:
            return
        waker: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        terminal.wakers.append(waker)
        try:
            await asyncio.wait_for(waker, timeout)
        except TimeoutError:
            pass
        finally:
            if waker in terminal.wakers:
                terminal.wakers.remove(waker)


def _clamp_size(columns: int, rows: int) -> tuple[int, int]:
    return min(max(int(columns), MIN_COLUMNS), MAX_COLUMNS), min(max(int(rows), MIN_ROWS), MAX_ROWS)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a user terminal's exit wait failed", exc_info=task.exception())
