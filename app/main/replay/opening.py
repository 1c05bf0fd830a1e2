"""Open trace… in the protocol inspector: a trace file the user chose, replayed through the same feed as
`clawqt replay` (feed.py: the session state machine, message by message), read whole off the GUI
thread. Nothing reaches any agent; the renderer builds a read-only chat from what comes out.

A file larger than MAX_TRACE_BYTES, one that cannot be read, and one that holds no JSON-RPC message at
all are refused in words (TraceUnreadable); bad lines inside a trace are counted, not fatal.

What is kept is bounded, whatever the trace holds: the outputs of the MAX_TRACE_SESSIONS sessions opened
last (the recording ended on one of them; the others are counted, `sessions_left_out`), the first
MAX_FAILURES failures in words (the rest counted). The window keeps running while a worker thread reads
the file: a line of megabytes is parsed in short steps (large_json), and one over MAX_LINE_BYTES is
skipped unread and said (`long_lines`): making a string of 200 MB is one step that holds the window."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.contract.envelopes import Envelope, LoadResult
from app.contract.errors import TraceUnreadable
from app.contract.protocol_log import ReadTrace
from app.main.core import paths
from app.main.core.large_json import loads_large
from app.main.replay.feed import (
    TOO_LONG,
    AgentRequest,
    TraceError,
    TraceFailure,
    TraceIgnored,
    feed_trace,
    read_trace,
)
from app.main.replay.requests import failure_text

MAX_TRACE_BYTES = 256 * 2**20  # a recording of many long days; its replay is held in memory
MAX_TRACE_SESSIONS = 1_000  # sessions shown (the last opened): building 100,000 took minutes
MAX_FAILURES = 100  # failures listed in words (the banner's tooltip)
MAX_LINE_BYTES = 64 * 2**20  # a longer line is skipped unread: making its text holds the window

Output = Envelope | LoadResult


class LastOpened:
    """The outputs of the sessions opened last (at most `limit`), in the order they came. Outputs for a
    session not opened yet (a long load's replay comes before its result) wait, for at most `limit`
    such sessions; those never opened are dropped (no timeline would take them)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._count = 0
        self._opened: OrderedDict[str, list[tuple[int, Output]]] = OrderedDict()
        self._waiting: OrderedDict[str, list[tuple[int, Output]]] = OrderedDict()
        self._dropped: set[str] = set()

    def add(self, output: Output) -> None:
        key = getattr(output, "session_key", None)
        if not isinstance(key, str):
            return  # about no session: no timeline takes it
        self._count += 1
        if isinstance(output, LoadResult):
            kept = self._opened.pop(key, None) or self._waiting.pop(key, [])
            self._opened[key] = kept
            if len(self._opened) > self._limit:
                dropped, _ = self._opened.popitem(last=False)
                self._dropped.add(dropped)
        elif key in self._opened:
            kept = self._opened[key]
        else:
            kept = self._waiting.setdefault(key, [])
            if len(self._waiting) > self._limit:
                self._waiting.popitem(last=False)
        kept.append((self._count, output))

    @property
    def outputs(self) -> tuple[Output, ...]:
        kept = sorted(entry for entries in self._opened.values() for entry in entries)
        return tuple(output for _, output in kept)

    @property
    def left_out(self) -> int:
        """Sessions opened in the trace and not kept."""
        return len(self._dropped.difference(self._opened))


async def open_trace(path: str) -> ReadTrace:
    return await asyncio.to_thread(read_trace_file, Path(path))


def read_trace_file(path: Path) -> ReadTrace:
    shown = paths.shown(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise TraceUnreadable(f"The trace {shown} cannot be read ({exc.strerror})", details=str(exc)) from exc
    if not path.is_file():
        raise TraceUnreadable(f"{shown} is not a file")
    if size > MAX_TRACE_BYTES:
        raise TraceUnreadable(
            f"The trace {shown} is {size / 2**20:,.0f} MB: ClawQt opens traces up to "
            f"{MAX_TRACE_BYTES // 2**20} MB (clawqt replay reads any size)"
        )
    sessions = LastOpened(MAX_TRACE_SESSIONS)
    failures: list[str] = []
    failed = ignored = 0
    too_long: list[int] = []

    def entries() -> Iterator[dict[str, Any]]:
        for entry in read_trace(path, loads_large, MAX_LINE_BYTES):
            if entry.get("dir") == TOO_LONG:
                too_long.append(entry["bytes"])  # said on its own, not counted as not applied too
            else:
                yield entry

    try:
        for output in feed_trace(entries()):
            if isinstance(output, TraceIgnored):
                ignored += output.count
            elif isinstance(output, TraceFailure):
                failed += 1
                if len(failures) < MAX_FAILURES:
                    failures.append(failure_text(output.record()))
            elif not isinstance(output, AgentRequest):
                sessions.add(output)
    except TraceError as exc:
        raise TraceUnreadable(str(exc)) from exc
    outputs = sessions.outputs
    if not outputs and not failures:
        raise TraceUnreadable(f"{shown} holds no ACP session: it is not a ClawQt trace, or it is empty")
    return ReadTrace(
        path.name,
        outputs,
        tuple(failures),
        ignored,
        sessions.left_out,
        failed - len(failures),
        _too_long_text(too_long),
    )


def _too_long_text(sizes: list[int]) -> str:
    """The lines skipped for their length, in words ("" when none)."""
    if not sizes:
        return ""
    lines = f"{len(sizes):,} line{'s' if len(sizes) > 1 else ''}"
    longest = max(sizes) / 2**20
    limit = MAX_LINE_BYTES // 2**20
    return f"{lines} over {limit} MB not read (the longest {longest:,.0f} MB; clawqt replay reads any)"
