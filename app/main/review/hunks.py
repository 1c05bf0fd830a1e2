"""A change to a text file as hunks the user can keep or undo one by one: the lines both versions share
at the start and the end are set aside, the rest compared line by line (difflib), each run of changed
lines one hunk. Undoing a hunk finds its lines in the file as it is now (where the turn left them, or
moved by later edits above, as long as the lines around it still say it is the same place) and puts the
old lines back; a hunk whose lines were edited since is not found and is refused, never guessed."""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass

from app.contract.diffs import MAX_DIFF_CHARS, MAX_DIFF_LINES, shared_ends, split_lines


@dataclass(frozen=True)
class Hunk:
    old_start: int  # 0-based index of its first line in the old text (where the new lines go back)
    old: tuple[str, ...]  # the lines the turn removed, endings kept
    new_start: int  # 0-based index of its first line in the new text
    new: tuple[str, ...]  # the lines the turn wrote

    @property
    def id(self) -> str:
        """Stable while the hunk is the same change at the same place (what Keep remembers)."""
        body = "\0".join((str(self.old_start), str(self.new_start), *self.old, "\1", *self.new))
        return hashlib.sha1(body.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def hunks(old_text: str, new_text: str) -> list[Hunk]:
    """The changes from `old_text` to `new_text`; a region too large to compare line by line is one
    hunk (undone whole)."""
    old, new = split_lines(old_text), split_lines(new_text)
    head, tail = shared_ends(old, new)
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    if not old_mid and not new_mid:
        return []
    size = len(old_mid) + len(new_mid)
    if size > MAX_DIFF_LINES or sum(map(len, old_mid)) + sum(map(len, new_mid)) > MAX_DIFF_CHARS:
        return [Hunk(head, tuple(old_mid), head, tuple(new_mid))]
    matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    return [
        Hunk(head + i1, tuple(old_mid[i1:i2]), head + j1, tuple(new_mid[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _fits(
    lines: list[str], at: int, hunk: Hunk, around: tuple[str | None, str | None], ends: tuple[bool, bool]
) -> bool:
    end = at + len(hunk.new)
    if end > len(lines) or tuple(lines[at:end]) != hunk.new:
        return False
    before, after = around
    at_start, at_end = ends
    if (at_start and at != 0) or (at_end and end != len(lines)):
        return False
    if before is not None and (at == 0 or lines[at - 1] != before):
        return False
    return after is None or (end < len(lines) and lines[end] == after)


def reverse(current_text: str, new_text: str, hunk: Hunk) -> str | None:
    """`current_text` with `hunk` undone: its new lines (found where `new_text` had them, next to the
    same neighbouring lines, the nearest such place) replaced by its old lines. None when no place
    fits, or two fit equally well."""
    new = split_lines(new_text)
    current = split_lines(current_text)
    end = hunk.new_start + len(hunk.new)
    around = (new[hunk.new_start - 1] if hunk.new_start > 0 else None, new[end] if end < len(new) else None)
    ends = (hunk.new_start == 0, end == len(new))
    places = [at for at in range(len(current) - len(hunk.new) + 1) if _fits(current, at, hunk, around, ends)]
    if not places:
        return None
    places.sort(key=lambda at: abs(at - hunk.new_start))
    if len(places) > 1 and abs(places[0] - hunk.new_start) == abs(places[1] - hunk.new_start):
        return None
    at = places[0]
    return "".join([*current[:at], *hunk.old, *current[at + len(hunk.new) :]])
