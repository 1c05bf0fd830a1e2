"""A terminal card's screen: a VT/ANSI emulator (pyte) that keeps its state across chunks (colours,
bold, carriage returns, cursor moves, clears), fed incrementally and in bounded slices so a 1 MB output
never stalls the GUI (pyte digests roughly 0.2-0.7 MB/s here: 4 KB is a few ms). The view asks for
the style runs of just the lines it shows (a painted item, no rich-text layout); every line's plain
text is kept for Copy."""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import pyte

from app.renderer.terminal.runs import color, merged_runs, runs_text
from app.renderer.timeline.items import TerminalState

COLUMNS = 120
SCREEN_LINES = 40
HISTORY_LINES = 60_000  # lines of scrollback (the store caps output at 2 M chars anyway)
SLICE_CHARS = 4096
_VERSIONS = itertools.count(1)  # unique across emulators: a rebuilt one never repeats a version

Run = tuple[int, str, "str | None", bool]  # (first column, text, colour or None, bold)
_styles: dict[tuple, tuple[str | None, bool]] = {}


class _CapturingScreen(pyte.Screen):
    """A plain pyte Screen (HistoryScreen wraps every attribute access and is several times slower)
    that keeps each line scrolling off the top as compact style runs: plain tuples of strings, which
    the garbage collector stops tracking (pyte's per-cell `Char`s stay tracked, and 200k of them made
    every full collection a 50-100 ms GUI stall)."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.scrolled: deque[tuple[Run, ...]] = deque(maxlen=HISTORY_LINES)
        self.scrolled_total = 0

    def index(self) -> None:
        top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        if self.cursor.y == bottom and top == 0:
            self.scrolled.append(tuple(line_runs(self.buffer[top])))  # pyte drops this row when it scrolls
            self.scrolled_total += 1
        super().index()


def _style(key: tuple) -> tuple[str | None, bool]:
    style = _styles.get(key)
    if style is None:
        fg, bg, bold, reverse = key
        style = _styles[key] = (color(bg if reverse else fg), bool(bold))
    return style


def line_runs(line: dict) -> list[Run]:
    """A line's written cells as runs of one style; blank runs and trailing blanks dropped."""
    return merged_runs(line, _close_run)


def _close_run(runs: list[Run], start: int, text: str, key: tuple) -> None:
    joined = text.rstrip()
    shown = joined.lstrip(" ")
    if shown:  # leading blanks become a column offset (nothing to draw)
        runs.append((start + len(joined) - len(shown), shown, *_style(key)))


class TerminalEmulator:
    """One terminal's screen; `feed(state)` advances by at most one slice and says if more is left."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.screen = _CapturingScreen(COLUMNS, SCREEN_LINES)
        self.screen.set_mode(pyte.modes.LNM)  # agents send bare LF
        self.stream = pyte.Stream(self.screen)
        self.fed = 0
        self.revision = -1
        self.version = next(_VERSIONS)

    def feed(self, state: TerminalState) -> bool:
        output = state.output
        if state.revision != self.revision or len(output) < self.fed:
            self._reset()
            self.revision = state.revision
        if self.fed < len(output):
            chunk = output[self.fed : self.fed + SLICE_CHARS]
            self.stream.feed(chunk)
            self.fed += len(chunk)
            self.version = next(_VERSIONS)
        return self.fed < len(output)

    def caught_up(self, state: TerminalState) -> bool:
        """Whether everything `state` holds is on the screen already (nothing left to emulate)."""
        return state.revision == self.revision and self.fed == len(state.output)

    def feed_all(self, state: TerminalState) -> None:
        """Emulate everything left (Copy, small fallbacks): unbounded, so never on a streaming path."""
        while self.feed(state):
            pass

    def feed_for(self, state: TerminalState, budget_s: float) -> bool:
        """Feed slices until caught up or `budget_s` is spent; True if output is left."""
        deadline = time.perf_counter() + budget_s
        while self.feed(state):
            if time.perf_counter() >= deadline:
                return True
        return False

    def _screen_lines(self) -> list[dict[int, Any]]:
        lines: list[dict[int, Any]] = [self.screen.buffer[y] for y in range(self.screen.lines)]
        while lines and not any(ch.data.strip() for ch in lines[-1].values()):
            lines.pop()
        return lines

    def line_count(self) -> int:
        return len(self.screen.scrolled) + len(self._screen_lines())

    def text(self) -> str:
        """Every kept line's plain text, oldest first (what Copy puts on the clipboard)."""
        return "\n".join(runs_text(line) for line in self.runs(0, self.line_count())).rstrip("\n")

    def runs(self, first: int, count: int) -> list[Sequence[Run]]:
        """Style runs of lines [first, first + count) (index 0 = the oldest line kept)."""
        scrolled = self.screen.scrolled
        live = self._screen_lines()
        out: list[Sequence[Run]] = []
        for index in range(max(0, first), min(first + count, len(scrolled) + len(live))):
            out.append(scrolled[index] if index < len(scrolled) else line_runs(live[index - len(scrolled)]))
        return out

    def visible_text(self, first: int, count: int) -> str:
        return "\n".join(runs_text(line) for line in self.runs(first, count))
