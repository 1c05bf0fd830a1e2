"""Terminal data of the `_meta` convention (acp-protocol.md): `terminal_info` creates (id, cwd),
`terminal_output` and `terminal_output_delta` append, `terminal_exit` sets the exit code or signal.
Output and exit for an id no tool call has named yet are parked and applied when the card appears;
an unknown id never drops the rest of an update.

Parked output is bounded, since no card shows it and an agent may send it for ids no tool ever names:
each id keeps at most `PARKED_CHARS_PER_ID` characters (past it, the newest half; the card then says
earlier output was trimmed), all ids together `PARKED_CHARS_TOTAL`, and at most `PARKED_IDS` ids; past
those the id parked first is dropped whole. What is still parked when the turn ends is dropped
(`drop_parked`)."""

from __future__ import annotations

import base64
import binascii
import codecs
from typing import Any

from app.renderer.timeline.items import TerminalState, ToolCall

PARKED_CHARS_PER_ID = 256 * 1024
PARKED_CHARS_TOTAL = 1024 * 1024
PARKED_IDS = 64


def _id(entry: Any) -> str | None:
    if isinstance(entry, dict):
        value = entry.get("terminal_id", entry.get("terminalId"))
        if isinstance(value, str) and value:
            return value
    return None


class TerminalRegistry:
    """Which tool item owns which terminal id, and what arrived before its owner."""

    def __init__(self) -> None:
        self.owner: dict[str, ToolCall] = {}
        self.parked: dict[str, TerminalState] = {}

    def attach(self, tool: ToolCall, terminal_id: str, cwd: str | None = None) -> None:
        """`tool` names `terminal_id` (terminal_info or terminal content); apply anything parked."""
        if terminal_id not in tool.terminal_ids:
            tool.terminal_ids += (terminal_id,)
        state = tool.terminals.get(terminal_id)
        if state is None:
            state = self.parked.pop(terminal_id, None) or TerminalState(terminal_id)
            tool.terminals[terminal_id] = state
        if cwd:
            state.cwd = cwd
        self.owner.setdefault(terminal_id, tool)

    def _state(self, terminal_id: str) -> tuple[TerminalState, ToolCall | None]:
        owner = self.owner.get(terminal_id)
        if owner is not None:
            return owner.terminals[terminal_id], owner
        parked = self.parked.get(terminal_id)
        if parked is None:
            parked = self.parked[terminal_id] = TerminalState(terminal_id)
            while len(self.parked) > PARKED_IDS:
                del self.parked[next(iter(self.parked))]
        return parked, None

    def _parked_output(self, state: TerminalState, owner: ToolCall | None) -> None:
        """Bound what is parked after `state` grew (nothing to do for a state a card owns)."""
        if owner is not None:
            return
        if state.size > PARKED_CHARS_PER_ID:  # the newest half stays: trimming is not redone per chunk
            state.replace(state.output[-(PARKED_CHARS_PER_ID // 2) :])
            state.trimmed = True
        total = sum(parked.size for parked in self.parked.values())
        while total > PARKED_CHARS_TOTAL and len(self.parked) > 1:
            oldest = next(iter(self.parked))
            if oldest == state.terminal_id:  # keep the newest output: the one just parked goes last
                self.parked[oldest] = self.parked.pop(oldest)
                continue
            total -= self.parked.pop(oldest).size

    def drop_parked(self) -> None:
        """The turn ended: output no tool named by now is not shown by any card."""
        self.parked.clear()

    def apply_meta(self, tool: ToolCall, meta: Any) -> set[ToolCall]:
        """Apply one update's terminal `_meta`; returns every tool item whose terminal changed."""
        touched: set[ToolCall] = set()
        if not isinstance(meta, dict):
            return touched
        info = meta.get("terminal_info")
        info_id = _id(info)
        if info_id is not None and isinstance(info, dict):
            cwd = info.get("cwd") if isinstance(info.get("cwd"), str) else None
            self.attach(tool, info_id, cwd)
            touched.add(tool)
        for key in ("terminal_output", "terminal_output_delta"):
            entry = meta.get(key)
            terminal_id = _id(entry)
            data = entry.get("data") if isinstance(entry, dict) else None
            if terminal_id is None or not isinstance(data, str):
                continue
            state, owner = self._state(terminal_id)
            state.append(data)
            self._parked_output(state, owner)
            if owner is not None:
                touched.add(owner)
        exit_entry = meta.get("terminal_exit")
        exit_id = _id(exit_entry)
        if exit_id is not None and isinstance(exit_entry, dict):
            state, owner = self._state(exit_id)
            code = exit_entry.get("exit_code", exit_entry.get("exitCode"))
            signal = exit_entry.get("signal")
            state.exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
            state.signal = signal if isinstance(signal, str) and signal else None
            state.exited = True
            if owner is not None:
                touched.add(owner)
        return touched

    def _decode(self, state: TerminalState, encoded: Any, final: bool = False) -> str | None:
        """base64 -> text; chunks may split UTF-8 characters (kept for the next chunk)."""
        if not isinstance(encoded, str):
            return None
        try:
            raw = base64.b64decode(encoded, validate=False)
        except (binascii.Error, ValueError):
            return None
        if state.decoder is None:
            state.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        return state.decoder.decode(raw, final=final)

    def apply_v2(self, update: dict[str, Any]) -> tuple[bool, ToolCall | None]:
        """ACP v2 draft updates: `terminal_output_chunk` (base64 append) and `terminal_update` (a
        replaceable snapshot; omitted fields unchanged). Returns (understood, owner to refresh)."""
        terminal_id = update.get("terminalId", update.get("terminal_id"))
        if not isinstance(terminal_id, str) or not terminal_id:
            return False, None
        state, owner = self._state(terminal_id)
        if update.get("sessionUpdate") == "terminal_output_chunk":
            text = self._decode(state, update.get("data"))
            if text is None:
                return False, owner
            state.append(text)
            self._parked_output(state, owner)
            return True, owner
        if "output" in update:
            state.decoder = None
            text = self._decode(state, update.get("output"), final=True)
            if text is not None:
                state.replace(text)
                self._parked_output(state, owner)
        if isinstance(update.get("cwd"), str):
            state.cwd = update["cwd"]
        status = update.get("exitStatus")
        if isinstance(status, dict):
            code, signal = status.get("exitCode"), status.get("signal")
            state.exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
            state.signal = signal if isinstance(signal, str) and signal else None
            state.exited = True
        return True, owner

    def apply_client_output(
        self,
        terminal_id: str,
        data: str,
        exited: bool,
        exit_code: int | None,
        signal: str | None,
        note: str = "",
    ) -> ToolCall | None:
        """Output of one of the client's own terminals (terminal/create), as the main side saw it."""
        state, owner = self._state(terminal_id)
        state.append(data)
        self._parked_output(state, owner)
        if exited:
            state.exit_code, state.signal, state.exited = exit_code, signal, True
            state.note = note
        return owner
