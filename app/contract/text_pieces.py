"""A long text kept as the pieces it grew in, read without joining them: its length, a slice, a search.

A reply of a hundred megabytes that gains a few characters would be copied whole to stay one string,
and each copy holds the interpreter for tens of milliseconds. The views read such a reply only near
its start (what is rendered before "Show more"), its length and where an inline `data:` URL ends, and
this answers those at the cost of what is read, not of the whole. Pure; immutable once made."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence


class TextPieces:
    """Pieces of one text in order (none of them empty). Slices with no step, `find` and `in` behave
    as on the joined string; `str()` joins it (the one full copy)."""

    __slots__ = ("_length", "_pieces", "_starts")

    def __init__(self, pieces: Sequence[str]) -> None:
        self._pieces = tuple(p for p in pieces if p)
        starts = []
        offset = 0
        for piece in self._pieces:
            starts.append(offset)
            offset += len(piece)
        self._starts = starts
        self._length = offset

    def __len__(self) -> int:
        return self._length

    def __str__(self) -> str:
        return "".join(self._pieces)

    def __repr__(self) -> str:
        return f"TextPieces({len(self._pieces)} pieces, {self._length} characters)"

    def __getitem__(self, key: slice) -> str:
        if not isinstance(key, slice) or key.step not in (None, 1):
            raise TypeError("TextPieces takes slices without a step")
        start, stop, _ = key.indices(self._length)
        if start >= stop:
            return ""
        out = []
        index = bisect_right(self._starts, start) - 1
        while index < len(self._pieces) and self._starts[index] < stop:
            base = self._starts[index]
            piece = self._pieces[index]
            out.append(piece[max(0, start - base) : stop - base])
            index += 1
        return out[0] if len(out) == 1 else "".join(out)

    def find(self, sub: str, start: int = 0, end: int | None = None) -> int:
        """The lowest index of `sub` in [start, end), or -1 (as `str.find`, for a non-empty `sub`)."""
        start, end, _ = slice(start, end).indices(self._length)
        width = len(sub)
        if not width or end - start < width:
            return -1 if width else (start if start <= end else -1)
        index = bisect_right(self._starts, start) - 1
        while index < len(self._pieces) and self._starts[index] < end:
            base = self._starts[index]
            found = self._pieces[index].find(sub, max(0, start - base), end - base)
            if found >= 0:
                return base + found
            joint = base + len(self._pieces[index])  # a match across this piece's end starts before it
            if width > 1 and joint < end:
                low = max(start, joint - width + 1)
                window = self[low : min(end, joint + width - 1)]
                found = window.find(sub)
                if found >= 0:
                    return low + found
            index += 1
        return -1

    def __contains__(self, sub: object) -> bool:
        return isinstance(sub, str) and self.find(sub) >= 0


__all__ = ["TextPieces"]
