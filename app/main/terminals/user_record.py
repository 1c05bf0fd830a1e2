"""One user terminal as the service keeps it: its info, its process, the output kept for views built
later, and the waits of agent-side long polls. `UserTerminals` (user_terminals.py) decides who may
change what; this record only holds the state and does the small mechanical steps on it."""

from __future__ import annotations

import asyncio
import codecs
import logging
from collections import deque
from dataclasses import dataclass, field

from app.contract.user_terminals import UserTerminalInfo
from app.main.terminals.output_log import TerminalOutputLog
from app.main.terminals.pty import PtyHandle

# Output kept for a panel view built after it arrived (characters, newest kept).
VIEW_TAIL_CHARS = 512 * 1024
MIN_COLUMNS, MAX_COLUMNS = 2, 1000
MIN_ROWS, MAX_ROWS = 1, 500

log = logging.getLogger(__name__)


@dataclass
class TerminalRecord:
    info: UserTerminalInfo
    log: TerminalOutputLog
    recency: int
    argv: list[str]  # the shell it runs (its profile's, or the user's own)
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

    def write(self, data: bytes) -> bool:
        """Bytes to the running process; False when nothing runs to take them."""
        if self.pty is None or self.info.state != "running":
            return False
        try:
            self.pty.write(data)
        except OSError:
            return False
        return True

    def keep_for_views(self, text: str) -> None:
        self.tail.append(text)
        self.tail_chars += len(text)
        while self.tail_chars > VIEW_TAIL_CHARS and len(self.tail) > 1:
            self.tail_chars -= len(self.tail.popleft())

    def wake(self) -> None:
        """Every long poll waiting on this terminal looks again."""
        wakers, self.wakers = self.wakers, []
        for waker in wakers:
            if not waker.done():
                waker.set_result(None)

    async def changed(self, timeout: float) -> None:
        """Wait until `wake` or `timeout`."""
        if timeout <= 0:
            return
        waker: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.wakers.append(waker)
        try:
            await asyncio.wait_for(waker, timeout)
        except TimeoutError:
            pass
        finally:
            if waker in self.wakers:
                self.wakers.remove(waker)


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    return min(max(int(columns), MIN_COLUMNS), MAX_COLUMNS), min(max(int(rows), MIN_ROWS), MAX_ROWS)


def log_failure(task: asyncio.Task[None]) -> None:
    """A terminal's exit wait that failed is logged (its exception retrieved)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a user terminal's exit wait failed", exc_info=task.exception())
