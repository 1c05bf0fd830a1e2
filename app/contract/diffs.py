"""The unified diff both sides exchange: the main side sends it for the files an agent wrote, the
renderer makes it for a tool call's diff content, and one parser and one view show both.

A diff is computed only for the region between the first and the last changed line (lines both texts
share at the start and the end are compared, not diffed), and only when that region is small enough to
diff, parse and show without freezing the window: at most `MAX_DIFF_LINES` lines (old and new together)
and `MAX_DIFF_CHARS` characters. A larger one is a summary (`too_large` reads it back): the file's
headers and one `# too large to show: -START,REMOVED +START,ADDED` line, so a rewritten 60,000-line file
costs one pass over its lines, not a line-by-line diff of both."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

CONTEXT_LINES = 3
NO_NEWLINE = "\\ No newline at end of file"
MAX_DIFF_LINES = 10_000  # changed lines (old + new) a diff is made for (the view shows 4,000 of them)
MAX_DIFF_CHARS = 1_000_000  # characters in those lines (a few very long lines are as costly)
TOO_LARGE_PREFIX = "# too large to show: "

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$")
_TOO_LARGE = re.compile(r"^# too large to show: -(\d+),(\d+) \+(\d+),(\d+)$")


@dataclass(frozen=True, slots=True)
class TooLarge:
    """A diff left out: the changed region (1-based first line, and its length on each side). The
    counts are exact for a rewrite and an upper bound when unchanged lines sit between changes."""

    path: str
    created: bool
    start: int
    removed: int
    added: int

    def sentence(self) -> str:
        first, last = self.start, self.start + max(self.removed, self.added) - 1
        return (
            f"Diff too large to show: {self.removed + self.added:,} lines changed "
            f"({self.removed:,} removed, {self.added:,} added, lines {first:,}\u2013{last:,})."
        )


def split_lines(text: str) -> list[str]:
    """Lines with their endings kept; only "\\n" ends a line (not \\u2028 and friends, which
    `str.splitlines` would split on and so shift every line number after them)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _diff_lines(text: str) -> list[str]:
    lines = split_lines(text)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += f"\n{NO_NEWLINE}\n"
    return lines


def shared_ends(old: list[str], new: list[str]) -> tuple[int, int]:
    """How many lines both share at the start, and then at the end (never overlapping)."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def unified_diff(old: str | None, new: str, path: str) -> str:
    """`old` -> `new` as a unified diff with context; `old` None is a created file (from /dev/null).
    Past the limits, the summary `too_large` reads."""
    old_lines, new_lines = _diff_lines(old or ""), _diff_lines(new)
    head, tail = shared_ends(old_lines, new_lines)
    removed, added = len(old_lines) - head - tail, len(new_lines) - head - tail
    fromfile = path if old is not None else "/dev/null"
    if removed == 0 and added == 0:
        return ""
    chars = sum(map(len, old_lines[head : head + removed])) + sum(map(len, new_lines[head : head + added]))
    if removed + added > MAX_DIFF_LINES or chars > MAX_DIFF_CHARS:
        return f"--- {fromfile}\n+++ {path}\n{TOO_LARGE_PREFIX}-{head + 1},{removed} +{head + 1},{added}\n"
    start = max(0, head - CONTEXT_LINES)
    keep_tail = max(0, tail - CONTEXT_LINES)
    rows = difflib.unified_diff(
        old_lines[start : len(old_lines) - keep_tail],
        new_lines[start : len(new_lines) - keep_tail],
        fromfile=fromfile,
        tofile=path,
        n=CONTEXT_LINES,
    )
    return "".join(_shifted(row, start) for row in rows)


def _shifted(row: str, offset: int) -> str:
    """A hunk header of the diffed region renumbered to the whole file's lines."""
    if not offset or not row.startswith("@@"):
        return row
    match = _HUNK_HEADER.match(row.rstrip("\n"))
    if match is None:
        return row
    old_no, old_len, new_no, new_len = match.groups()
    return f"@@ -{int(old_no) + offset}{old_len or ''} +{int(new_no) + offset}{new_len or ''} @@\n"


def too_large(diff: str) -> TooLarge | None:
    """The summary `unified_diff` gives past its limits, or None for a diff that can be shown."""
    rows = diff.split("\n", 3)
    if len(rows) < 3 or not rows[0].startswith("--- ") or not rows[1].startswith("+++ "):
        return None
    match = _TOO_LARGE.match(rows[2])
    if match is None:
        return None
    start, removed, _, added = (int(group) for group in match.groups())
    return TooLarge(rows[1][4:], rows[0][4:] == "/dev/null", start, removed, added)


__all__ = [
    "CONTEXT_LINES",
    "MAX_DIFF_CHARS",
    "MAX_DIFF_LINES",
    "NO_NEWLINE",
    "TooLarge",
    "split_lines",
    "too_large",
    "unified_diff",
]
