"""Terminal data of the `_meta` convention (acp-protocol.md): `terminal_info` creates (id, cwd),
`terminal_output` and `terminal_output_delta` append, `terminal_exit` sets the exit code or signal.
Output and exit for an id no tool call has named yet are parked and applied when the card appears;
an unknown id never drops the rest of an update."""

from __future__ import annotations

from typing import Any

from app.renderer.timeline.items import TerminalState, ToolCall


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
            tool.terminal_ids.append(terminal_id)
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
        parked = self.parked.setdefault(terminal_id, TerminalState(terminal_id))
        return parked, None

    def apply_meta(self, tool: ToolCall, meta: Any) -> set[ToolCall]:
        """Apply one update's terminal `_meta`; returns every tool item whose terminal changed."""
        touched: set[ToolCall] = set()
        if not isinstance(meta, dict):
            return touched
        info = meta.get("terminal_info")
        info_id = _id(info)
        if info_id is not None:
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
            state.chunks.append(data)
            if owner is not None:
                touched.add(owner)
        exit_entry = meta.get("terminal_exit")
        exit_id = _id(exit_entry)
        if exit_id is not None:
            state, owner = self._state(exit_id)
            code = exit_entry.get("exit_code", exit_entry.get("exitCode"))
            signal = exit_entry.get("signal")
            state.exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
            state.signal = signal if isinstance(signal, str) and signal else None
            state.exited = True
            if owner is not None:
                touched.add(owner)
        return touched
