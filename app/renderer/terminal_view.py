"""A terminal card's screen: a VT/ANSI emulator (pyte) that keeps its state across chunks (colours,
bold, carriage returns, cursor moves, clears), fed incrementally and in bounded slices so a 1 MB output
never stalls the GUI (pyte digests roughly 0.2-0.7 MB/s here: 8 KB is a few tens of ms). Rendered as
rich text of the last lines only (what a card can show); the plain text is kept for copy."""

from __future__ import annotations

import html
import itertools
import time
from collections import deque

import pyte

from app.renderer.timeline.items import TerminalState

COLUMNS = 120
SCREEN_LINES = 40
HISTORY_LINES = 3000
SLICE_CHARS = 4096
SHOWN_LINES = 200
STREAMING_LINES = SCREEN_LINES  # while output is still being emulated, show just the screen (cheap layout)

PALETTE = {
    "black": "#3b3f45",
    "red": "#ff6b6b",
    "green": "#4ec97a",
    "brown": "#e5c07b",
    "yellow": "#e5c07b",
    "blue": "#61afef",
    "magenta": "#c678dd",
    "cyan": "#56b6c2",
    "white": "#dcdfe4",
    "brightblack": "#7f848e",
    "brightred": "#ff8787",
    "brightgreen": "#7ee2a0",
    "brightyellow": "#f0d58c",
    "brightblue": "#8ac6f5",
    "brightmagenta": "#d99cf0",
    "brightcyan": "#7fd3dd",
    "brightwhite": "#ffffff",
}


def _color(name: str) -> str | None:
    if name == "default":
        return None
    if name in PALETTE:
        return PALETTE[name]
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):
        return f"#{name}"
    return None


class _CapturingScreen(pyte.Screen):
    """A plain pyte Screen (HistoryScreen wraps every attribute access and is several times slower)
    that keeps the lines scrolling off the top in a bounded history; they are rendered only when shown."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.scrolled: deque[dict] = deque(maxlen=HISTORY_LINES)
        self.scrolled_total = 0

    def index(self) -> None:
        top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        if self.cursor.y == bottom and top == 0:
            self.scrolled.append(self.buffer[top])  # pyte drops this row object when it scrolls
            self.scrolled_total += 1
        super().index()


def line_text(line: dict) -> str:
    return "".join(line[x].data for x in range(COLUMNS)).rstrip()


def line_html(line: dict) -> str:
    pieces: list[str] = []
    run: list[str] = []
    style: tuple[str | None, bool] | None = None
    for x in range(COLUMNS):
        ch = line[x]
        key = (_color(ch.bg if ch.reverse else ch.fg), ch.bold)
        if key != style and run:
            pieces.append(_span("".join(run), style))
            run = []
        style = key
        run.append(ch.data)
    if run:
        pieces.append(_span("".join(run).rstrip(), style))
    return "".join(pieces)


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
        self.version = 0

    def feed(self, state: TerminalState) -> bool:
        output = state.output
        if state.revision != self.revision or len(output) < self.fed:
            self._reset()
            self.revision = state.revision
        if self.fed < len(output):
            chunk = output[self.fed : self.fed + SLICE_CHARS]
            self.stream.feed(chunk)
            self.fed += len(chunk)
            self.version += 1
        return self.fed < len(output)

    def feed_for(self, state: TerminalState, budget_s: float) -> bool:
        """Feed slices until caught up or `budget_s` is spent; True if output is left."""
        deadline = time.perf_counter() + budget_s
        while self.feed(state):
            if time.perf_counter() >= deadline:
                return True
        return False

    def _screen_lines(self) -> list[dict]:
        lines = [self.screen.buffer[y] for y in range(self.screen.lines)]
        while lines and not any(ch.data.strip() for ch in lines[-1].values()):
            lines.pop()
        return lines

    def text(self) -> str:
        lines = [*self.screen.scrolled, *self._screen_lines()]
        return "\n".join(line_text(line) for line in lines).rstrip("\n")

    def rich_text(self, shown: int = SHOWN_LINES) -> str:
        """The last `shown` lines as HTML with colour runs (older lines: a count)."""
        screen_lines = [line_html(line) for line in self._screen_lines()]
        room = max(0, shown - len(screen_lines))
        scrolled = self.screen.scrolled
        recent = list(itertools.islice(scrolled, max(0, len(scrolled) - room), None)) if room else []
        shown_history = [line_html(line) for line in recent]
        hidden = self.screen.scrolled_total - len(shown_history)
        out: list[str] = []
        if hidden:
            out.append(f'<span style="color:#7f848e">\u2026 {hidden} earlier lines (Copy takes all)</span>')
        out.extend(shown_history)
        out.extend(screen_lines)
        return "<pre>" + "\n".join(out) + "</pre>"


def _span(text: str, style: tuple[str | None, bool] | None) -> str:
    escaped = html.escape(text)
    if not escaped or style is None or (style[0] is None and not style[1]):
        return escaped
    css = (f"color:{style[0]};" if style[0] else "") + ("font-weight:bold;" if style[1] else "")
    return f'<span style="{css}">{escaped}</span>'
