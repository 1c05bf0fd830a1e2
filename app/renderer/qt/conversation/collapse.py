"""Collapse rules for tool cards, tool groups and thoughts. UI state, kept outside delegates (they are
destroyed when scrolled away) and keyed by row key or tool item id, like Zed keeps expansion in the view:

- the user's toggle always wins;
- historical finished tool cards start collapsed;
- live cards stay open while running and collapse 1 s after completion;
- a tool group follows the same rule for its whole run;
- thoughts are open while streaming and collapsed afterwards.

A card's completion is noted when its row is built; `next_due_in`/`take_due` tell the collapse timer
which cards to refresh when (nothing is scheduled while reading)."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

FINISHED = frozenset({"completed", "failed", "cancelled"})
COLLAPSE_DELAY_S = 1.0


class CollapseState:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.toggled: dict[Hashable, bool] = {}
        self.on_change: Callable[[], None] | None = None  # the user's choices changed (they are kept)
        self.finished_at: dict[Hashable, float] = {}
        self._due: dict[Hashable, float] = {}  # cards still open that collapse by themselves, and when

    def toggle(self, key: Hashable, currently_expanded: bool) -> None:
        self.toggled[key] = not currently_expanded
        self._due.pop(key, None)
        self._changed()

    def open(self, key: Hashable) -> None:
        """Open a card as if the user had (a search hit inside it is shown)."""
        self.toggled[key] = True
        self._due.pop(key, None)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def tool_expanded(self, key: Hashable, status: str, historical: bool) -> bool:
        if key in self.toggled:
            return self.toggled[key]
        if status not in FINISHED:
            self.finished_at.pop(key, None)
            self._due.pop(key, None)
            return True
        if historical and key not in self.finished_at:
            return False
        if key not in self.finished_at:
            self.finished_at[key] = self.clock()
            self._due[key] = self.finished_at[key] + COLLAPSE_DELAY_S
        return self.clock() - self.finished_at[key] < COLLAPSE_DELAY_S

    def thought_expanded(self, key: Hashable, streaming: bool) -> bool:
        if key in self.toggled:
            return self.toggled[key]
        return streaming

    def next_due_in(self) -> float | None:
        """Seconds until the next card collapses by itself, or None when none will."""
        return max(0.0, min(self._due.values()) - self.clock()) if self._due else None

    def take_due(self) -> set[Hashable]:
        """The cards whose collapse time has come (their rows need a refresh)."""
        now = self.clock()
        due = {key for key, when in self._due.items() if when <= now}
        for key in due:
            del self._due[key]
        return due

    def forget(self) -> None:
        self.toggled.clear()
        self.finished_at.clear()
        self._due.clear()
