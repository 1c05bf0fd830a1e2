"""Open trace… (the protocol inspector): a recorded trace shown as a read-only chat. The main side
replays the file through the session machine off the GUI thread (`InspectorHost.open_trace`, the same
feed as `clawqt replay`); the timelines are built here off the GUI thread too, then one is shown by
`CurrentSession.show_trace` (first the session the recording ended on, as the live window showed it),
with no chat of any agent shown, so nothing in it is sent, answered or changed. A trace of several
sessions is walked with Previous/Next; Close goes back to the chat shown before (or a new one);
choosing any chat leaves the trace."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import LoadResult
from app.contract.host_api import InspectorHost
from app.contract.protocol_log import ReadTrace
from app.renderer.qt.common.desktop_dialog import file_dialog, open_dialog
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession
from app.renderer.qt.inspector.inspector import INSPECTOR
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.store import replayed_timelines

TRACE_FILTERS = ["JSON Lines trace (*.jsonl)"]


class TraceViewer(ChatPart):
    changed = Signal()

    def __init__(
        self, host: InspectorHost, session: CurrentSession, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._dialog = None
        self._loading = False
        self._read: ReadTrace | None = None
        self._timelines: list[Timeline] = []
        self._index = 0
        self._return_to = ""  # the chat shown before the trace
        session.sessionChanged.connect(self._on_session_changed)

    @Slot()
    def openTrace(self) -> None:
        """The inspector's Open trace…: the desktop's file dialog, then the trace it chose."""
        start = str(Path.home())
        self._dialog = open_dialog(
            self._dialog, lambda: file_dialog("Open a trace", self.open_path, TRACE_FILTERS, start)
        )

    def open_path(self, path: str) -> None:
        if path:
            self._set_loading(True)
            self._ops.run(
                self._replayed(path),
                "The trace was not opened",
                done=self._opened,
                after=lambda: self._set_loading(False),
                topic=INSPECTOR,
            )

    async def _replayed(self, path: str) -> tuple[ReadTrace, list[Timeline]]:
        read = await self._host.open_trace(path)
        return read, await asyncio.to_thread(replayed_timelines, read.outputs)

    def _opened(self, replayed: tuple[ReadTrace, list[Timeline]]) -> None:
        read, timelines = replayed
        if not timelines:
            why = "; ".join(read.failures[:3]) or "it opens no session"
            self._ops.notices.show(f"No chat could be shown from {read.name}: {why}", topic=INSPECTOR)
            return
        if not self._session.readOnly:
            self._return_to = self._session.sessionKey
        self._read, self._timelines, self._index = read, timelines, _shown_last(read, timelines)
        self._show()

    def _show(self) -> None:
        assert self._read is not None
        self._session.show_trace(self._timelines[self._index], f"Trace {self._read.name}")
        self.changed.emit()

    @Slot()
    def previous(self) -> None:
        if self._timelines and self._index > 0:
            self._index -= 1
            self._show()

    @Slot()
    def next(self) -> None:
        if self._timelines and self._index < len(self._timelines) - 1:
            self._index += 1
            self._show()

    @Slot()
    def close(self) -> None:
        """Back to the chat shown before the trace (a new chat when there was none)."""
        if not self._session.readOnly:
            return
        if self._return_to:
            self._session.openSession(self._return_to)
        else:
            self._session.newChat()

    def _on_session_changed(self) -> None:
        if not self._session.readOnly and self._timelines:  # a chat is shown again: the trace is let go
            self._read, self._timelines, self._index, self._return_to = None, [], 0, ""
            self.changed.emit()

    def _set_loading(self, loading: bool) -> None:
        self._loading = loading
        self.changed.emit()

    def _summary(self) -> str:
        read = self._read
        if read is None:
            return ""
        count = len(self._timelines)
        parts = [f"session {self._index + 1:,} of {count:,}"] if count > 1 else []
        if read.sessions_left_out:
            parts.append(_counted(read.sessions_left_out, "earlier session", "not shown"))
        if failed := len(read.failures) + read.more_failures:
            parts.append(_counted(failed, "failed request"))
        if read.ignored:
            parts.append(_counted(read.ignored, "message", "not applied"))
        if read.long_lines:
            parts.append(read.long_lines)
        return " \u00b7 ".join(parts)

    def _failures(self) -> str:
        read = self._read
        if read is None:
            return ""
        more = [f"… and {read.more_failures:,} more"] if read.more_failures else []
        return "\n".join([*read.failures, *more])

    loading = Property(bool, lambda self: self._loading, notify=changed)
    name = Property(str, lambda self: self._read.name if self._read else "", notify=changed)
    summary = Property(str, _summary, notify=changed)
    failures = Property(str, _failures, notify=changed)
    index = Property(int, lambda self: self._index, notify=changed)
    count = Property(int, lambda self: len(self._timelines), notify=changed)


def _counted(count: int, noun: str, after: str = "") -> str:
    """`3 failed requests`, `1 earlier session not shown`."""
    return f"{count:,} {noun}{'s' if count > 1 else ''}" + (f" {after}" if after else "")


def _shown_last(read: ReadTrace, timelines: list[Timeline]) -> int:
    """The session the recording ended on (the one opened last), where the replay starts."""
    last = next((o.session_key for o in reversed(read.outputs) if isinstance(o, LoadResult)), "")
    keys = [t.session_key for t in timelines]
    return keys.index(last) if last in keys else len(timelines) - 1
