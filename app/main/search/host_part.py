"""The `search` host part: every agent's envelopes feed the index (SearchFeed -> IndexWriter, opened
on the first thing said), and a search runs off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from app.contract.errors import HostError
from app.contract.search import Facets, Filters, Hit, IndexedChat, IndexSize
from app.contract.usage import UsageChat, UsageDay
from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.search.backfill import Reader, backfill
from app.main.search.feed import SearchFeed
from app.main.search.index import DEFAULT_MAX_BYTES, SearchIndex
from app.main.search.writer import IndexWriter

MEGABYTE = 1024 * 1024
CLOSE_WAIT_S = 10.0  # a quit waits this long for what is left to be written (the chats are the truth)


class ChatSearch:
    """The index lives in the app's own data folder (`paths.data_dir()`, also when a test or benchmark
    keeps the host's stores elsewhere): a folder the review never counts as an agent's change, even
    when an agent works in a folder that holds it."""

    def __init__(
        self,
        problems: LocalProblems,
        agent_of: Callable[[str], str],
        folder_of: Callable[[str, int], str | None],
        folder: Path | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        reader: Callable[[str], tuple[Reader, str]] | None = None,
    ) -> None:
        self._reader = reader  # a connection of an agent's own, and its name: for `index_agent`
        where = folder if folder is not None else paths.data_dir()
        self._max_bytes = max_bytes
        self.writer = IndexWriter(lambda: SearchIndex(where, problems, self._max_bytes))
        self.feed = SearchFeed(self.writer, agent_of, folder_of)

    async def search(self, text: str, filters: Filters | None = None, limit: int = 50) -> list[Hit]:
        """What was said and handed to the writer so far (the last chunks of a turn streaming now come
        with its next hand-over)."""
        return await asyncio.to_thread(self.writer.index.search, text, filters or Filters(), limit)

    async def usage(self, days: int) -> list[UsageDay]:
        """Each agent's turns of each of the last `days` days (today the last), summed: with every
        turn handed to the writer so far (a turn that just ended is read back at once)."""
        await self.written()
        return await asyncio.to_thread(self.writer.index.usage_days, _since(days))

    async def usage_chats(self, days: int, limit: int) -> list[UsageChat]:
        """The chats that used the most tokens over the last `days` days, the most first (with every
        turn handed to the writer so far)."""
        await self.written()
        return await asyncio.to_thread(self.writer.index.usage_chats, _since(days), limit)

    async def indexed_chat(self, key: str) -> IndexedChat | None:
        return await asyncio.to_thread(self.writer.index.indexed_chat, key)

    async def index_agent(self, agent_id: str, progress: Callable[[int, int, int], None]) -> int:
        """Index every chat the agent lists that the index does not have yet (backfill.py), saying
        (listed, done, failed) as it goes; how many were indexed. Cancel the call to stop."""
        if self._reader is None:
            raise HostError("This window cannot index an agent's chats: it has no second connection to it.")
        reader, label = self._reader(agent_id)
        indexed = await backfill(reader, self.feed, self.writer.index.has_chat, label, progress)
        await self.written()
        return indexed

    def set_max_bytes(self, max_bytes: int) -> None:
        """A new bound (Settings): the index keeps to it from its next write."""
        self._max_bytes = max_bytes
        if self.writer.opened:
            self.writer.index.max_bytes = max_bytes

    async def size(self) -> IndexSize:
        """How big the index is now (chats, texts, bytes) and its bound."""
        chats, texts, used = await asyncio.to_thread(self.writer.index.sizes)
        return IndexSize(chats, texts, used, self._max_bytes)

    async def facets(self) -> Facets:
        return await asyncio.to_thread(self.writer.index.facets)

    async def written(self, timeout: float = CLOSE_WAIT_S) -> bool:
        """Everything said so far handed over and written (a test, a quit)."""
        self.feed.flush()
        return await asyncio.to_thread(self.writer.flush, timeout)

    async def close(self) -> None:
        self.feed.flush()
        await asyncio.to_thread(self.writer.close, CLOSE_WAIT_S)


def _since(days: int) -> str:
    """The first of the last `days` days (today the last), as the ledger writes days."""
    return (datetime.now() - timedelta(days=max(1, days) - 1)).strftime("%Y-%m-%d")
