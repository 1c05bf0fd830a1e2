"""The protocol inspector's log of one agent: every JSON-RPC line its pipe carried, either way, and every
stderr line, kept as the bytes that crossed the pipe (no copy of the parsed message, nothing serialized
again: a 2,000-turn load is 40,000 lines), bounded by entries and bytes: the oldest are let go first,
and a line over `MAX_KEPT_LINE_BYTES` is listed without its text.

A response is named by its request's method (the ids of requests still unanswered are remembered, both
ways). The text is given out one entry at a time with terminal credentials named, not shown, as the
`--record` trace does; "Save trace" writes the kept entries in that format."""

from __future__ import annotations

import contextlib
import json
import time
from collections import deque
from typing import Any

from app.contract.errors import SaveFailed
from app.contract.hidden_context import CREDENTIAL
from app.contract.protocol_log import Direction, EntryKind, InspectorEntry, InspectorPage
from app.main.chat_exports import ChatExports

MAX_ENTRIES = 20_000
MAX_BYTES = 16 * 1024 * 1024
MAX_KEPT_LINE_BYTES = 1024 * 1024
MAX_PENDING_IDS = 4_096  # requests remembered for naming their responses
REDACTED = r"\1<redacted>"


def _text(raw: bytes | str) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw


def _kind(message: dict[str, Any]) -> EntryKind:
    if "method" in message:
        return "request" if "id" in message else "notification"
    return "error" if "error" in message else "response"


class ProtocolLog:
    def __init__(self) -> None:
        self._started = time.monotonic()
        self._entries: deque[InspectorEntry] = deque()
        self._raw: dict[int, bytes | str] = {}
        self._bytes = 0
        self._seq = 0
        self._pending: dict[tuple[str, str], str] = {}  # (who asked, id) -> method

    # --- fed by the connection ------------------------------------------------------------------
    def wire(self, direction: str, message: dict[str, Any], raw: bytes | str) -> None:
        """One JSON-RPC line (`send`: to the agent), as parsed and as it crossed the pipe."""
        kind = _kind(message)
        rpc_id = message.get("id")
        key = str(rpc_id) if rpc_id is not None else ""
        method = message.get("method")
        if isinstance(method, str):
            if kind == "request":
                self._remember((direction, key), method)
        else:
            asker = "recv" if direction == "send" else "send"  # a response goes back the other way
            method = self._pending.pop((asker, key), "")
        params = message.get("params")
        session = params.get("sessionId") if isinstance(params, dict) else None
        self._add(direction, kind, method, key, session if isinstance(session, str) else "", raw)  # type: ignore[arg-type]

    def stderr(self, line: str) -> None:
        self._add("stderr", "stderr", "", "", "", line)

    # --- read by the inspector --------------------------------------------------------------------
    def read(self, agent: str, after: int) -> InspectorPage:
        first = self._entries[0].seq if self._entries else self._seq + 1
        if after < first - 1:
            after = first - 1
        newer = tuple(e for e in _after(self._entries, after))
        return InspectorPage(agent, newer, first)

    def text(self, seq: int, pretty: bool = False) -> str:
        raw = self._raw.get(seq)
        if raw is None:
            entry = next((e for e in self._entries if e.seq == seq), None)
            if entry is None:
                return "(no longer kept: the inspector keeps the most recent traffic)"
            return f"(a line of {entry.size:,} bytes: listed, its text not kept)"
        text = _text(raw).strip()
        if pretty and text.startswith("{"):
            with contextlib.suppress(ValueError):  # not JSON after all: shown as it came
                text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        return CREDENTIAL.sub(REDACTED, text)

    async def save_trace(self, path: str) -> int:
        """The kept entries as a `--record` trace (times from the log's start); the number written."""
        lines = []
        for entry in self._entries:
            raw = self._raw.get(entry.seq)
            if raw is None:
                continue
            text = _text(raw).strip()
            if entry.direction == "stderr":
                record = json.dumps(
                    {"t": round(entry.t, 6), "dir": "stderr", "text": text}, ensure_ascii=False
                )
            else:
                record = f'{{"t":{round(entry.t, 6)},"dir":"{entry.direction}","msg":{text}}}'
            lines.append(CREDENTIAL.sub(REDACTED, record))
        if not lines:
            raise SaveFailed("There is no traffic to save yet.")
        await ChatExports().save_text(path, "\n".join(lines) + "\n")
        return len(lines)

    def clear(self) -> None:
        self._entries.clear()
        self._raw.clear()
        self._bytes = 0

    # --- keeping it bounded ---------------------------------------------------------------------------
    def _add(
        self, direction: Direction, kind: EntryKind, method: str, rpc_id: str, session: str, raw: bytes | str
    ) -> None:
        self._seq += 1
        size = len(raw)
        kept = size <= MAX_KEPT_LINE_BYTES
        entry = InspectorEntry(
            self._seq, time.monotonic() - self._started, direction, kind, method, rpc_id, session, size, kept
        )
        self._entries.append(entry)
        if kept:
            self._raw[entry.seq] = raw
            self._bytes += size
        while len(self._entries) > MAX_ENTRIES or self._bytes > MAX_BYTES:
            oldest = self._entries.popleft()
            dropped = self._raw.pop(oldest.seq, None)
            if dropped is not None:
                self._bytes -= len(dropped)

    def _remember(self, key: tuple[str, str], method: str) -> None:
        if len(self._pending) >= MAX_PENDING_IDS:
            self._pending.pop(next(iter(self._pending)))
        self._pending[key] = method


def _after(entries: deque[InspectorEntry], after: int) -> list[InspectorEntry]:
    """The entries with seq > `after`, found from the newest end (the view asks for the last few)."""
    newer: list[InspectorEntry] = []
    for entry in reversed(entries):
        if entry.seq <= after:
            break
        newer.append(entry)
    newer.reverse()
    return newer
