"""Open trace… in the protocol inspector: a trace file the user chose, replayed through the same feed as
`clawqt replay` (trace_feed.py: the session state machine, message by message), read whole off the GUI
thread. Nothing reaches any agent; the renderer builds a read-only chat from what comes out.

A file larger than MAX_TRACE_BYTES, one that cannot be read, and one that holds no JSON-RPC message at
all are refused in words (TraceUnreadable); bad lines inside a trace are counted, not fatal."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.contract.envelopes import Envelope, LoadResult
from app.contract.errors import TraceUnreadable
from app.contract.protocol_log import ReadTrace
from app.main import paths
from app.main.trace_feed import AgentRequest, TraceError, TraceFailure, TraceIgnored, feed_trace, read_trace
from app.main.trace_requests import failure_text

MAX_TRACE_BYTES = 256 * 2**20  # a recording of many long days; its replay is held in memory


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
    outputs: list[Envelope | LoadResult] = []
    failures: list[str] = []
    ignored = 0
    try:
        for output in feed_trace(read_trace(path)):
            if isinstance(output, TraceIgnored):
                ignored += output.count
            elif isinstance(output, TraceFailure):
                failures.append(failure_text(output.record()))
            elif not isinstance(output, AgentRequest):
                outputs.append(output)
    except TraceError as exc:
        raise TraceUnreadable(str(exc)) from exc
    if not outputs and not failures:
        raise TraceUnreadable(f"{shown} holds no ACP session: it is not a ClawQt trace, or it is empty")
    return ReadTrace(path.name, tuple(outputs), tuple(failures), ignored)
