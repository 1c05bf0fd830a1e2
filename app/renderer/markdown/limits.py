"""Bounds on what one reply hands the markdown parser and Qt's text layout, so a hostile or broken reply
(a megabyte without a space, a 100 MB inline image, a list nested thousands deep) cannot freeze the
window. Pure functions over strings: only C-speed string searches run over text that is not shown.

What is not shown stays in the timeline: Copy and "Show more" still reach all of it."""

from __future__ import annotations

import re

from app.contract.text_pieces import TextPieces

MESSAGE_CHARS = 1_000_000  # markdown source of one reply rendered before "Show more"
STEP_CHARS = 32_000  # new source one streaming update renders at most (more than a build reveals)
QUIET_CHARS = 16_000  # new source one other update renders at most (a reply read at once)
MORE_CHARS = 16_000  # what one "Show more" adds (rendered at once, on the click)
PIECE_CHARS = 8_000  # a long text is parsed and laid out in pieces of about this size
BLOCK_CHARS = 60_000  # a code block or table up to this long stays one piece
DATA_URL_CHARS = 4_096  # a longer inline `data:` URL is dropped before parsing
RUN_CHARS = 256  # a longer run without a break opportunity gets zero-width breaks (layout only; URLs
# and hashes are shorter, so selecting and copying them by hand stays exact)
TABLE_COLUMNS = 30  # columns of a table shown (the rest: a marker cell)
TABLE_CELLS = 1_500  # cells of a table shown: body rows beyond them are left out (a marker row)
OMITTED = "clawqt-omitted:"  # the URL an oversized data URL is replaced by (followed by its length)

_URL_END = re.compile(r"[\s)]")
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")
# a run of RUN_CHARS characters (an entity counts as one) followed by more of the same run
_RUN = re.compile(r"((?:&#?\w+;|[^\s&<\u200b]){" + str(RUN_CHARS) + r"})(?=[^\s<\u200b])")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_END = re.compile(r"\n(?![ \t]*\|)")  # a line break not followed by another table row
_FENCE_LINE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[ \t]*$", re.M)


def visible_source(text: str | TextPieces, limit: int = MESSAGE_CHARS) -> tuple[str, int]:
    """(the source to render: at most `limit` characters, oversized `data:` URLs replaced by
    `clawqt-omitted:LENGTH`; how many characters of `text` are left after it). Work is bounded by
    `limit` except one `find` per dropped URL for its end; a long text's pieces are read, not joined."""
    if len(text) <= limit and "data:" not in text:
        return str(text), 0  # all of it is shown: one string
    out: list[str] = []
    pos = shown = 0
    while shown < limit and pos < len(text):
        room = limit - shown
        found = text.find("data:", pos, pos + room)
        if found < 0:
            if len(text) - pos > room:  # cut after a space near the limit when there is one
                room = space_break(text[pos : pos + room], room - room // 10) or room
            out.append(text[pos : pos + room])
            shown += min(room, len(text) - pos)
            pos += room
            break
        out.append(text[pos:found])
        shown += found - pos
        end = _URL_END.search(text[found : found + DATA_URL_CHARS])
        if end is not None or found + DATA_URL_CHARS >= len(text):
            stop = found + end.start() if end is not None else len(text)  # a short URL (or not long yet)
            out.append(text[found:stop])
            shown += stop - found
            pos = stop
            continue
        ends = [i for i in (text.find(")", found), text.find("\n", found)) if i >= 0]
        stop = min(ends) if ends else len(text)
        marker = f"{OMITTED}{stop - found}"
        out.append(marker)
        shown += len(marker)
        pos = stop
    return "".join(out), max(0, len(text) - pos)


def size_label(chars: int) -> str:
    if chars >= 1_000_000:
        return f"{chars / 1_000_000:.1f} MB"
    if chars >= 1_000:
        return f"{chars / 1_000:.0f} KB"
    return f"{chars} bytes"


def break_runs(fragment: str) -> str:
    """Rich text with a zero-width space after every RUN_CHARS characters of an unbroken run in its
    text (never inside a tag or an entity): Qt then wraps such a run in linear time. Only the laid-out
    HTML gets them; Copy takes the reply's own text."""
    if len(fragment) <= RUN_CHARS:
        return fragment
    parts = _TAG_OR_TEXT.split(fragment)
    for i in range(0, len(parts), 2):  # text between tags
        if len(parts[i]) > RUN_CHARS:
            parts[i] = _RUN.sub("\\1\u200b", parts[i])
    return "".join(parts)


def piece_end(text: str, limit: int = PIECE_CHARS) -> int:
    """Where to end the first piece of `text` so it is at most about `limit` characters: after a blank
    line outside a code fence if one is in the second half, else before a fence that opens there, else
    after a line break (not inside a table, whose rows start with "|"), else after a space, else at
    `limit` (a run without any break). 0: do not cut (a code block or table still open and shorter than
    BLOCK_CHARS)."""
    if len(text) <= limit:
        return len(text)
    window = text[:limit]
    blank = line = any_line = fence_start = table_start = -1
    in_fence = False
    offset = 0
    for raw in window.splitlines(keepends=True):
        if not raw.endswith(("\n", "\r")):
            break
        if _FENCE.match(raw):
            if not in_fence:
                fence_start = offset
            in_fence = not in_fence
        offset += len(raw)
        any_line = offset
        if not in_fence:
            line = offset
            if not raw.strip():
                blank = offset
            if not raw.lstrip().startswith("|"):
                table_start = -1
            elif table_start < 0:
                table_start = offset - len(raw)
    half = limit // 2
    if blank >= half:
        return blank
    if in_fence and fence_start >= half:
        return fence_start
    if in_fence:  # a long code block: whole up to BLOCK_CHARS, else cut between its lines
        opener = text.find("\n", fence_start) + 1
        close = _FENCE_LINE.search(text, opener, fence_start + BLOCK_CHARS)
        if close is not None:
            return close.end() + (1 if text.startswith("\n", close.end()) else 0)
        if len(text) <= BLOCK_CHARS:
            return 0  # an open code block (still streaming): not cut
        if any_line >= half:
            return any_line
    if table_start >= 0 and text[line : line + 200].lstrip(" \t").startswith("|"):
        if table_start >= half:  # a table goes whole into the next piece
            return table_start
        end = _TABLE_END.search(text, line, table_start + BLOCK_CHARS)
        if end is not None:
            return end.end()
        if len(text) <= table_start + BLOCK_CHARS:
            return 0  # a table still arriving: not cut
    if line >= half:
        return line
    return space_break(window, half) or limit


def space_break(text: str, low: int) -> int:
    """The offset after the last space in `text` past `low` that is not inside a link's `[text]` or
    `(target)` (so a cut leaves no link half written), else after any space there; 0 if none."""
    space = text.rfind(" ", low)
    first = space
    for _ in range(32):
        if space < 0:
            break
        inside_text = text.rfind("[", low, space) > text.rfind("]", low, space)
        inside_target = text.rfind("(", low, space) > text.rfind(")", low, space)
        if not inside_text and not inside_target:
            return space + 1
        space = text.rfind(" ", low, space)
    return first + 1 if first >= 0 else 0
