"""One very long JSON line (an agent's 100 MB reply chunk, a trace's 200 MB line) parsed in steps that
each hold the interpreter lock only briefly, so the GUI thread keeps running while a worker thread parses.

Why not json.loads in a worker thread: the C parser never lets go of the lock, so the window stood still
for as long as the parse took, whichever thread ran it (a 100 MB string: 110-500 ms; 100 MB of
`\\uXXXX` escapes, as Python agents write any non-ASCII text, longer).

How: the only part of a line that can be that long and still cheap to describe is a string. A string of
at least HOIST_BYTES is found with bounded `find`s, replaced by a marker and decoded piece by piece
(about PIECE_BYTES each, cut between escapes, never inside a UTF-8 character or between the two halves
of a surrogate pair) by the json module's own string scanner; what is left of the line is small and
goes to json.loads; the markers are then replaced by the decoded strings. The result and the errors
(ValueError, RecursionError) are json.loads's for the same bytes (when they are UTF-8). A line whose
JSON outside such strings is over MAX_STRUCTURE_BYTES is refused (LineTooComplex): parsing it would
hold the lock that long."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

# the C string scanner json.loads uses (typeshed does not declare it)
scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

HOIST_BYTES = 64 * 1024  # a string at least this long is decoded in pieces, outside the parser
PIECE_BYTES = 1024 * 1024  # one step of finding or decoding
MAX_STRUCTURE_BYTES = 4 * 1024 * 1024  # JSON outside long strings parsed at once (~70 ms at most)

Data = bytes | bytearray
_QUOTE, _BACKSLASH = b'"', b"\\"
_HIGH_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}")
_LOW_SURROGATE = re.compile(rb"\\u[dD][c-fC-F]")
_ESCAPE_REACH = 12  # an escape is at most 6 bytes, a surrogate pair 12


class LineTooComplex(ValueError):
    """More JSON outside long strings than can be parsed in one short step."""


def loads_large(data: Data) -> Any:
    """`json.loads(data)` for a line of megabytes, in bounded steps (run it in a worker thread); UTF-8
    only (json.loads would also take UTF-16 and UTF-32, which no ACP agent writes)."""
    encoding = json.detect_encoding(bytes(data[:4]))
    if encoding != "utf-8":
        raise ValueError(f"a long line must be UTF-8 JSON, not {encoding}")
    regions = _long_strings(data)
    nonce = uuid.uuid4().hex
    while True:
        _check_structure(data, regions)
        skeleton, spans = _skeleton(data, regions, nonce)
        try:
            tree = json.loads(skeleton)
        except json.JSONDecodeError as exc:
            wrong = next((k for k, (start, end) in enumerate(spans) if start <= exc.pos < end), None)
            if wrong is None:
                raise
            del regions[wrong]  # not inside a string after all (a long run of numbers): parsed as JSON
            continue
        break
    if not regions:
        return tree
    values = [_decode(data, start, end) for start, end in regions]
    return _substitute(tree, re.compile(f"@{nonce}:(\\d+)@"), values)


def _check_structure(data: Data, regions: list[tuple[int, int]]) -> None:
    outside = len(data) - sum(end - start for start, end in regions)
    if outside > MAX_STRUCTURE_BYTES:
        raise LineTooComplex(
            f"holds {outside:,} bytes of JSON outside long strings (ClawQt parses at most "
            f"{MAX_STRUCTURE_BYTES:,} in one line)"
        )


def _find(data: Data, needle: bytes, start: int, end: int) -> int:
    """`data.find(needle, start, end)` one PIECE_BYTES window at a time."""
    while start < end:
        stop = min(start + PIECE_BYTES, end)
        found = data.find(needle, start, stop + len(needle) - 1 if stop < end else end)
        if found >= 0:
            return found
        start = stop
    return -1


def _run_start(data: Data, last: int, floor: int) -> int:
    """Where the run of backslashes ending at `last` begins (not before `floor`)."""
    end = last + 1
    while end > floor:
        window = data[max(floor, end - 4096) : end]
        kept = len(window.rstrip(_BACKSLASH))
        if kept:
            return end - len(window) + kept
        end -= len(window)
    return floor


def _long_strings(data: Data) -> list[tuple[int, int]]:
    """The byte ranges of quote-free runs of at least HOIST_BYTES / 2 between two quotes: the content of
    long strings (checked by the parse: one that is not inside a string is given back). A range ends
    before the backslashes in front of its closing quote, so an escaped quote stays with the rest."""
    block = HOIST_BYTES // 2  # a run of HOIST_BYTES holds a whole quote-free block
    regions: list[tuple[int, int]] = []
    position, size = 0, len(data)
    while position < size:
        if data.find(_QUOTE, position, position + block) >= 0:
            position += block
            continue
        opening = data.rfind(_QUOTE, 0, position)
        closing = _find(data, _QUOTE, position + block, size)
        if opening < 0 or closing < 0:
            break  # no string around it: the parser says what is wrong
        start = opening + 1
        end = _run_start(data, closing - 1, start) if data[closing - 1] == _BACKSLASH[0] else closing
        if end - start >= block:
            regions.append((start, end))
        position = closing + 1
    return regions


def _skeleton(data: Data, regions: list[tuple[int, int]], nonce: str) -> tuple[str, list[tuple[int, int]]]:
    """The line as text with each region replaced by a marker, and where each marker is in that text."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    length = previous = 0
    for index, (start, end) in enumerate(regions):
        parts.append(data[previous:start].decode("utf-8", "surrogatepass"))
        length += len(parts[-1])
        marker = f"@{nonce}:{index}@"
        parts.append(marker)
        spans.append((length, length + len(marker)))
        length += len(marker)
        previous = end
    parts.append(data[previous:].decode("utf-8", "surrogatepass"))
    return "".join(parts), spans


def _cut(data: Data, start: int, end: int) -> int:
    """Where the piece of string content beginning at `start` (a boundary between escapes) ends: about
    PIECE_BYTES on, between two escapes or characters, not between a surrogate pair's two escapes."""
    cut = start + PIECE_BYTES
    if cut >= end:
        return end
    while cut > start:
        if data[cut] == _BACKSLASH[0] and data[cut - 1] != _BACKSLASH[0]:
            run = cut  # a run of backslashes starts here: an escape does
        else:
            last = data.rfind(_BACKSLASH, max(start, cut - _ESCAPE_REACH), cut)
            if last < 0:  # no escape reaches the cut
                while cut > start and 0x80 <= data[cut] < 0xC0:  # not inside a UTF-8 character
                    cut -= 1
                return cut if cut > start else end
            run = _run_start(data, last, start)
            if run == start:  # backslashes from the piece's start: they pair up from there
                even = start + (last + 1 - start) // 2 * 2
                return even if even > start else end
        if not (_HIGH_SURROGATE.fullmatch(data, run - 6, run) and _LOW_SURROGATE.match(data, run)):
            return run
        cut = run - 6  # the pair's first escape starts a run that ends a low half or a character
    return end


def _decode(data: Data, start: int, end: int) -> str:
    """The string content data[start:end] (no quotes in it) decoded as the parser would, in pieces."""
    pieces = []
    while start < end:
        cut = _cut(data, start, end)
        text = data[start:cut].decode("utf-8", "surrogatepass")
        pieces.append(scanstring(text + '"', 0, True)[0])
        start = cut
    return "".join(pieces)


def _substitute(tree: Any, marker: re.Pattern[str], values: list[str]) -> Any:
    """`tree` with every marker in its strings (keys too) replaced by its decoded string."""

    def filled(text: str) -> str:
        if "@" not in text:
            return text
        parts = marker.split(text)
        if len(parts) == 1:
            return text
        if parts[0] == parts[2] == "" and len(parts) == 3:
            return values[int(parts[1])]  # the whole string: not copied again
        return "".join(values[int(part)] if index % 2 else part for index, part in enumerate(parts))

    if isinstance(tree, str):
        return filled(tree)
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if any("@" in key and marker.search(key) for key in node):
                pairs = [(filled(key), value) for key, value in node.items()]
                node.clear()
                node.update(pairs)
            for key, value in node.items():
                if isinstance(value, str):
                    node[key] = filled(value)
                elif isinstance(value, dict | list):
                    stack.append(value)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                if isinstance(value, str):
                    node[index] = filled(value)
                elif isinstance(value, dict | list):
                    stack.append(value)
    return tree


__all__ = ["HOIST_BYTES", "MAX_STRUCTURE_BYTES", "LineTooComplex", "loads_large"]
