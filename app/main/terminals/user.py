"""The user's own terminals: real shells on PTYs that belong to the user, not to a chat.

Ownership: this service owns every user terminal's process, its output as the agent may see it
(`TerminalOutputLog`, marked at arrival with the sharing mode), its sharing mode, its pin and the human
recency order. The panel (renderer) shows what the envelopes say and asks through the `UserTerminalsHost`
calls; the agent-side tools (`participation/tools.py`) use the `agent_*` calls, which can read, type and ask
for a terminal but never change sharing, pins or recency.

Authority: sharing and pins change only through `set_sharing` / `pin` (the panel's controls). Human
recency moves only on creation, `focus` and `input` (the user's keys); output, agent reads and agent
input never move it. A terminal an agent asks for starts no process until the panel calls `ready` (the
user opened it), and never after its deadline or `refuse`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from app.contract.errors import HostError
from app.contract.terminal_hosts import UserTerminalListener
from app.contract.user_terminals import (
    SHARING_NAMES,
    ActivityName,
    SharingName,
    SplitDirection,
    UserTerminalActivityEnvelope,
    UserTerminalChangedEnvelope,
    UserTerminalEnvelope,
    UserTerminalInfo,
    UserTerminalOutputEnvelope,
    UserTerminalRemovedEnvelope,
    split_direction,
)
from app.main.core.listeners import Listeners
from app.main.core.paths import within
from app.main.terminals.output_log import SharingMode, TerminalOutputLog
from app.main.terminals.profiles import TerminalProfiles
from app.main.terminals.pty import PtyHandle, spawn_pty
from app.main.terminals.user_record import TerminalRecord, clamp_size, log_failure

log = logging.getLogger(__name__)

# At most this many user terminals at once (each is a shell process).
MAX_USER_TERMINALS = 32
# An agent's request for a terminal waits this long for the user, then never runs.
OPEN_DEADLINE_SECONDS = 30.0
TITLE_CHARS = 80
SHUTDOWN_REAP_SECONDS = 2.0  # at quit, how long closed shells get to be reaped

Spawn = Callable[[list[str], str, dict[str, str], tuple[int, int]], PtyHandle]


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
        self.profiles = TerminalProfiles(shell)
        self._spawn = spawn
        self._clock = clock
        self._terminals: dict[str, TerminalRecord] = {}
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

    def _update(self, terminal: TerminalRecord, **changes: object) -> None:
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

    def split(self, terminal_id: str, direction: SplitDirection, columns: int, rows: int) -> str:
        """A new shell beside `terminal_id` in the same folder and shell, shown as a split pane of it."""
        beside = self._terminals.get(terminal_id)
        if beside is None:
            raise HostError("That terminal is closed.", code="no-terminal")
        terminal = self._add(
            Path(beside.info.cwd).name or beside.info.cwd, beside.info.cwd, "off", pinned=None,
            by_agent=False, split=(terminal_id, split_direction(direction)),
            shell=(beside.argv, beside.info.shell),
        )  # fmt: skip
        self._start_or_forget(terminal, columns, rows)
        return terminal.info.terminal_id

    def open_confirmed(
        self,
        cwd: str,
        title: str,
        command: str = "",
        columns: int = 80,
        rows: int = 24,
        split: tuple[str, SplitDirection] | None = None,
        profile: str = "",
    ) -> str:
        """A terminal the user asked for by confirming a proposal card: started at once in `cwd` (inside
        the workspace root, else HostError), `command` typed into it once the shell runs; `split`: a
        pane beside that terminal (a tab of its own when it is closed); `profile`: the login shell of
        that name (profiles.py), else the user's own."""
        real = os.path.realpath(cwd)
        if not within(real, self._root) or not os.path.isdir(real):
            raise HostError(
                f"{cwd} is not a folder inside the workspace {self._root}.", code="outside-workspace"
            )
        beside = split if split is not None and split[0] in self._terminals else None
        terminal = self._add(
            title or Path(real).name or real, real, "off", pinned=None, by_agent=False,
            split=(beside[0], split_direction(beside[1])) if beside else None,
            shell=self.profiles.resolve(profile),
        )  # fmt: skip
        terminal.start_command = command
        self._start_or_forget(terminal, columns, rows)
        return terminal.info.terminal_id

    def _start_or_forget(self, terminal: TerminalRecord, columns: int, rows: int) -> None:
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
        split: tuple[str, SplitDirection] | None = None,
        shell: tuple[list[str], str] | None = None,  # argv and name; None: the user's own shell
    ) -> TerminalRecord:
        if len(self._terminals) >= MAX_USER_TERMINALS:
            raise HostError(
                f"At most {MAX_USER_TERMINALS} terminals can be open; close one first.", code="too-many"
            )
        terminal_id = f"t{next(self._ids)}"
        argv, shell_name = shell or self.profiles.resolve("")
        info = UserTerminalInfo(
            terminal_id=terminal_id,
            title=title[:TITLE_CHARS],
            cwd=cwd,
            sharing=sharing,
            state=state,  # type: ignore[arg-type]
            pinned_session=pinned,
            opened_by_agent=by_agent,
            command=command,
            split_of=split[0] if split else None,
            split_direction=split[1] if split else "auto",
            shell=shell_name,
        )
        terminal = TerminalRecord(info, TerminalOutputLog(SharingMode(sharing)), next(self._recency), argv)
        self._terminals[terminal_id] = terminal
        self._emit(UserTerminalChangedEnvelope(info))
        return terminal

    def _start(self, terminal: TerminalRecord, columns: int, rows: int) -> None:
        columns, rows = clamp_size(columns, rows)
        env = dict(os.environ)
        env.update(TERM="xterm-256color", COLUMNS=str(columns), LINES=str(rows), CLAWQT_TERMINAL="1")
        try:
            pty = self._spawn(list(terminal.argv), terminal.info.cwd, env, (rows, columns))
        except (OSError, ImportError) as error:
            self._update(terminal, state="failed", error=f"The shell could not start: {error}")
            raise HostError(f"The shell could not start: {error}", code="terminal-failed") from error
        terminal.pty = pty
        self._update(terminal, state="running", columns=columns, rows=rows, error="")
        terminal_id = terminal.info.terminal_id
        pty.start(lambda data: self._on_data(terminal_id, data), lambda: self._on_eof(terminal_id))
        task = asyncio.get_running_loop().create_task(self._wait_exit(terminal_id, pty))
        task.add_done_callback(log_failure)
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
        terminal.wake()

    def refuse(self, terminal_id: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None and terminal.info.state == "pending":
            self._expire(terminal, "You refused this terminal; its command did not run.")

    def _expire(self, terminal: TerminalRecord, why: str) -> None:
        terminal.start_command = ""
        self._update(terminal, state="expired", error=why)
        terminal.wake()

    def close(self, terminal_id: str) -> None:
        terminal = self._terminals.pop(terminal_id, None)
        if terminal is None:
            return
        if terminal.pty is not None:
            terminal.pty.close()
        if terminal.wait_task is not None and not terminal.wait_task.done():
            self._closed_waits = {task for task in self._closed_waits if not task.done()}
            self._closed_waits.add(terminal.wait_task)  # it reaps the killed shell; shutdown awaits it
        terminal.wake()
        self._emit(UserTerminalRemovedEnvelope(terminal_id))

    def input(self, terminal_id: str, text: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            return
        terminal.recency = next(self._recency)
        terminal.write(text.encode("utf-8", "surrogatepass"))

    def answer(self, terminal_id: str, text: str) -> None:
        """The panel's emulator answering the program's own question (cursor position, device
        attributes): typed into the terminal like input, but not the user's doing (recency stays)."""
        terminal = self._terminals.get(terminal_id)
        if terminal is not None and text:
            terminal.write(text.encode("utf-8", "surrogatepass"))

    def resize(self, terminal_id: str, columns: int, rows: int) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            return
        columns, rows = clamp_size(columns, rows)
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
        terminal.wake()  # a long poll re-checks sharing now

    def pin(self, terminal_id: str, session_key: str | None) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None and session_key != terminal.info.pinned_session:
            self._update(terminal, pinned_session=session_key)
            terminal.wake()

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
    def _on_data(self, terminal_id: str, data: bytes) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            return
        terminal.log.append(data)
        text = terminal.decoder.decode(data)
        if text:
            terminal.keep_for_views(text)
            self._emit(UserTerminalOutputEnvelope(terminal_id, text))
        terminal.wake()

    def _on_eof(self, terminal_id: str) -> None:
        terminal = self._terminals.get(terminal_id)
        if terminal is not None:
            rest = terminal.decoder.decode(b"", final=True)
            if rest:
                terminal.keep_for_views(rest)
                self._emit(UserTerminalOutputEnvelope(terminal_id, rest))

    async def _wait_exit(self, terminal_id: str, pty: PtyHandle) -> None:
        code, signal = await pty.wait()
        terminal = self._terminals.get(terminal_id)
        if terminal is None or terminal.pty is not pty:
            return
        self._update(terminal, state="exited", exit_code=code, signal=signal)
        terminal.wake()

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
        if terminal is None or not terminal.write(data):
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
        if terminal is not None:
            await terminal.changed(timeout)
