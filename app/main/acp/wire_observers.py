"""Who watches an agent's traffic besides the connection: the trace recorder and the protocol inspector
see every JSON-RPC message as it crossed the pipe (the inspector also the line that carried it) and
every stderr line, of every child the connection starts. A failing observer is logged and never breaks
the stream."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.main.acp.recorder import TraceRecorder

log = logging.getLogger(__name__)

RawObserver = Callable[[str, dict[str, Any]], None]  # ("send"/"recv", message)
LineObserver = Callable[[str, dict[str, Any], bytes | bytearray | str], None]


class WireObservers:
    def __init__(self, recorder: TraceRecorder | None) -> None:
        self._raw: list[RawObserver] = []
        self._lines: list[LineObserver] = []
        self._stderr: list[Callable[[str], None]] = []
        if recorder is not None:
            self._raw.append(recorder.message)  # type: ignore[arg-type]
            self._stderr.append(recorder.stderr)

    def add_raw(self, observer: RawObserver) -> Callable[[], None]:
        """See every JSON-RPC message as it crossed the pipe; returns a remover."""
        self._raw.append(observer)
        return lambda: self._raw.remove(observer) if observer in self._raw else None

    def add_lines(self, observer: LineObserver, stderr: Callable[[str], None]) -> None:
        """See every message with the line that carried it, and every stderr line."""
        self._lines.append(observer)
        self._stderr.append(stderr)

    @property
    def watch_stderr(self) -> bool:
        return bool(self._stderr)

    def message(self, direction: str, message: dict[str, Any], line: bytes | bytearray | str) -> None:
        for observer in list(self._raw):
            try:
                observer(direction, message)
            except Exception:  # an inspector or recorder must never break the stream
                log.exception("raw observer failed")
        for line_observer in self._lines:
            try:
                line_observer(direction, message, line)
            except Exception:
                log.exception("line observer failed")

    def stderr(self, text: str) -> None:
        for observer in self._stderr:
            try:
                observer(text)
            except Exception:
                log.exception("stderr observer failed")
