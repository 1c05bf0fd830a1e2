"""A parsed diff side by side: the old lines on the left, the new on the right, one table row per
pair. Context lines stand on both sides; within a hunk a run of removed lines and the run of added
lines after it are paired row by row (the longer run's rest faces an empty cell), so a changed line
is read next to what it became, with the changed words marked as in the unified view. One rich-text
document, like the unified view (diff_html.py), whose colours, limits and word marks it shares.
Pure: colours come in as a palette."""

from __future__ import annotations

from app.renderer.present.diff_html import (
    COLLAPSED_LINES,
    MAX_LINES,
    DiffPalette,
    RenderedDiff,
    escaped,
    marked_words,
)
from app.renderer.present.diff_syntax import SYNTAX_MAX_LINES, language_of
from app.renderer.present.diff_view import DiffLine, FileDiff

Pair = tuple[DiffLine | None, DiffLine | None]


def pairs(lines: tuple[DiffLine, ...] | list[DiffLine]) -> list[Pair]:
    """The rows of the side-by-side view: (old side, new side); a hunk or note line fills both."""
    rows: list[Pair] = []
    removed: list[DiffLine] = []
    added: list[DiffLine] = []

    def flush() -> None:
        for index in range(max(len(removed), len(added))):
            old = removed[index] if index < len(removed) else None
            rows.append((old, added[index] if index < len(added) else None))
        removed.clear()
        added.clear()

    for line in lines:
        if line.kind == "removed":
            if added:  # a removal after additions starts a new run
                flush()
            removed.append(line)
        elif line.kind == "added":
            added.append(line)
        else:
            flush()
            rows.append((line, line))
    flush()
    return rows


def render_split(files: list[FileDiff], palette: DiffPalette, show_all: bool) -> RenderedDiff:
    """All files' rows side by side, collapsed to COLLAPSED_LINES rows unless `show_all` (never past
    MAX_LINES)."""
    limit = MAX_LINES if show_all else COLLAPSED_LINES
    total = shown = 0
    body: list[str] = []
    for file in files:
        rows = pairs(file.lines)
        total += len(rows)
        if len(files) > 1 and shown < limit:
            path = file.new_path if file.new_path != "/dev/null" else file.old_path
            body.append(f'<tr><td colspan="2"><b>{escaped(path)}</b></td></tr>')
        path = file.new_path if file.new_path != "/dev/null" else file.old_path
        language = language_of(path) if len(file.lines) <= SYNTAX_MAX_LINES else ""
        for old, new in rows[: max(0, limit - shown)]:
            body.append(_row(old, new, palette, language))
            shown += 1
    html = (
        f'<table width="100%" cellspacing="0" cellpadding="1" style="color:{palette.text}">'
        + "".join(body)
        + "</table>"
        if body
        else ""
    )
    return RenderedDiff(html, shown, total - shown, total)


def _row(old: DiffLine | None, new: DiffLine | None, palette: DiffPalette, language: str) -> str:
    if old is not None and old is new and old.kind in ("hunk", "note"):
        colour = palette.hunk_text if old.kind == "hunk" else palette.gutter
        background = f' bgcolor="{palette.hunk_background}"' if old.kind == "hunk" else ""
        text = f'<span style="color:{colour}">{escaped(old.text)}</span>'
        return f'<tr><td colspan="2"{background}>{text}</td></tr>'
    return "<tr>" + _cell(old, "old", palette, language) + _cell(new, "new", palette, language) + "</tr>"


def _cell(line: DiffLine | None, side: str, palette: DiffPalette, language: str) -> str:
    if line is None:
        return '<td width="50%"></td>'
    number = line.old_no if side == "old" else line.new_no
    background, word = {
        "added": (palette.added_background, palette.added_word),
        "removed": (palette.removed_background, palette.removed_word),
    }.get(line.kind, ("", ""))
    shade = f' bgcolor="{background}"' if background else ""
    gutter = f'<span style="color:{palette.gutter}">{number if number is not None else "":>4} </span>'
    text = marked_words(line, word, palette, language)
    return f'<td width="50%"{shade}><span style="white-space:pre">{gutter}{text}</span></td>'
