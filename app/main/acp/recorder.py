"""`--record FILE`: every JSON-RPC message both ways and every stderr line, as JSON Lines.

Format (design.md): `{"t": seconds, "dir": "send"|"recv", "msg": {...}}` and
`{"t": seconds, "dir": "stderr", "text": "..."}`; `t` counts from the recorder's start; send = to the agent.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Literal

from app.contract.credentials import TRACED, redact_text


class TraceRecorder:
    """Appends trace lines; flushed per line so a crash keeps everything written so far."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - lives as long as the app
        self._start = time.monotonic()

    def _write(self, entry: dict[str, Any]) -> None:
        if self._file.closed:
            return
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        # terminal credentials live in memory only: a trace names them without their value
        self._file.write(redact_text(line, TRACED) + "\n")
        self._file.flush()

    def message(self, direction: Literal["send", "recv"], msg: Any) -> None:
        self._write({"t": round(time.monotonic() - self._start, 6), "dir": direction, "msg": msg})

    def stderr(self, text: str) -> None:
        self._write({"t": round(time.monotonic() - self._start, 6), "dir": "stderr", "text": text})

    def close(self) -> None:
        self._file.close()
