"""Index every chat an agent lists, when the user asks: each chat not in the index yet is loaded through
a connection of the agent's own (a second child process), whose replays go to the search feed only,
never to the window (the window's store must not see loads it did not ask for). One chat at a time,
each closed again where the agent can; progress said after each; cancelling ends the connection."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from app.contract.envelopes import LoadResult, SessionPage
from app.contract.errors import HostError

MAX_PAGES = 200  # of the agent's list read at most (an agent may page for ever)


class Reader(Protocol):
    """What the backfill asks of its own connection to the agent (a `ChatService`)."""

    @property
    def agent_info(self) -> Any: ...

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]: ...

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage: ...

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult: ...

    async def close_session(self, session_key: str) -> None: ...

    async def shutdown(self) -> None: ...


class Feed(Protocol):
    labels: dict[str, str]

    def titled(self, key: str, title: str, updated: float | None = None) -> None: ...

    def on_envelope(self, envelope: Any) -> None: ...

    def on_opened(self, result: Any) -> None: ...


Progress = Callable[[int, int, int], None]  # (chats listed, done, failed)


async def backfill(
    reader: Reader, feed: Feed, known: Callable[[str], bool], label: str, progress: Progress
) -> int:
    """Index the agent's chats the index does not have; how many were indexed. HostError when the agent
    cannot list its chats; a chat that fails to load is counted and skipped."""
    stop = reader.subscribe(feed.on_envelope)
    try:
        listed = await _listed(reader)
        keys = [key for key in listed if not known(key)]
        done = failed = 0
        progress(len(keys), 0, 0)
        closes = reader.agent_info is not None and reader.agent_info.supports("sessionCapabilities", "close")
        for key in keys:
            feed.labels[key] = label
            title, updated = listed[key]
            feed.titled(key, title, updated)
            try:
                feed.on_opened(await reader.load_session(key))
                if closes:
                    await reader.close_session(key)
            except HostError:
                failed += 1
            done += 1
            progress(len(keys), done, failed)
        return done - failed
    finally:
        stop()
        await reader.shutdown()


async def _listed(reader: Reader) -> dict[str, tuple[str, float | None]]:
    """Each chat the agent lists, with its title ("" when it gives none) and its last change (None when
    not given or not a date), in the agent's order."""
    listed: dict[str, tuple[str, float | None]] = {}
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await reader.list_sessions(cursor)
        for summary in page.sessions:
            listed.setdefault(summary.session_key, (summary.title or "", _epoch(summary.updated_at)))
        cursor = page.next_cursor
        if not cursor:
            break
    return listed


def _epoch(stamp: str | None) -> float | None:
    """An agent's `updatedAt` (ISO 8601; a date alone is that day's start, local) in seconds."""
    try:
        return datetime.fromisoformat(stamp).timestamp() if stamp else None
    except ValueError:
        return None
