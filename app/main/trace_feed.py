"""`clawqt replay`'s main side: a recorded trace (`--record`, JSON Lines) fed through the same session
state machine as the live app, message by message, with the trace's own times and JSON-RPC ids.

What comes out is what the live app's renderer would have received: envelopes, committed loads, and a
note for each message the machine ignored (attributed to the session shown at that moment). Besides,
what the timeline does not hold (trace_requests.py): each failed start or session opening as it is
answered, then, at the end, what is still unanswered and the agent's fs/terminal requests with the
client's answers. Lines that are not JSON objects, or not `send`/`recv`/`stderr` entries, are ignored
too; a trace that cannot be read at all is a TraceError.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.contract.acp_fields import str_field
from app.contract.envelopes import Envelope, LoadResult
from app.main.json_rpc import jsonrpc_problem
from app.main.session_machine import SessionMachine
from app.main.trace_requests import AgentRequest, AgentRequests, Openers, TraceFailure

__all__ = ["AgentRequest", "TraceError", "TraceFailure", "TraceIgnored", "feed_trace", "read_trace"]


class TraceError(ValueError):
    """The trace file cannot be read at all (a bad line is counted, not fatal)."""


@dataclass(frozen=True)
class TraceIgnored:
    """Messages the replay did not apply; `session_key` is the session shown then (None: none yet)."""

    session_key: str | None
    count: int = 1


FeedOutput = Envelope | LoadResult | TraceIgnored | TraceFailure | AgentRequest


def read_trace(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = path.open(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise TraceError(f"cannot read the trace {path}: {exc}") from exc
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):  # also nesting too deep to parse
                yield {"dir": "garbage"}
                continue
            yield entry if isinstance(entry, dict) else {"dir": "garbage"}


class _Feed:
    """The machine plus the books the trace needs beside it."""

    def __init__(self) -> None:
        self.machine = SessionMachine()
        self.requests = AgentRequests()
        self.openers = Openers()

    def entry(self, entry: dict[str, Any]) -> Iterator[FeedOutput]:
        direction, msg = entry.get("dir"), entry.get("msg")
        shown = self.machine.active.key if self.machine.active is not None else None
        if direction == "stderr":
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
        yield from self._step(direction, msg, now, shown)

    def _step(
        self, direction: str, msg: dict[str, Any], now: float, shown: str | None
    ) -> Iterator[FeedOutput]:
        step = self.machine.on_send(msg, now) if direction == "send" else self.machine.on_recv(msg, now)
        yield from step.envelopes
        if step.committed is not None:
            yield step.committed
        for ignored in step.ignored:
            yield TraceIgnored(shown, ignored.count)
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
