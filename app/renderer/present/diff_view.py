"""A unified diff read back into lines a view can show: hunk headers, context, added and removed lines
with their old and new line numbers, and, for a removed line replaced by a similar added one, the
words that changed. Pure (no Qt): the same lines serve tool cards and "files changed".

Lines are counted by the hunk header, never guessed from the first character, so a removed line that
reads "-- x" (shown as "--- x") is not mistaken for a file header."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Literal

from app.contract.diffs import NO_NEWLINE

LineKind = Literal["hunk", "context", "added", "removed", "note"]
Span = tuple[int, int]  # [start, end) character offsets in a line's text

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")
WORD_DIFF_MAX_CHARS = 400  # longer lines are marked whole: a token diff of them costs more than it shows
WORD_DIFF_MIN_SIMILARITY = 0.4  # below this the lines are unrelated and a word diff is noise


@dataclass(frozen=True, slots=True)
class DiffLine:
    kind: LineKind
    text: str  # without the +/-/space marker and the line ending
    old_no: int | None = None
    new_no: int | None = None
    changed: tuple[Span, ...] = ()  # the words that differ from the paired line (added/removed only)


@dataclass(frozen=True)
class FileDiff:
    old_path: str
    new_path: str
    lines: tuple[DiffLine, ...] = field(default=())

    @property
    def added(self) -> int:
        return sum(line.kind == "added" for line in self.lines)

    @property
    def removed(self) -> int:
        return sum(line.kind == "removed" for line in self.lines)

    @property
    def created(self) -> bool:
        return self.old_path == "/dev/null"


def parse_unified(text: str) -> list[FileDiff]:
    """Every file of a unified diff (git's `a/` `b/` prefixes are kept as written). Text that is not
    a diff gives no files; a hunk cut short ends where the text ends."""
    files: list[FileDiff] = []
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    index = 0
    old_path = new_path = ""
    lines: list[DiffLine] = []

    def finish() -> None:
        if lines or old_path or new_path:
            files.append(FileDiff(old_path, new_path, tuple(_with_word_changes(lines))))

    while index < len(rows):
        row = rows[index]
        if row.startswith("--- ") and index + 1 < len(rows) and rows[index + 1].startswith("+++ "):
            finish()
            old_path, new_path, lines = _path(row[4:]), _path(rows[index + 1][4:]), []
            index += 2
            continue
        match = _HUNK.match(row)
        if match is None:
            index += 1  # "diff --git", "index ...", or anything else between hunks
            continue
        old_no, new_no = int(match.group(1)), int(match.group(3))
        old_left = int(match.group(2)) if match.group(2) is not None else 1
        new_left = int(match.group(4)) if match.group(4) is not None else 1
        lines.append(DiffLine("hunk", row))
        index += 1
        while index < len(rows) and (old_left > 0 or new_left > 0 or rows[index].startswith("\\")):
            body = rows[index]
            marker, content = body[:1], body[1:]
            if marker == "+" and new_left > 0:
                lines.append(DiffLine("added", content, new_no=new_no))
                new_no, new_left = new_no + 1, new_left - 1
            elif marker == "-" and old_left > 0:
                lines.append(DiffLine("removed", content, old_no=old_no))
                old_no, old_left = old_no + 1, old_left - 1
            elif marker == "\\":
                lines.append(DiffLine("note", body if body != NO_NEWLINE else "No newline at end of file"))
            elif marker in (" ", "") and old_left > 0 and new_left > 0:
                lines.append(DiffLine("context", content, old_no=old_no, new_no=new_no))
                old_no, new_no, old_left, new_left = old_no + 1, new_no + 1, old_left - 1, new_left - 1
            else:
                break  # the hunk header promised fewer lines of this kind: the hunk is malformed here
            index += 1
    finish()
    return files


def _path(header: str) -> str:
    """A file header's path, without the timestamp a tab may separate from it."""
    return header.split("\t", 1)[0].strip()


def _with_word_changes(lines: list[DiffLine]) -> list[DiffLine]:
    """Pair each run of removed lines with the run of added lines right after it, line by line, and
    mark the words that changed in each pair that is alike enough."""
    result = list(lines)
    index = 0
    while index < len(result):
        if result[index].kind != "removed":
            index += 1
            continue
        removed_start = index
        while index < len(result) and result[index].kind == "removed":
            index += 1
        added_start = index
        while index < len(result) and result[index].kind == "added":
            index += 1
        for offset in range(min(added_start - removed_start, index - added_start)):
            old, new = result[removed_start + offset], result[added_start + offset]
            spans = word_changes(old.text, new.text)
            if spans is not None:
                result[removed_start + offset] = _replace(old, spans[0])
                result[added_start + offset] = _replace(new, spans[1])
    return result


def _replace(line: DiffLine, changed: tuple[Span, ...]) -> DiffLine:
    return DiffLine(line.kind, line.text, line.old_no, line.new_no, changed)


def word_changes(old: str, new: str) -> tuple[tuple[Span, ...], tuple[Span, ...]] | None:
    """The changed spans of `old` and of `new` by words, or None when the lines are too long or too
    different for a word diff to help."""
    if len(old) > WORD_DIFF_MAX_CHARS or len(new) > WORD_DIFF_MAX_CHARS:
        return None
    old_tokens, new_tokens = _TOKENS.findall(old), _TOKENS.findall(new)
    matcher = SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
    if matcher.ratio() < WORD_DIFF_MIN_SIMILARITY:
        return None
    old_starts, new_starts = _starts(old_tokens), _starts(new_tokens)
    old_spans: list[Span] = []
    new_spans: list[Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            old_spans.append((old_starts[i1], old_starts[i2]))
        if j2 > j1:
            new_spans.append((new_starts[j1], new_starts[j2]))
    return tuple(old_spans), tuple(new_spans)


def _starts(tokens: list[str]) -> list[int]:
    """Each token's start offset, plus the end of the last one."""
    starts = [0]
    for token in tokens:
        starts.append(starts[-1] + len(token))
    return starts


__all__ = ["DiffLine", "FileDiff", "LineKind", "parse_unified", "word_changes"]
