"""A live shell's screen for the terminal panel: a pyte emulator the size of the view (columns x rows
follow it), the whole screen with its cursor, scrollback kept as compact style runs, and the plain text
of a selection for Copy. Pure Python, no Qt.

Why not the cards' `TerminalEmulator`: a card replays an agent's finished output (bare LF, fixed
width, blank rows below the last line trimmed). A shell on a PTY sends CRLF, redraws for the size it
was told, puts its cursor anywhere on the screen and switches to an alternate screen for full-screen
programs (less, vim), so the screen is shown as it is and resized with the view.

Output arrives as text chunks (`append`, cheap) and is emulated later in bounded slices (`feed_for`
with a time budget) so a megabyte never stalls the GUI; what waits is capped (`MAX_PENDING_CHARS`,
the oldest dropped and counted) so a program printing faster than the emulator digests cannot grow
memory without bound."""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

import pyte

from app.renderer.terminal.live_screen import (
    SCROLLBACK_LINES,
    LiveRun,
    LiveScreen,
    live_runs,
)
from app.renderer.terminal.runs import runs_text

SLICE_CHARS = 4096
MAX_PENDING_CHARS = 4 * 1024 * 1024  # output waiting to be emulated (a 1 MB burst fits whole)
# private modes (pyte keeps them shifted left by 5)
_APP_CURSOR_KEYS = 1 << 5
_BRACKETED_PASTE = 2004 << 5
_WORD_DELIMITERS = frozenset(" \t\"'`()[]{}<>|;,")


class Position(NamedTuple):
    """A place between two cells: `line` counts every line the terminal ever had (0 = its first, so a
    selection stays on its text while output scrolls), `column` is the boundary before that cell.
    A plain tuple, so the view can keep one without importing this module (and pyte)."""

    line: int
    column: int


class InteractiveTerminal:
    """One live terminal's screen. `append` queues output; `feed_for` emulates it in slices."""

    def __init__(self, columns: int = 80, rows: int = 24, scrollback: int = SCROLLBACK_LINES) -> None:
        self.screen = LiveScreen(max(1, columns), max(1, rows), scrollback)
        self.stream = pyte.Stream(self.screen)
        self._pending: deque[str] = deque()
        self._offset = 0  # characters of the first pending chunk already emulated
        self._pending_chars = 0
        self.skipped_chars = 0  # output dropped unemulated because it came faster than it could be shown
        self.version = 0  # bumped whenever the screen may have changed
        self._live: dict[int, tuple[LiveRun, ...]] = {}  # runs of screen rows not changed since

    # --- output -------------------------------------------------------------------------------------
    def append(self, text: str) -> None:
        """Queue output for the emulator (no emulation here: this runs for every PTY read)."""
        if not text:
            return
        self._pending.append(text)
        self._pending_chars += len(text)
        while self._pending_chars > MAX_PENDING_CHARS:
            head = self._pending[0]
            rest = len(head) - self._offset
            excess = self._pending_chars - MAX_PENDING_CHARS
            if len(self._pending) > 1 and rest <= excess:
                self._pending.popleft()
                self._offset = 0
                dropped = rest
            else:
                self._offset += excess
                dropped = excess
            self._pending_chars -= dropped
            self.skipped_chars += dropped

    @property
    def behind(self) -> bool:
        return self._pending_chars > 0

    def feed(self, limit: int = SLICE_CHARS) -> bool:
        """Emulate at most `limit` characters of the queued output; True if more is left."""
        parts: list[str] = []
        need = limit
        while need > 0 and self._pending:
            head = self._pending[0]
            take = head[self._offset : self._offset + need]
            parts.append(take)
            need -= len(take)
            self._offset += len(take)
            if self._offset >= len(head):
                self._pending.popleft()
                self._offset = 0
        if parts:
            chunk = "".join(parts)
            self._pending_chars -= len(chunk)
            self.stream.feed(chunk)
            self.version += 1
        return self._pending_chars > 0

    def take_replies(self) -> str:
        """What the program asked the terminal to answer since the last call (for the PTY)."""
        replies, self.screen.replies = self.screen.replies, []
        return "".join(replies)

    def feed_for(self, budget_s: float) -> bool:
        """Feed slices until caught up or `budget_s` is spent; True if output is left."""
        deadline = time.perf_counter() + budget_s
        while self.feed():
            if time.perf_counter() >= deadline:
                return True
        return False

    def feed_all(self) -> None:
        """Emulate everything queued (unbounded: tests and small outputs only)."""
        while self.feed():
            pass

    # --- size and modes -----------------------------------------------------------------------------
    @property
    def columns(self) -> int:
        return self.screen.columns

    @property
    def rows(self) -> int:
        return self.screen.lines

    def resize(self, columns: int, rows: int) -> bool:
        """The view's new size in cells; True if it changed."""
        columns, rows = max(1, columns), max(1, rows)
        if (columns, rows) == (self.screen.columns, self.screen.lines):
            return False
        self.screen.resize(rows, columns)
        self.version += 1
        return True

    @property
    def app_cursor_keys(self) -> bool:
        """The program asked for application cursor keys (arrows send ESC O x, not ESC [ x)."""
        return _APP_CURSOR_KEYS in self.screen.mode

    @property
    def bracketed_paste(self) -> bool:
        """The program wants pasted text marked (a pasted newline then does not run a command)."""
        return _BRACKETED_PASTE in self.screen.mode

    @property
    def alternate_screen(self) -> bool:
        return self.screen.alternate

    # --- lines for the view -------------------------------------------------------------------------
    @property
    def scrolled_total(self) -> int:
        """Lines that ever left the top of the screen (the view keeps its place in the scrollback)."""
        return self.screen.scrolled_total

    def line_base(self) -> int:
        """The absolute number (see `Position`) of line index 0, the oldest line kept."""
        return self.screen.scrolled_total - len(self.screen.scrolled)

    def line_count(self) -> int:
        return len(self.screen.scrolled) + self.screen.lines

    def _screen_runs(self, y: int) -> tuple[LiveRun, ...]:
        screen = self.screen
        if screen.dirty:
            for dirty in screen.dirty:
                self._live.pop(dirty, None)
            screen.dirty.clear()
        runs = self._live.get(y)
        if runs is None:
            line = screen.buffer.get(y)
            runs = self._live[y] = live_runs(line) if line else ()
        return runs

    def runs(self, first: int, count: int) -> list[Sequence[LiveRun]]:
        """Style runs of lines [first, first + count) (index 0 = the oldest line kept)."""
        scrolled = self.screen.scrolled
        kept = len(scrolled)
        out: list[Sequence[LiveRun]] = []
        for index in range(max(0, first), min(first + count, kept + self.screen.lines)):
            out.append(scrolled[index] if index < kept else self._screen_runs(index - kept))
        return out

    def line_text(self, index: int) -> str:
        """The plain text of line `index` (0 = the oldest kept), trailing blanks dropped."""
        scrolled = self.screen.scrolled
        if index < 0 or index >= len(scrolled) + self.screen.lines:
            return ""
        if index < len(scrolled):
            return runs_text(scrolled[index])
        line = self.screen.buffer.get(index - len(scrolled))
        if not line:
            return ""
        return "".join(line[x].data for x in range(self.screen.columns)).rstrip()

    def visible_text(self, first: int, count: int) -> str:
        return "\n".join(self.line_text(index) for index in range(max(0, first), first + count))

    def text(self) -> str:
        """Every kept line's text, oldest first, without the blank rows below the last one."""
        return self.visible_text(0, self.line_count()).rstrip("\n")

    def cursor(self) -> tuple[int, int, str] | None:
        """(line index, column, the character under it) or None while the program hides it."""
        screen = self.screen
        if screen.cursor.hidden:
            return None
        x, y = min(screen.cursor.x, screen.columns - 1), screen.cursor.y
        line = screen.buffer.get(y)
        char = line[x].data if line else " "
        return len(screen.scrolled) + y, x, char or " "

    # --- selection ----------------------------------------------------------------------------------
    def selected_text(self, anchor: tuple[int, int], head: tuple[int, int]) -> str:
        """The text between two positions (`Position`s, either order), one line per row, trailing
        blanks dropped; lines that already left the scrollback are skipped."""
        (start_line, start_column), (end_line, end_column) = sorted((anchor, head))
        if (start_line, start_column) == (end_line, end_column):
            return ""
        base = self.line_base()
        lines: list[str] = []
        for number in range(max(start_line, base), end_line + 1):
            text = self.line_text(number - base)
            first = start_column if number == start_line else 0
            last = end_column if number == end_line else len(text)
            lines.append(text[first:last].rstrip())
        return "\n".join(lines)

    def word_at(self, line: int, column: int) -> tuple[Position, Position]:
        """The word around a cell (a double click): the run of characters that are not blanks or
        brackets/quotes; the cell alone when it is one of those."""
        text = self.line_text(line - self.line_base())
        if column >= len(text) or _is_delimiter(text[column]):
            return Position(line, column), Position(line, column + 1)
        start = column
        while start > 0 and not _is_delimiter(text[start - 1]):
            start -= 1
        end = column
        while end < len(text) and not _is_delimiter(text[end]):
            end += 1
        return Position(line, start), Position(line, end)


def _is_delimiter(char: str) -> bool:
    return char in _WORD_DELIMITERS or unicodedata.category(char).startswith("Z")
