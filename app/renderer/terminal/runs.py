"""A pyte screen line read as style runs: the one walk over a line's cells that both emulators use (a
card's screen, `emulator.py`, and a live shell's, `live_screen.py`), the palette their colours come
from, and a line's text rebuilt from its runs. Each emulator says how a run of one style closes (what
it keeps of blanks, which style it draws). Pure Python, no Qt."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

R = TypeVar("R", bound=tuple)
# how a run closes: (the runs so far, its first column, its text, the pyte style key of its cells)
Close = Callable[[list[R], int, str, tuple], None]

# the eight ANSI colours and their bright twins by pyte's names: for a dark screen, and for the light
# well of the light theme (each readable on its screen's background:
# tests/unit/terminal/test_palettes.py); a run keeps the name, the painter picks the theme's value
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
LIGHT_PALETTE = {
    "black": "#24292f",
    "red": "#cf222e",
    "green": "#116329",
    "brown": "#7d4e00",
    "yellow": "#7d4e00",
    "blue": "#0969da",
    "magenta": "#8250df",
    "cyan": "#1b7c83",
    "white": "#6e7781",
    "brightblack": "#57606a",
    "brightred": "#a40e26",
    "brightgreen": "#1a7f37",
    "brightyellow": "#633c01",
    "brightblue": "#0550ae",
    "brightmagenta": "#6639ba",
    "brightcyan": "#0e6b73",
    "brightwhite": "#424a53",
}
STYLE_FIELDS = operator.itemgetter(1, 2, 3, 7)  # pyte Char: fg, bg, bold, reverse


def color(name: str) -> str | None:
    """A pyte colour name as the view's colour: a palette entry's name (the painter takes its value from
    the theme's palette), a hex colour, or None (the default)."""
    if name == "default":
        return None
    if name in PALETTE:
        return name
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):
        return f"#{name}"
    return None


def merged_runs(line: dict[int, Any], close: Close[R]) -> list[R]:
    """A line's stored cells merged into runs of one style and column after column, each handed to
    `close`. Walks only the cells pyte stored (a sparse dict), once, with C-level field access."""
    runs: list[R] = []
    text: list[str] = []
    start = 0
    key: tuple | None = None
    following = -1
    for x, ch in sorted(line.items()):
        cell_key = STYLE_FIELDS(ch)
        if cell_key != key or x != following:
            if text and key is not None:
                close(runs, start, "".join(text), key)
            text, start, key = [], x, cell_key
        text.append(ch[0])
        following = x + 1
    if text and key is not None:
        close(runs, start, "".join(text), key)
    return runs


def runs_text(runs: Sequence[tuple]) -> str:
    """A line's text rebuilt from its runs (blanks between runs restored from the columns)."""
    out = ""
    for run in runs:
        out = out.ljust(run[0]) + run[1]
    return out.rstrip()
