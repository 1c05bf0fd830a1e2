"""The screen a live shell draws on (`InteractiveTerminal`, live.py): a pyte Screen
whose lines leaving the top become the scrollback, kept as compact style runs; an alternate screen for
full-screen programs; a resize that keeps the cursor's line on screen; the answers to the program's
queries, capped. Pure Python, no Qt."""

from __future__ import annotations

import copy
from collections import deque
from typing import Any

import pyte
from pyte.screens import Margins

from app.renderer.terminal.runs import color, merged_runs

SCROLLBACK_LINES = 10_000
# colour names the view resolves to its own colours (reverse video of the default colours)
FOREGROUND = "foreground"
BACKGROUND = "background"
# private modes (pyte keeps them shifted left by 5)
_ALTERNATE_SCREENS = (47, 1047, 1049)

# (first column, text, colour or None, bold, background or None)
LiveRun = tuple[int, str, "str | None", bool, "str | None"]
Style = tuple["str | None", bool, "str | None"]  # (colour, bold, background)
_styles: dict[tuple, Style] = {}


def _style(key: tuple) -> Style:
    style = _styles.get(key)
    if style is None:
        fg, bg, bold, reverse = key
        colour, background = color(fg), color(bg)
        if reverse:
            colour, background = background or BACKGROUND, colour or FOREGROUND
        style = _styles[key] = (colour, bool(bold), background)
    return style


def live_runs(line: dict) -> tuple[LiveRun, ...]:
    """A line's stored cells as runs of one style. Blank cells without a background are not drawn
    (leading ones become a column offset, trailing ones are dropped); blanks on a background (a
    reversed status bar, a coloured prompt) are kept so the view fills them."""
    return tuple(merged_runs(line, _close))


def _close(runs: list[LiveRun], start: int, text: str, key: tuple) -> None:
    colour, bold, background = _style(key)
    if background is None:
        stripped = text.rstrip()
        shown = stripped.lstrip(" ")
        if shown:
            runs.append((start + len(stripped) - len(shown), shown, colour, bold, None))
    elif text:
        runs.append((start, text, colour, bold, background))


MAX_REPLIES = 64  # answers queued between two feeds (a flood of queries gets no more)


class LiveScreen(pyte.Screen):
    """A pyte Screen (not HistoryScreen: it wraps every attribute access and is several times slower)
    whose lines leaving the top go to `scrolled` as tuples of runs (plain tuples of strings, untracked
    by the garbage collector), with an alternate screen for full-screen programs (its lines never
    enter the scrollback) and a resize that keeps the cursor's line on screen."""

    def __init__(self, columns: int, lines: int, scrollback: int = SCROLLBACK_LINES) -> None:
        self.scrolled: deque[tuple[LiveRun, ...]] = deque(maxlen=scrollback)
        self.scrolled_total = 0
        self.main_screen: tuple[dict[int, Any], Any] | None = (
            None  # (buffer, cursor) while the alternate one shows
        )
        self.replies: list[str] = []  # answers to the program's queries (cursor position, attributes)
        super().__init__(columns, lines)

    def write_process_input(self, data: str) -> None:
        """pyte answers a query (DSR, DA) here: kept until the view sends it to the terminal."""
        if len(self.replies) < MAX_REPLIES:
            self.replies.append(data)

    @property
    def alternate(self) -> bool:
        return self.main_screen is not None

    def _scroll_off(self, y: int) -> None:
        if self.main_screen is None:
            self.scrolled.append(live_runs(self.buffer[y]))
            self.scrolled_total += 1

    def index(self) -> None:
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if self.cursor.y == bottom and top == 0:
            self._scroll_off(top)  # pyte drops this row when it scrolls
        super().index()

    def reset(self) -> None:
        self.main_screen = None  # a full reset (RIS) leaves the alternate screen
        super().reset()

    def erase_in_display(self, how: int = 0, *args: object, **kwargs: object) -> None:
        super().erase_in_display(how, *args, **kwargs)
        if how == 3 and self.main_screen is None:  # `clear`: the scrollback goes too (xterm's E3)
            self.scrolled.clear()

    def set_mode(self, *modes: int, **kwargs: object) -> None:
        if kwargs.get("private"):
            for mode in modes:
                if mode in _ALTERNATE_SCREENS and self.main_screen is None:
                    self._enter_alternate(save_cursor=mode == 1049)
        super().set_mode(*modes, **kwargs)

    def reset_mode(self, *modes: int, **kwargs: object) -> None:
        if kwargs.get("private"):
            for mode in modes:
                if mode in _ALTERNATE_SCREENS and self.main_screen is not None:
                    self._leave_alternate(restore_cursor=mode == 1049)
        super().reset_mode(*modes, **kwargs)

    def _enter_alternate(self, save_cursor: bool) -> None:
        cursor = copy.copy(self.cursor) if save_cursor else None
        self.main_screen = (dict(self.buffer), cursor)
        self.buffer.clear()
        self.dirty.update(range(self.lines))

    def _leave_alternate(self, restore_cursor: bool) -> None:
        saved, cursor = self.main_screen or ({}, None)
        self.main_screen = None
        self.buffer.clear()
        for y, line in saved.items():
            if y < self.lines:
                for x in [x for x in line if x >= self.columns]:
                    del line[x]
                self.buffer[y] = line
        if restore_cursor and cursor is not None:
            self.cursor = cursor
        self.ensure_hbounds()
        self.ensure_vbounds()
        self.dirty.update(range(self.lines))

    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        """pyte drops rows from the top when the screen gets shorter, losing them; here the rows above
        the cursor that no longer fit go to the scrollback (as a terminal does) and blank rows below
        the cursor go first. Wider screens get tab stops every eight columns."""
        lines = lines or self.lines
        columns = columns or self.columns
        if lines == self.lines and columns == self.columns:
            return
        if lines < self.lines:
            drop = max(0, min(self.cursor.y + 1 - lines, self.lines - lines))
            for y in range(drop):
                self._scroll_off(y)
            kept = {y - drop: line for y, line in self.buffer.items() if drop <= y < lines + drop}
            self.buffer.clear()
            self.buffer.update(kept)
            self.cursor.y = max(0, self.cursor.y - drop)
        if columns < self.columns:
            for line in self.buffer.values():
                for x in [x for x in line if x >= columns]:
                    del line[x]
        elif columns > self.columns:
            self.tabstops.update(range(8 * (self.columns // 8 + 1), columns, 8))
        self.lines, self.columns = lines, columns
        self.margins = None
        self.ensure_hbounds()
        self.ensure_vbounds()
        self.dirty.update(range(lines))
