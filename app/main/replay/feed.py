"""`clawqt replay`'s main side: a recorded trace (`--record`, JSON Lines) fed through the same session
state machine as the live app, message by message, with the trace's own times and JSON-RPC ids.

What comes out is what the live app's renderer would have received: envelopes, committed loads, and a
note for each message the machine ignored (attributed to the session shown at that moment). Besides,
what the timeline does not hold (requests.py): each failed start or session opening as it is
answered, then, at the end, what is still unanswered and the agent's fs/terminal requests with the
client's answers. Lines that are not JSON objects, or not `send`/`recv`/`stderr` entries, are ignored
too; a trace that cannot be read at all is a TraceError.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from app.contract.acp import RpcMessage
from app.contract.acp_fields import str_field
from app.contract.envelopes import Envelope, LoadResult
from app.main.acp.json_rpc import jsonrpc_problem
from app.main.replay.requests import AgentRequest, AgentRequests, Openers, TraceFailure
from app.main.sessions.machine import SessionMachine

__all__ = [
    "TOO_LONG",
    "AgentRequest",
    "TraceError",
    "TraceFailure",
    "TraceIgnored",
    "feed_trace",
    "read_trace",
]


READ_BYTES = 1024 * 1024
LONG_LINE_BYTES = 1024 * 1024  # a line this long is parsed by `read_trace`'s `loads_long`
TOO_LONG = "too-long"  # the direction of an entry standing for a line longer than asked for


class TraceError(ValueError):
    """The trace file cannot be read at all (a bad line is counted, not fatal)."""


@dataclass(frozen=True)
class TraceIgnored:
    """Messages the replay did not apply; `session_key` is the session shown then (None: none yet)."""

    session_key: str | None
    count: int = 1


FeedOutput = Envelope | LoadResult | TraceIgnored | TraceFailure | AgentRequest


Loads = Callable[[bytes | bytearray], Any]


def _loads_replaced(line: bytes | bytearray) -> Any:
    return json.loads(line.decode("utf-8", "replace"))


def read_trace(
    path: Path, loads_long: Loads = _loads_replaced, max_line: int | None = None
) -> Iterator[dict[str, Any]]:
    """The trace's entries; a line that is not a JSON object is `{"dir": "garbage"}`, one longer than
    `max_line` bytes `{"dir": TOO_LONG, "bytes": its length}` (skipped unread). Lines are read in
    chunks (a line of 200 MB is never read or copied whole in one step); one of LONG_LINE_BYTES or more
    is parsed by `loads_long` (Open trace… passes large_json's, which keeps the window running)."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise TraceError(f"cannot read the trace {path}: {exc}") from exc
    with handle:
        for line in _lines(handle, max_line):
            if isinstance(line, int):
                yield {"dir": TOO_LONG, "bytes": line}
                continue
            try:
                entry = _entry(line, loads_long)
            except (ValueError, RecursionError):  # also nesting too deep to parse
                yield {"dir": "garbage"}
                continue
            if entry is not None:
                yield entry if isinstance(entry, dict) else {"dir": "garbage"}


def _entry(line: bytes | bytearray, loads_long: Loads) -> Any:
    """What the line holds; None for a blank line (invalid UTF-8 replaced, in a long line as
    `loads_long` decides)."""
    if len(line) >= LONG_LINE_BYTES:
        return loads_long(line)
    text = line.decode("utf-8", "replace").strip()
    return json.loads(text) if text else None


def _lines(handle: BinaryIO, max_line: int | None) -> Iterator[bytes | bytearray | int]:
    """The file's lines without their ends; a long one grows in place (never joined whole); one longer
    than `max_line` is only measured (its length instead of its bytes)."""
    pending = bytearray()
    skipped = -1  # the length so far of a line too long to keep (-1: none)
    while chunk := handle.read(READ_BYTES):
        start = 0
        while (newline := chunk.find(b"\n", start)) >= 0:
            if skipped >= 0:
                yield skipped + newline - start
                skipped = -1
            elif pending:
                pending += memoryview(chunk)[start:newline]
                yield pending if max_line is None or len(pending) <= max_line else len(pending)
                pending = bytearray()
            else:
                short = max_line is None or newline - start <= max_line
                yield chunk[start:newline] if short else newline - start
            start = newline + 1
        if skipped >= 0:
            skipped += len(chunk) - start
        else:
            pending += memoryview(chunk)[start:]
            if max_line is not None and len(pending) > max_line:
                skipped, pending = len(pending), bytearray()
    if skipped >= 0:
        yield skipped
    elif pending:
        yield pending


class _Feed:
    """The machine plus the books the trace needs beside it."""

    def __init__(self) -> None:
        self.machine = SessionMachine()
        self.requests = AgentRequests()
        self.openers = Openers()

    def entry(self, entry: dict[str, Any]) -> Iterator[FeedOutput]:
        direction, msg = entry.get("dir"), entry.get("msg")
        shown = self.machine.active.key if self.machine.active is not None else None
        if direction in ("stderr", "note"):  # the agent's own words; a bug report's note of what it lacks
            return
        if direction not in ("send", "recv") or not isinstance(msg, dict) or jsonrpc_problem(msg):
            yield TraceIgnored(shown)  # what the live reader would have dropped too
            return
        t = entry.get("t")
        now = float(t) if isinstance(t, int | float) else 0.0
        if direction == "recv" and self.requests.is_served(msg):
            context = self.machine.context_of(str_field(msg.get("params"), "sessionId") or "")
            if self.requests.ask(msg, context, now).session_key is None:
                yield TraceIgnored(shown)  # its answer is not counted again
            return
        if direction == "send":
            if self.requests.answer(msg):
                return
            self.openers.sent(msg, now)
        yield from self._step(direction, cast(RpcMessage, msg), now, shown)  # shaped as one: checked above

    def _step(self, direction: str, msg: RpcMessage, now: float, shown: str | None) -> Iterator[FeedOutput]:
        step = self.machine.on_send(msg, now) if direction == "send" else self.machine.on_recv(msg, now)
        yield from step.envelopes
        if step.committed is not None:
            yield step.committed
        for ignored in step.ignored:
            yield TraceIgnored(shown, ignored.times)
        if direction == "recv" and (failure := self.openers.answered(msg, step, now)) is not None:
            yield failure

    def end(self) -> Iterator[FeedOutput]:
        yield from self.openers.unanswered()
        yield from (request for request in self.requests.asked if request.session_key is not None)


def feed_trace(entries: Iterable[dict[str, Any]]) -> Iterator[FeedOutput]:
    feed = _Feed()
    for entry in entries:
        yield from feed.entry(entry)
    yield from feed.end()
