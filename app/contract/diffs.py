"""The unified diff both sides exchange: the main side sends it for the files an agent wrote, the
renderer makes it for a tool call's diff content, and one parser and one view show both."""

from __future__ import annotations

import difflib

CONTEXT_LINES = 3
NO_NEWLINE = "\\ No newline at end of file"


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


def unified_diff(old: str | None, new: str, path: str) -> str:
    """`old` -> `new` as a unified diff with context; `old` None is a created file (from /dev/null)."""
    return "".join(
        difflib.unified_diff(
            _diff_lines(old or ""),
            _diff_lines(new),
            fromfile=path if old is not None else "/dev/null",
            tofile=path,
            n=CONTEXT_LINES,
        )
    )


__all__ = ["CONTEXT_LINES", "NO_NEWLINE", "split_lines", "unified_diff"]
