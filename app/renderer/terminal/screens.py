"""The emulated screens of a timeline's terminal cards, by terminal id: one `TerminalEmulator` each (a
```console fallback gets one of its own), fed from the timeline's `TerminalState`s.

Output progress never changes a row's payload: a card only registers its terminal here when its payload
is built, and the frame-driven feeder (`qt/conversation/schedulers.py`) advances the screens still
behind in time-boxed slices, repainting just those screens. Pure Python (no Qt)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from app.renderer.timeline.items import TerminalState

if TYPE_CHECKING:
    from app.renderer.terminal.emulator import TerminalEmulator

FEED_BUDGET_S = 0.02  # terminal emulation per frame (the rest continues on the next one)


def _new_emulator() -> TerminalEmulator:
    """pyte is loaded with the first terminal a card shows, not when the window starts."""
    from app.renderer.terminal.emulator import TerminalEmulator

    return TerminalEmulator()


class TerminalScreens:
    def __init__(self) -> None:
        self._emulators: dict[str, TerminalEmulator] = {}
        self._console_texts: dict[str, str] = {}
        self._behind: dict[str, TerminalState] = {}  # shown terminals with output left to emulate

    def forget(self) -> None:
        self._emulators.clear()
        self._console_texts.clear()
        self._behind.clear()

    def emulator(self, terminal_id: str) -> TerminalEmulator | None:
        """The emulator behind a card's screen (the painted view reads its lines from it)."""
        return self._emulators.get(terminal_id)

    def shown(self, state: TerminalState) -> None:
        """A card shows this terminal: its screen should catch up with the output."""
        emulator = self._emulators.setdefault(state.terminal_id, _new_emulator())
        if not emulator.caught_up(state):
            self._behind[state.terminal_id] = state

    def console(self, console_id: str, text: str) -> TerminalEmulator:
        """A ```console fallback's screen (rebuilt when its text changes; small: emulated at once)."""
        emulator = self._emulators.get(console_id)
        if emulator is None or self._console_texts.get(console_id) != text:
            emulator = self._emulators[console_id] = _new_emulator()
            self._console_texts[console_id] = text
            state = TerminalState(console_id)
            state.append(text)
            emulator.feed_all(state)
        return emulator

    @property
    def behind(self) -> bool:
        return bool(self._behind)

    def advance(self, budget_s: float = FEED_BUDGET_S) -> list[str]:
        """Emulate waiting output for about `budget_s`; the ids whose screens moved."""
        deadline = time.perf_counter() + budget_s
        advanced: list[str] = []
        for terminal_id, state in list(self._behind.items()):
            emulator = self._emulators.setdefault(terminal_id, _new_emulator())
            more = emulator.feed_for(state, max(0.0, deadline - time.perf_counter()))
            advanced.append(terminal_id)
            if not more:
                del self._behind[terminal_id]
            if time.perf_counter() >= deadline:
                break
        return advanced

    def full_text(self, state: TerminalState) -> str:
        """Every line of a terminal's screen (Copy), caught up with its output first."""
        emulator = self._emulators.setdefault(state.terminal_id, _new_emulator())
        emulator.feed_all(state)
        self._behind.pop(state.terminal_id, None)
        return emulator.text()
