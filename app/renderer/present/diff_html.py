"""A parsed diff as the rich text one read-only text view shows: one block per line, a gutter with the
old and new line numbers, +/- colours, the changed words highlighted. One document rather than one item
per line keeps selection and copy across lines, and a long diff costs one layout, not thousands of items.
Pure: colours come in as a palette."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from html import escape

from app.renderer.present.diff_syntax import SYNTAX_MAX_LINES, colour_runs, language_of
from app.renderer.present.diff_view import DiffLine, FileDiff

COLLAPSED_LINES = 60  # a longer diff shows this many lines and a "Show all" until asked
MAX_LINES = 4000  # even "all" stops here: the rest is in the copied diff, not worth a frozen window
TAB = "    "


@dataclass(frozen=True)
class DiffPalette:
    dark: bool  # which code colours the lines take (diff_syntax.py)
    text: str
    gutter: str
    added_background: str
    added_word: str
    removed_background: str
    removed_word: str
    hunk_background: str
    hunk_text: str
    added_marker: str  # the "+" and a file's added count
    removed_marker: str


LIGHT = DiffPalette(
    dark=False,
    text="#1f2328",
    gutter="#6e7781",
    added_background="#e6ffec",
    added_word="#abf2bc",
    removed_background="#ffebe9",
    removed_word="#ffc1bd",
    hunk_background="#ddf4ff",
    hunk_text="#57606a",
    added_marker="#1a7f37",
    removed_marker="#cf222e",
)
DARK = DiffPalette(
    dark=True,
    text="#e6edf3",
    gutter="#7d8590",
    added_background="#16301f",
    added_word="#1f6f3a",
    removed_background="#3a1d20",
    removed_word="#8e2a2f",
    hunk_background="#1b2a3c",
    hunk_text="#9da7b3",
    added_marker="#3fb950",
    removed_marker="#f85149",
)

_MARKERS = {"added": "+", "removed": "\u2212", "context": " "}


@dataclass(frozen=True)
class RenderedDiff:
    html: str
    shown: int  # lines shown
    hidden: int  # lines left out (collapsed, or past MAX_LINES)
    total: int


def render_diffs(files: list[FileDiff], palette: DiffPalette, show_all: bool) -> RenderedDiff:
    """All files' lines, collapsed to COLLAPSED_LINES unless `show_all` (and never past MAX_LINES); with
    several files each starts with its path and counts."""
    lines = [line for file in files for line in file.lines]
    limit = MAX_LINES if show_all else COLLAPSED_LINES
    shown = lines[:limit]
    width = max(
        (len(str(n)) for line in shown for n in (line.old_no, line.new_no) if n is not None), default=1
    )
    blocks, left = [], limit
    for file in files:
        if left <= 0:
            break
        if len(files) > 1:
            blocks.append(_file_header(file, palette))
        path = file.new_path if file.new_path != "/dev/null" else file.old_path
        language = language_of(path) if len(file.lines) <= SYNTAX_MAX_LINES else ""
        blocks.extend(_block(line, palette, width, language) for line in file.lines[:left])
        left -= len(file.lines)
    html = (
        f'<div style="color:{palette.text}; white-space:pre">' + "".join(blocks) + "</div>" if blocks else ""
    )
    return RenderedDiff(html, len(shown), len(lines) - len(shown), len(lines))


def _file_header(file: FileDiff, palette: DiffPalette) -> str:
    path = file.new_path if file.new_path != "/dev/null" else file.old_path
    counts = (
        f'  <span style="color:{palette.added_marker}">+{file.added}</span>'
        f' <span style="color:{palette.removed_marker}">\u2212{file.removed}</span>'
    )
    return f'<p style="margin-top:6px; margin-bottom:2px; white-space:pre"><b>{escaped(path)}</b>{counts}</p>'


def _block(line: DiffLine, palette: DiffPalette, width: int, language: str = "") -> str:
    if line.kind == "hunk":
        return _paragraph(
            palette.hunk_background, f'<span style="color:{palette.hunk_text}">{escaped(line.text)}</span>'
        )
    if line.kind == "note":
        return _paragraph(
            "", f'<span style="color:{palette.gutter}">{" " * (2 * width + 4)}{escaped(line.text)}</span>'
        )
    old = str(line.old_no) if line.old_no is not None else ""
    new = str(line.new_no) if line.new_no is not None else ""
    gutter = f'<span style="color:{palette.gutter}">{old:>{width}} {new:>{width}} </span>'
    background, word = {
        "added": (palette.added_background, palette.added_word),
        "removed": (palette.removed_background, palette.removed_word),
    }.get(line.kind, ("", ""))
    marker_colour = {"added": palette.added_marker, "removed": palette.removed_marker}.get(line.kind)
    marker = _MARKERS[line.kind]
    if marker_colour:
        marker = f'<span style="color:{marker_colour}">{marker}</span>'
    return _paragraph(background, gutter + marker + " " + marked_words(line, word, palette, language))


def _paragraph(background: str, body: str) -> str:
    style = "margin-top:0; margin-bottom:0; white-space:pre"
    if background:
        style += f"; background-color:{background}"
    return f'<p style="{style}">{body or " "}</p>'


def marked_words(line: DiffLine, colour: str, palette: DiffPalette = LIGHT, language: str = "") -> str:
    """The line's text in its syntax colours (those that are not the text's own), with its changed
    spans highlighted."""
    runs = [run for run in colour_runs(line.text, language, palette.dark) if run[2].lower() != palette.text]
    if not line.changed and not runs:
        return escaped(line.text)
    spans = [*line.changed]
    cuts = sorted(
        {0, len(line.text), *(c for span in spans for c in span), *(c for r in runs for c in r[:2])}
    )
    pieces, run, span = [], 0, 0
    for start, end in itertools.pairwise(cuts):  # runs and spans are in order: one pass over each
        while run < len(runs) and runs[run][1] <= start:
            run += 1
        while span < len(spans) and spans[span][1] <= start:
            span += 1
        fore = runs[run][2] if run < len(runs) and runs[run][0] <= start else ""
        back = colour if span < len(spans) and spans[span][0] <= start else ""
        style = "; ".join(
            part
            for part in (f"color:{fore}" if fore else "", f"background-color:{back}" if back else "")
            if part
        )
        piece = escaped(line.text[start:end])
        pieces.append(f'<span style="{style}">{piece}</span>' if style else piece)
    return "".join(pieces)


def escaped(value: str) -> str:
    return escape(value.replace("\t", TAB).replace("\r", ""), quote=False)


__all__ = [
    "COLLAPSED_LINES",
    "DARK",
    "LIGHT",
    "MAX_LINES",
    "DiffPalette",
    "RenderedDiff",
    "escaped",
    "marked_words",
    "render_diffs",
]
