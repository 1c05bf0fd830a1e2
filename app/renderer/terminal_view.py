"""A terminal card's screen: a VT/ANSI emulator (pyte) that keeps its state across chunks (colours,
bold, carriage returns, cursor moves, clears), fed incrementally and in bounded slices so a 1 MB output
never stalls the GUI (pyte digests roughly 0.2-0.7 MB/s here: 8 KB is a few tens of ms). Rendered as
rich text of the last lines only (what a card can show); the plain text is kept for copy."""

from __future__ import annotations

import html

import pyte

from app.renderer.timeline.items import TerminalState

COLUMNS = 120
SCREEN_LINES = 40
HISTORY_LINES = 3000
SLICE_CHARS = 8192
SHOWN_LINES = 200

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


class TerminalEmulator:
    """One terminal's screen; `feed(state)` advances by at most one slice and says if more is left."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.screen = pyte.HistoryScreen(COLUMNS, SCREEN_LINES, history=HISTORY_LINES)
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

    def _lines(self) -> list[dict]:
        lines = list(self.screen.history.top) + [self.screen.buffer[y] for y in range(self.screen.lines)]
        while lines and not any(ch.data.strip() for ch in lines[-1].values()):
            lines.pop()
        return lines

    def text(self) -> str:
        return "\n".join("".join(line[x].data for x in range(COLUMNS)).rstrip() for line in self._lines())

    def rich_text(self) -> str:
        """The last SHOWN_LINES lines as HTML with colour runs (older lines: a count)."""
        lines = self._lines()
        hidden = max(0, len(lines) - SHOWN_LINES)
        out: list[str] = []
        if hidden:
            out.append(f'<span style="color:#7f848e">\u2026 {hidden} earlier lines (Copy takes all)</span>')
        for line in lines[hidden:]:
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
            out.append("".join(pieces))
        return "<pre>" + "\n".join(out) + "</pre>"


def _span(text: str, style: tuple[str | None, bool] | None) -> str:
    escaped = html.escape(text)
    if not escaped or style is None or (style[0] is None and not style[1]):
        return escaped
    css = (f"color:{style[0]};" if style[0] else "") + ("font-weight:bold;" if style[1] else "")
    return f'<span style="{css}">{escaped}</span>'
