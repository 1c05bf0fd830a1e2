"""A hit's snippet: the part of an indexed text around the first place its words occur, and where in
the snippet each word is (for the view to mark). Words are found as the index's tokenizer compares
them (folded: lower case, accents off) at the start of a word; the snippet keeps the original text."""

from __future__ import annotations

from app.contract.search import Snippet
from app.main.search.query import fold

CONTEXT = 60  # characters shown before the first match
WIDTH = 200  # characters of a snippet at most
SCAN_LIMIT = 200_000  # characters of a long text looked through for a match; past it, its start is shown


def _folded_with_positions(text: str) -> tuple[str, list[int]]:
    """`text` folded, and for each folded character the index of the original one it came from."""
    out: list[str] = []
    positions: list[int] = []
    for index, char in enumerate(text):
        folded = fold(char) if not char.isascii() else char.lower()
        out.append(folded)
        positions.extend([index] * len(folded))
    return "".join(out), positions


def _starts_word(folded: str, at: int) -> bool:
    return at == 0 or not folded[at - 1].isalnum()


def _ends_word(folded: str, end: int) -> bool:
    return end >= len(folded) or not folded[end].isalnum()


def _matches(folded: str, terms: tuple[str, ...], prefix: str) -> list[tuple[int, int, int]]:
    """(start, end, which term) of each match, in order, not overlapping."""
    found: list[tuple[int, int, int]] = []
    for which, term in enumerate(terms):
        start = folded.find(term)
        while start >= 0:
            end = start + len(term)
            if _starts_word(folded, start) and (term == prefix or _ends_word(folded, end)):
                while term == prefix and end < len(folded) and folded[end].isalnum():
                    end += 1  # the word the prefix begins is marked whole
                found.append((start, end, which))
            start = folded.find(term, end)
    found.sort()
    kept: list[tuple[int, int, int]] = []
    for match in found:
        if not kept or match[0] >= kept[-1][1]:
            kept.append(match)
    return kept


def _densest(found: list[tuple[int, int, int]]) -> int:
    """The first match from which the most different words are found within a snippet's width: the
    place the words are said together, not the first time one of them is."""
    best, best_count = 0, 0
    seen: dict[int, int] = {}
    last = 0
    for first, (start, _end, _which) in enumerate(found):
        while last < len(found) and found[last][0] < start + WIDTH - CONTEXT:
            seen[found[last][2]] = seen.get(found[last][2], 0) + 1
            last += 1
        if len(seen) > best_count:
            best, best_count = first, len(seen)
        which = found[first][2]
        seen[which] -= 1
        if not seen[which]:
            del seen[which]
    return best


def snippet(text: str, terms: tuple[str, ...], prefix: str = "") -> Snippet:
    """Around the first place most of the words are found together (the start of `text` when none is
    found in its first SCAN_LIMIT characters: a phrase split by punctuation the tokenizer ignores, or
    a match past the limit)."""
    head = text[:SCAN_LIMIT]
    folded, positions = _folded_with_positions(head)
    found = _matches(folded, terms, prefix) if terms else []
    first = positions[found[_densest(found)][0]] if found else 0
    begin = max(0, first - CONTEXT)
    if begin:
        space = head.find(" ", begin, first)
        begin = space + 1 if 0 <= space < first else begin
    end = min(len(head), begin + WIDTH)
    shown = " ".join(head[begin:end].split())  # one line: newlines and runs of spaces as one space
    lead = "…" if begin else ""
    tail = "…" if end < len(text) else ""
    shown_folded, shown_positions = _folded_with_positions(shown)
    marks = tuple(
        (len(lead) + shown_positions[start], len(lead) + shown_positions[stop - 1] + 1)
        for start, stop, _which in _matches(shown_folded, terms, prefix)
    )
    return Snippet(lead + shown + tail, marks)
