"""Collapse rules for tool cards, tool groups and thoughts. UI state, kept outside delegates (they are
destroyed when scrolled away) and keyed by item id, like Zed keeps expansion in the view:

- the user's toggle always wins;
- historical finished tool cards start collapsed;
- live cards stay open while running and collapse 1 s after completion;
- a tool group follows the same rule for its whole run;
- thoughts are open while streaming and collapsed afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Callable

FINISHED = frozenset({"completed", "failed", "cancelled"})
COLLAPSE_DELAY_S = 1.0


class CollapseState:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.toggled: dict[str, bool] = {}
        self.finished_at: dict[str, float] = {}

    def toggle(self, key: str, currently_expanded: bool) -> None:
        self.toggled[key] = not currently_expanded

    def tool_expanded(self, key: str, status: str, historical: bool) -> tuple[bool, float | None]:
        """(expanded now, seconds until it should collapse or None)."""
        if key in self.toggled:
            return self.toggled[key], None
        if status not in FINISHED:
            self.finished_at.pop(key, None)
            return True, None
        if historical and key not in self.finished_at:
            return False, None
        finished = self.finished_at.setdefault(key, self.clock())
        remaining = COLLAPSE_DELAY_S - (self.clock() - finished)
        return (True, remaining) if remaining > 0 else (False, None)

    def thought_expanded(self, key: str, streaming: bool) -> bool:
        if key in self.toggled:
            return self.toggled[key]
        return streaming

    def forget(self) -> None:
        self.toggled.clear()
        self.finished_at.clear()
