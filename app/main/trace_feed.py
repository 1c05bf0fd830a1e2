"""`clawqt replay`'s main side: a recorded trace (`--record`, JSON Lines) fed through the same session
state machine as the live app, message by message, with the trace's own times and JSON-RPC ids.

What comes out is what the live app's renderer would have received: envelopes, committed loads, and a
note for each message the machine ignored (attributed to the session shown at that moment). Lines that
are not JSON objects, or not `send`/`recv`/`stderr` entries, are ignored too; a trace that cannot be read
at all is a TraceError.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.contract.envelopes import Envelope, LoadResult
from app.main.session_machine import SessionMachine


class TraceError(ValueError):
    """The trace file cannot be read at all (a bad line is counted, not fatal)."""


@dataclass(frozen=True)
class TraceIgnored:
    """Messages the replay did not apply; `session_key` is the session shown then (None: none yet)."""

    session_key: str | None
    count: int = 1


FeedOutput = Envelope | LoadResult | TraceIgnored


def read_trace(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"cannot read the trace {path}: {exc}") from exc
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                yield {"dir": "garbage"}
                continue
            yield entry if isinstance(entry, dict) else {"dir": "garbage"}


def feed_trace(entries: Iterable[dict[str, Any]]) -> Iterator[FeedOutput]:
    machine = SessionMachine()
    for entry in entries:
        direction, msg = entry.get("dir"), entry.get("msg")
        shown = machine.active.key if machine.active is not None else None
        if direction == "stderr":
            continue
        if direction not in ("send", "recv") or not isinstance(msg, dict):
            yield TraceIgnored(shown)
            continue
        t = entry.get("t")
        now = float(t) if isinstance(t, int | float) else 0.0
        step = machine.on_send(msg, now) if direction == "send" else machine.on_recv(msg, now)
        yield from step.envelopes
        if step.committed is not None:
            yield step.committed
        for ignored in step.ignored:
            yield TraceIgnored(shown, ignored.count)
