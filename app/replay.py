"""`clawqt replay TRACE [--json]`: a recorded trace rendered headlessly through the same code as the live
app: the main side's session state machine (`app/main/trace_feed.py`) turns the trace into envelopes
and committed loads, the renderer's timeline store reduces and groups them, and the one serializer
(`app/renderer/timeline/serialize.py`) prints the grouped timeline as JSON or as a transcript.

Each session's `diagnostics.ignored` counts what was not applied: messages the machine ignored while
that session was shown (those before any session count for the first one) plus the envelopes its
timeline ignored.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from app.contract.envelopes import LoadResult
from app.main.trace_feed import TraceError, TraceIgnored, feed_trace, read_trace
from app.renderer.timeline.serialize import timeline_json, transcript
from app.renderer.timeline.store import TimelineStore

__all__ = ["TraceError", "replay_json", "replay_text"]


def replay_json(path: Path) -> dict[str, Any]:
    store = TimelineStore()
    keys: list[str] = []  # sessions in the order they were first opened
    ignored: Counter[str | None] = Counter()
    for output in feed_trace(read_trace(path)):
        if isinstance(output, TraceIgnored):
            ignored[output.session_key] += output.count
        elif isinstance(output, LoadResult):
            store.load(output)
            if output.session_key not in keys:
                keys.append(output.session_key)
        else:
            store.apply(output)
    sessions = []
    for index, key in enumerate(keys):
        extra = ignored[key] + (ignored[None] if index == 0 else 0)
        sessions.append(timeline_json(store.timelines[key], extra))
    return {"sessions": sessions}


def replay_text(path: Path) -> str:
    """A readable transcript of the same grouping (for people)."""
    return transcript(replay_json(path)["sessions"])
