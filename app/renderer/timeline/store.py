"""Timelines by session key. The renderer keeps the selected session's timeline and those of
sessions with a live prompt; an envelope whose key or generation matches none of them is ignored
(stale load results and updates from an earlier generation never reach a timeline)."""

from __future__ import annotations

from typing import Any

from app.main.envelopes import LoadResult
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import RowChange


class TimelineStore:
    def __init__(self, *, cwd_known: bool = True) -> None:
        self.timelines: dict[str, Timeline] = {}
        self.ignored = 0
        self.cwd_known = cwd_known

    def load(self, result: LoadResult) -> tuple[Timeline, list[RowChange]]:
        """Commit a load's replay in one batch; a live prompt's return keeps its timeline."""
        existing = self.timelines.get(result.session_key)
        if result.resumed_live and existing is not None and existing.generation == result.generation:
            return existing, []
        timeline = Timeline(result.session_key, result.generation, cwd_known=self.cwd_known)
        self.timelines[result.session_key] = timeline
        return timeline, timeline.apply_batch(result.updates)

    def apply(self, envelope: Any) -> tuple[Timeline | None, list[RowChange]]:
        key = getattr(envelope, "session_key", None)
        timeline = self.timelines.get(key) if isinstance(key, str) else None
        if timeline is None or timeline.generation != getattr(envelope, "generation", None):
            self.ignored += 1
            return None, []
        return timeline, timeline.apply(envelope)

    def forget(self, session_key: str) -> None:
        self.timelines.pop(session_key, None)
