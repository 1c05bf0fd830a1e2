"""The renderer side without Qt: a sessions host's envelopes -> timeline store -> rows and changes.
The window feeds the same store into its list model; benchmarks and tests use this directly."""

from __future__ import annotations

import time
import uuid

from app.contract.attachments import PromptAttachment
from app.contract.envelopes import Envelope, LoadResult, PromptResult
from app.contract.host_api import SessionsHost
from app.renderer.timeline.reducer import TIMELINE_KINDS, Timeline
from app.renderer.timeline.rows import RowChange, TimelineEvent, row_changes
from app.renderer.timeline.store import TimelineStore


class HeadlessPipeline:
    """Subscribes to a sessions host; `changes` counts the row changes a view would have applied."""

    def __init__(self, service: SessionsHost, *, keep_changes: bool = False) -> None:
        self.service = service
        self.store = TimelineStore()
        self.change_count = 0
        self.keep_changes = keep_changes
        self.changes: list[RowChange] = []
        self._unsubscribe = service.subscribe(self._on_envelope)

    def close(self) -> None:
        """Stop listening: a host shared by several pipelines outlives each of them."""
        self._unsubscribe()

    def _record(self, events: list[TimelineEvent]) -> None:
        changes = row_changes(events)
        self.change_count += len(changes)
        if self.keep_changes:
            self.changes.extend(changes)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind not in TIMELINE_KINDS:
            return
        _, changes = self.store.apply(envelope)
        self._record(changes)

    def _commit(self, result: LoadResult) -> Timeline:
        timeline, changes = self.store.load(result)
        self._record(changes)
        return timeline

    async def new_session(self, cwd: str | None = None) -> Timeline:
        return self._commit(await self.service.new_session(cwd))

    async def load_session(self, session_key: str, cwd: str | None = None) -> Timeline:
        return self._commit(await self.service.load_session(session_key, cwd))

    async def prompt(
        self, session_key: str, text: str, attachments: tuple[PromptAttachment, ...] = ()
    ) -> PromptResult:
        """Show the optimistic message at once, then send."""
        message_id = f"user:{uuid.uuid4()}"
        timeline = self.store.timelines.get(session_key)
        if timeline is not None:
            self._record(timeline.add_optimistic(message_id, text, sent_at=time.monotonic()))
        return await self.service.prompt(
            session_key, text, attachments=attachments, client_message_id=message_id
        )
