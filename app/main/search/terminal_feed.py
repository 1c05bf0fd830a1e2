"""A chat's terminal output as the search index takes it: only a terminal a tool call shows on its card
is indexed (output for a terminal nobody names is shown nowhere), without escapes, growing through
the turn (each hand-over indexes it whole so far: its entry is replaced). Kept bounded while it waits
for a card to name it: at most TERMINAL_CHARS of one terminal and TURN_CHARS of all of a turn's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from app.contract.ansi import strip_escapes

TERMINAL_CHARS = 256 * 1024  # of one terminal's output indexed (its first quarter megabyte)
TURN_CHARS = 4 * 1024 * 1024  # of every terminal's output of a turn kept at once


class Output(Protocol):
    """A growing text the feed hands over (feed._Open)."""

    size: int
    limit: int

    def add(self, text: str) -> None: ...


OutputT = TypeVar("OutputT", bound=Output)


class TurnTerminals(Generic[OutputT]):
    def __init__(self, make: Callable[[], OutputT]) -> None:
        self._make = make
        self.outputs: dict[str, OutputT] = {}  # item (`x:<terminal id>`) -> the turn's output so far
        self.named: set[str] = set()  # terminal ids a tool call of the chat shows
        self._kept = 0

    def note_tool(self, update: dict[str, Any]) -> list[str]:
        """The terminals a tool call's update names (terminal content, `_meta` terminal_info): their
        items, now due to be handed over when they have output."""
        ids: list[str] = []
        content = update.get("content")
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "terminal":
                ids.append(_terminal_id(block))
        meta = update.get("_meta")
        if isinstance(meta, dict):
            ids.append(_terminal_id(meta.get("terminal_info")))
        new = [t for t in ids if t and t not in self.named]
        self.named.update(new)
        return [f"x:{t}" for t in new if f"x:{t}" in self.outputs]

    def add(self, terminal: str, data: str) -> str | None:
        """Output arrived; the item to hand over when its terminal is named, else None."""
        item = f"x:{terminal}"
        output = self.outputs.get(item)
        room = TURN_CHARS - self._kept
        if output is None:
            if room <= 0:
                return None
            output = self.outputs[item] = self._make()
        room = min(room, output.limit - output.size)
        if room > 0:
            before = output.size
            output.add(strip_escapes(data[: room + 256]))  # a margin for the escapes taken out
            self._kept += output.size - before
        return item if terminal in self.named else None

    def meta_output(self, update: dict[str, Any]) -> list[tuple[str, str]]:
        """(terminal id, data) of an agent's own terminal output in the update's `_meta`."""
        meta = update.get("_meta")
        found: list[tuple[str, str]] = []
        for part in ("terminal_output", "terminal_output_delta"):
            entry = meta.get(part) if isinstance(meta, dict) else None
            terminal = _terminal_id(entry)
            if terminal and isinstance(entry, dict) and isinstance(entry.get("data"), str):
                found.append((terminal, entry["data"]))
        return found

    def turn_settled(self) -> None:
        self.outputs, self._kept = {}, 0


def _terminal_id(entry: Any) -> str:
    if isinstance(entry, dict):
        value = entry.get("terminal_id", entry.get("terminalId"))
        if isinstance(value, str):
            return value
    return ""
