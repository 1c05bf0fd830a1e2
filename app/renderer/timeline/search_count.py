"""Counting a query's occurrences in a text of any length in bounded steps, for find in the chat: one
reply may hold 50 MB, and the GUI thread must draw between steps. The count equals the whole text's
(`text.lower().count(needle)`: case ignored, matches not overlapping, taken from the left) without
lowering or copying the whole text at once; no step touches more than a window of it. Pure."""

from __future__ import annotations

from collections.abc import Generator

WINDOW_CHARS = 1 << 18  # characters lowered and counted in one step (a millisecond or two)
SIGMA_CONTEXT = 64  # characters on each side a window is lowered with when the needle holds a sigma
_SIGMAS = ("\u03c3", "\u03c2")  # σ ς: what a capital sigma lowers to depends on its neighbours


def overlaps_itself(needle: str) -> bool:
    """Whether two occurrences of `needle` can overlap ("aa", "abab"): it has a proper border (a prefix
    that is also a suffix; KMP's prefix function, linear in its length)."""
    border = [0] * len(needle)
    length = 0
    for at in range(1, len(needle)):
        while length and needle[at] != needle[length]:
            length = border[length - 1]
        if needle[at] == needle[length]:
            length += 1
        border[at] = length
    return bool(needle) and border[-1] > 0


def lowered(text: str, start: int, end: int, context: int = 0) -> str:
    """`text[start:end]` in lower case as it is in `text.lower()`. `str.lower` maps each character
    alone except a capital sigma (final or not, by its neighbours): with `context`, the window is
    lowered with that many characters on each side and the middle kept."""
    if not context:
        return text[start:end].lower()
    before, after = max(0, start - context), min(len(text), end + context)
    wide = text[before:after].lower()
    head = len(text[before:start].lower())  # lowering may lengthen ("İ" is two characters lowered)
    tail = len(text[end:after].lower())
    return wide[head : len(wide) - tail]


def _end_of_last(buffer: str, needle: str, found: int) -> int:
    """Where the last of the `found` matches `buffer.count(needle)` took ends. It ends after the last
    occurrence's start and at most a needle's length after it: the least end whose prefix holds all
    `found`, by bisection (count from the left is monotone in the prefix's length)."""
    low = buffer.rfind(needle)  # the prefix ending here lacks the last match
    high = low + len(needle)  # this one holds it
    while high - low > 1:
        middle = (low + high) // 2
        if buffer.count(needle, 0, middle) == found:
            high = middle
        else:
            low = middle
    return high


def counting(text: str, needle: str, window: int = 0) -> Generator[None, None, int]:
    """Count `needle` (lower case, not empty) in `text` ignoring case, a window of `window` characters
    (default `WINDOW_CHARS`) per step: yields after each window but the last, returns the count.

    How the windows add up to the whole text's count: each window is lowered on its own (`lowered`:
    exact, with a sigma's neighbours when the needle holds a sigma) and searched after a carry, the
    lowered characters of the window before from which a match crossing the boundary could still
    begin: those after the last match counted, at most len(needle) - 1 of them. That is where
    `str.count`'s own scan over the whole text would go on, so no match is counted twice or missed.
    The last match's end is its occurrence's end, unless the needle can overlap itself (then
    `_end_of_last`: a few more counts of the window). The only difference from the whole text: a
    capital sigma at a window's edge with more than `SIGMA_CONTEXT` case-ignorable characters between
    it and the letter that decides its form, for a needle holding a sigma."""
    window = window or WINDOW_CHARS
    if len(text) <= window:  # one window: the whole text at once
        return text.lower().count(needle)
    context = SIGMA_CONTEXT if any(sigma in needle for sigma in _SIGMAS) else 0
    overlapping = overlaps_itself(needle)
    keep = len(needle) - 1
    total, carry, start = 0, "", 0
    while True:
        end = min(len(text), start + window)
        buffer = carry + lowered(text, start, end, context)
        found = buffer.count(needle)
        total += found
        if end >= len(text):
            return total
        resume = max(0, len(buffer) - keep)  # a match starting before this would lie inside the buffer
        if found and keep:
            last = _end_of_last(buffer, needle, found) if overlapping else buffer.rfind(needle) + len(needle)
            resume = max(resume, last)
        carry = buffer[resume:] if keep else ""
        start = end
        yield
