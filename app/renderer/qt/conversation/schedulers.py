"""Work the conversation does after a frame, outside the list model: revealing the rest of a streaming
burst, emulating terminal output for the screens shown, and collapsing finished cards on time.

Each starts when the window has drawn a frame (`after_frame`, connected to the window's frameSwapped):
a frame follows every change the view shows, so the work continues exactly as long as there is some,
and an idle window draws nothing and costs nothing. Terminal emulation then keeps going in time-boxed
slices whenever the loop is idle (waiting for a frame between slices would halve its throughput);
the collapse waits on a timer (a card collapses a second after it finished, when nothing else may be
drawing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.renderer.qt.conversation.timeline_model import TimelineModel

if TYPE_CHECKING:
    from app.renderer.terminal.emulator import TerminalEmulator


class ConversationScheduler(QObject):
    terminalAdvanced = Signal(str)  # a terminal's screen moved on: the painted screen showing it repaints

    def __init__(self, model: TimelineModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._presenter = model.views.presenter
        self._collapse = model.views.collapse
        self._collapse_timer = QTimer(self)
        self._collapse_timer.setSingleShot(True)
        self._collapse_timer.timeout.connect(self._collapse_due)
        self._feed_timer = QTimer(self)  # the next emulation slice, as soon as the loop is idle
        self._feed_timer.setSingleShot(True)
        self._feed_timer.setInterval(0)
        self._feed_timer.timeout.connect(self._feed_terminals)
        self._frame_timer = QTimer(self)  # the work after a frame, once what waited meanwhile ran
        self._frame_timer.setSingleShot(True)
        self._frame_timer.setInterval(0)
        self._frame_timer.timeout.connect(self._after_frame_now)

    @Slot()
    def after_frame(self) -> None:
        """A frame was drawn: the next slice follows once the loop has run what waited while it was
        drawn (input, timers, the agent's output), not in the same stretch as the drawing."""
        self._presenter.frame_drawn()
        if not self._frame_timer.isActive():
            self._frame_timer.start()

    @Slot()
    def _after_frame_now(self) -> None:
        self._reveal()
        if self._presenter.screens.behind and not self._feed_timer.isActive():
            self._feed_terminals()
        self._arm_collapse()

    def _reveal(self) -> None:
        """A streaming burst shows a bounded slice per frame: rebuild the rows still behind."""
        behind = set(self._presenter.rows_behind)
        if behind:
            self._model.refresh_items(behind, rebuild=True)

    @Slot()
    def _feed_terminals(self) -> None:
        screens = self._presenter.screens
        for terminal_id in screens.advance():
            self.terminalAdvanced.emit(terminal_id)
        if screens.behind:
            self._feed_timer.start()

    def _arm_collapse(self) -> None:
        wait = self._collapse.next_due_in()
        if wait is None:
            return
        wanted = max(1, int(wait * 1000) + 5)
        if not self._collapse_timer.isActive() or self._collapse_timer.remainingTime() > wanted:
            self._collapse_timer.start(wanted)

    @Slot()
    def _collapse_due(self) -> None:
        self._model.refresh_items(self._collapse.take_due())
        self._arm_collapse()

    def terminal_emulator(self, terminal_id: str) -> TerminalEmulator | None:
        """For the painted terminal screens: the emulator the feeder advances."""
        return self._presenter.screens.emulator(terminal_id)
