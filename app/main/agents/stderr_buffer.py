"""The agent's stderr: drained continuously into a bounded ring of lines and a size-capped log file.

A child that writes faster than we read blocks on a full pipe, so the reader never waits on anything
but the pipe; the log file rotates once at `max_log_bytes` so a flood cannot fill the disk.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

log = logging.getLogger(__name__)

MAX_LINE_CHARS = 4096


class StderrBuffer:
    """Keeps the last `max_lines` stderr lines (each cut at `MAX_LINE_CHARS`) and appends all to a log."""

    def __init__(
        self,
        log_path: Path | None,
        max_lines: int = 400,
        max_log_bytes: int = 8 * 1024 * 1024,
        on_line: Callable[[str], None] | None = None,
    ) -> None:
        self._lines: deque[str] = deque(maxlen=max_lines)
        self._partial = b""
        self._log_path = log_path
        self._max_log_bytes = max_log_bytes
        self._log_file: BinaryIO | None = None
        self._log_size = 0
        self._on_line = on_line
        self.total_bytes = 0
        if log_path is not None:
            self._open_log()

    def _open_log(self) -> None:
        assert self._log_path is not None
        try:
            self._log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log_file = open(self._log_path, "ab")  # noqa: SIM115 - kept open while the child lives
            self._log_size = self._log_file.tell()
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            self._write_log(f"--- agent started {stamp} ---\n".encode())
        except OSError as exc:
            log.warning("cannot open agent stderr log %s: %s", self._log_path, exc)
            self._log_file = None

    def _write_log(self, data: bytes) -> None:
        if self._log_file is None:
            return
        if self._log_size + len(data) > self._max_log_bytes and self._log_path is not None:
            self._log_file.close()
            self._log_path.replace(self._log_path.with_suffix(self._log_path.suffix + ".1"))
            self._log_file = open(self._log_path, "ab")  # noqa: SIM115
            self._log_size = 0
        self._log_file.write(data)
        self._log_size += len(data)

    def feed(self, chunk: bytes) -> None:
        """Take a raw chunk from the pipe; complete lines enter the ring."""
        self.total_bytes += len(chunk)
        self._write_log(chunk)
        if self._log_file is not None:
            self._log_file.flush()  # one flush per pipe read: the log is current when someone looks
        data = self._partial + chunk
        *complete, self._partial = data.split(b"\n")
        if len(self._partial) > MAX_LINE_CHARS * 4:
            complete.append(self._partial)
            self._partial = b""
        for raw in complete:
            self._add_line(raw)

    def _add_line(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").rstrip("\r")
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + " [...]"
        self._lines.append(line)
        if self._on_line is not None:
            self._on_line(line)

    def finish(self) -> None:
        """The pipe closed: flush a trailing partial line and close the log."""
        if self._partial:
            self._add_line(self._partial)
            self._partial = b""
        if self._log_file is not None:
            self._log_file.flush()
            self._log_file.close()
            self._log_file = None

    def flush(self) -> None:
        if self._log_file is not None:
            self._log_file.flush()

    def tail(self, lines: int = 20) -> str:
        """The last `lines` lines, for error messages."""
        kept = list(self._lines)[-lines:]
        return "\n".join(kept)
