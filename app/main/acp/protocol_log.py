"""The protocol inspector's log of one agent: every JSON-RPC line its pipe carried, either way, and every
stderr line, kept as the bytes that crossed the pipe (no copy of the parsed message, nothing serialized
again), bounded by entries and bytes: the oldest are let go first, and a line over
`MAX_KEPT_LINE_BYTES` is listed without its text. Recording a line is all that happens per message (a
2,000-turn load is 40,000 of them, and the inspector is usually closed); lines are described (method,
id, session) when the inspector first reads them, in order, so a response still finds its request.

A response is named by its request's method (the ids of requests still unanswered are remembered, both
ways). The text is given out one entry at a time with terminal credentials named, not shown, as the
`--record` trace does; "Save trace" writes the kept entries in that format."""

from __future__ import annotations

import contextlib
import json
import time
from collections import deque
from typing import Any, cast

from app.contract.credentials import TRACED, redact_text
from app.contract.errors import SaveFailed
from app.contract.protocol_log import Direction, EntryKind, InspectorEntry, InspectorPage
from app.main.acp.bug_trace import Redactor
from app.main.files.exports import save_user_file

MAX_ENTRIES = 20_000  # while the inspector is open
MAX_BYTES = 16 * 1024 * 1024
IDLE_ENTRIES = 1_000  # while it is closed: what just happened, and little memory
IDLE_BYTES = 1024 * 1024
TRIM_SLACK = 256  # entries past the bound before the oldest are let go, together (not one per message)
MAX_KEPT_LINE_BYTES = 1024 * 1024
MAX_PENDING_IDS = 4_096  # requests remembered for naming their responses


def _text(raw: bytes | bytearray | str) -> str:
    return raw if isinstance(raw, str) else bytes(raw).decode("utf-8", "replace")


def _kind(message: dict[str, Any]) -> EntryKind:
    if "method" in message:
        return "request" if "id" in message else "notification"
    return "error" if "error" in message else "response"


Raw = bytes | bytearray | str  # a line as it crossed the pipe
Head = tuple[str, str, str, EntryKind]  # method, id, session, kind
# An entry as it came is a plain tuple, the cheapest thing to make per message: (seq, t, direction, raw,
# size, head), `raw` None for a line too long to keep, whose `head` was taken from the parsed message.
# It becomes an InspectorEntry when first read (most never are: the panel is usually closed).
Recorded = tuple[int, float, Direction, Raw | None, int, Head | None]


class ProtocolLog:
    def __init__(self) -> None:
        self._started = time.monotonic()
        self._entries: deque[Recorded | InspectorEntry] = deque()
        # texts of described entries (a recorded tuple has its own)
        self._kept: dict[int, Raw] = {}
        self._bytes = 0
        self._seq = 0
        self._watched = False
        self._max_entries, self._max_bytes = IDLE_ENTRIES, IDLE_BYTES
        self._pending: dict[tuple[str, str], str] = {}  # (who asked, id) -> method

    # --- fed by the connection (per message: as little as possible) -------------------------------
    def wire(self, direction: str, message: dict[str, Any], raw: Raw) -> None:
        """One JSON-RPC line (`send`: to the agent), as parsed and as it crossed the pipe."""
        way: Direction = "send" if direction == "send" else "recv"
        size = len(raw)
        self._seq += 1
        if size > MAX_KEPT_LINE_BYTES:
            self._entries.append(
                (self._seq, time.monotonic() - self._started, way, None, size, _head(message))
            )
        else:
            self._entries.append((self._seq, time.monotonic() - self._started, way, raw, size, None))
            self._bytes += size
        if self._bytes > self._max_bytes or len(self._entries) > self._max_entries + TRIM_SLACK:
            self._trim()

    def stderr(self, line: str) -> None:
        self._seq += 1
        self._entries.append((self._seq, time.monotonic() - self._started, "stderr", line, len(line), None))
        self._bytes += len(line)
        if self._bytes > self._max_bytes or len(self._entries) > self._max_entries + TRIM_SLACK:
            self._trim()

    @property
    def watched(self) -> bool:
        return self._watched

    def watch(self, watched: bool) -> None:
        """The inspector opened (the log keeps up to MAX_ENTRIES and MAX_BYTES) or closed (it keeps the
        last IDLE_ENTRIES, IDLE_BYTES: a long chat's memory does not carry a log nobody reads)."""
        self._max_entries, self._max_bytes = (
            (MAX_ENTRIES, MAX_BYTES) if watched else (IDLE_ENTRIES, IDLE_BYTES)
        )
        self._trim()

    def _trim(self) -> None:
        while len(self._entries) > self._max_entries or self._bytes > self._max_bytes:
            self._let_go()

    def _let_go(self) -> None:
        oldest = self._entries.popleft()
        kept = oldest[3] if isinstance(oldest, tuple) else self._kept.pop(oldest.seq, None)
        if kept is not None:
            self._bytes -= len(kept)

    # --- read by the inspector --------------------------------------------------------------------
    def read(self, agent: str, after: int) -> InspectorPage:
        entries = self._described()
        first = entries[0].seq if entries else self._seq + 1
        newer = tuple(_after(entries, max(after, first - 1)))
        return InspectorPage(agent, newer, first)

    def text(self, seq: int, pretty: bool = False) -> str:
        entries = self._described()
        raw = self._kept.get(seq)
        if raw is None:
            entry = next((e for e in entries if e.seq == seq), None)
            if entry is None:
                return "(no longer kept: the inspector keeps the most recent traffic)"
            return f"(a line of {entry.size:,} bytes: listed, its text not kept)"
        text = _text(raw).strip()
        if pretty and text.startswith("{"):
            with contextlib.suppress(ValueError):  # not JSON after all: shown as it came
                text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        return redact_text(text, TRACED)

    def _saved_lines(self) -> list[tuple[InspectorEntry, str]]:
        """The kept entries and their text, oldest first, for a trace file; SaveFailed when none."""
        texts = ((entry, self._kept.get(entry.seq)) for entry in self._described())
        kept = [(entry, _text(raw).strip()) for entry, raw in texts if raw is not None]
        if not kept:
            raise SaveFailed("There is no traffic to save yet.")
        return kept

    async def save_trace(self, path: str) -> int:
        """The kept entries as a `--record` trace (times from the log's start); the number written."""
        lines = []
        for entry, text in self._saved_lines():
            if entry.direction == "stderr":
                line = {"t": round(entry.t, 6), "dir": "stderr", "text": text}
                record = json.dumps(line, ensure_ascii=False)
            else:
                record = f'{{"t":{round(entry.t, 6)},"dir":"{entry.direction}","msg":{text}}}'
            lines.append(redact_text(record, TRACED))
        await save_user_file(path, "\n".join(lines) + "\n")
        return len(lines)

    async def save_report_trace(self, path: str, redactor: Redactor) -> int:
        """The kept entries as a trace for a bug report (bug_trace.py): what is the user's own taken
        out, a note of it first; the number of entries written. Every message is read first, so a
        value learnt late (an MCP server's header) is taken out of the lines before it too."""
        kept: list[tuple[InspectorEntry, Any]] = []
        for entry, text in self._saved_lines():
            if entry.direction == "stderr":
                kept.append((entry, text))
                continue
            try:
                message = json.loads(text)
            except ValueError:
                message = text
            redactor.learn(message, entry.method)
            kept.append((entry, message))
        lines = []
        for entry, value in kept:
            t = round(entry.t, 6)
            if entry.direction == "stderr":
                record: dict[str, Any] = {"t": t, "dir": "stderr", "text": redactor.text(value)}
            else:
                record = {"t": t, "dir": entry.direction, "msg": redactor.message(value, entry.method)}
            lines.append(json.dumps(record, ensure_ascii=False))
        note = json.dumps({"t": 0, "dir": "note", "text": redactor.summary()}, ensure_ascii=False)
        await save_user_file(path, "\n".join([note, *lines]) + "\n")
        return len(lines)

    def clear(self) -> None:
        self._entries.clear()
        self._kept.clear()
        self._bytes = 0

    # --- describing, in order, what was only recorded ----------------------------------------------------
    def _described(self) -> deque[InspectorEntry]:
        """Turn the recorded lines into entries, oldest first (so a response finds its request), after
        letting go of what is past the bounds (recording leaves up to TRIM_SLACK more)."""
        self._trim()
        entries = self._entries
        start = len(entries)
        while start > 0 and isinstance(line := entries[start - 1], tuple):
            start -= 1
        for index in range(start, len(entries)):
            line = entries[index]
            if isinstance(line, tuple):
                entries[index] = self._entry(line)
        return cast("deque[InspectorEntry]", entries)  # no recorded line is left

    def _entry(self, line: Recorded) -> InspectorEntry:
        seq, t, direction, raw, size, head = line
        kind: EntryKind
        if direction == "stderr":
            method, key, session, kind = "", "", "", "stderr"
        elif head is not None:
            method, key, session, kind = head
        else:  # kept whole: described from its text
            try:
                message = json.loads(raw or "{}")
            except ValueError:
                message = {}
            method, key, session, kind = _head(message if isinstance(message, dict) else {})
        if kind == "request":
            self._remember((direction, key), method)
        elif kind in ("response", "error"):
            asker = "recv" if direction == "send" else "send"  # a response goes back the other way
            method = self._pending.pop((asker, key), "")
        if raw is not None:
            self._kept[seq] = raw
        return InspectorEntry(seq, t, direction, kind, method, key, session, size, raw is not None)

    def _remember(self, key: tuple[str, str], method: str) -> None:
        if len(self._pending) >= MAX_PENDING_IDS:
            self._pending.pop(next(iter(self._pending)))
        self._pending[key] = method


def _head(message: dict[str, Any]) -> tuple[str, str, str, EntryKind]:
    """method, id, session and kind of a message (a response's method is found from its request)."""
    rpc_id = message.get("id")
    method = message.get("method")
    params = message.get("params")
    session = params.get("sessionId") if isinstance(params, dict) else None
    return (
        method if isinstance(method, str) else "",
        str(rpc_id) if rpc_id is not None else "",
        session if isinstance(session, str) else "",
        _kind(message),
    )


def _after(entries: deque[InspectorEntry], after: int) -> list[InspectorEntry]:
    """The entries with seq > `after`, found from the newest end (the view asks for the last few)."""
    newer: list[InspectorEntry] = []
    for entry in reversed(entries):
        if entry.seq <= after:
            break
        newer.append(entry)
    newer.reverse()
    return newer
