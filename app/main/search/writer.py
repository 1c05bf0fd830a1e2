"""Indexing off the event loop: what is handed in (`put`) is written by one thread, everything that
waited written in one transaction, so a burst of updates is a few commits and the GUI thread never
waits for SQLite. `flush` waits for what was handed in so far (a test, a quit); `close` ends the thread
after writing what is left."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence

from app.main.search.index import Chat, Entry, SearchIndex

log = logging.getLogger(__name__)

BATCH_ITEMS = 512  # chats' batches written in one transaction at most


class IndexWriter:
    def __init__(self, index: SearchIndex) -> None:
        self.index = index
        self._queue: queue.Queue[tuple[Chat, Sequence[Entry]] | threading.Event | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="search-index", daemon=True)
        self._thread.start()
        self.failures = 0  # batches a write refused (logged): the index is a cache, the chats stay

    def put(self, chat: Chat, entries: Sequence[Entry]) -> None:
        if entries:
            self._queue.put((chat, entries))

    def flush(self, timeout: float | None = None) -> bool:
        """Whether everything handed in before was written within `timeout` seconds."""
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def close(self, timeout: float | None = None) -> None:
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            batch: list[tuple[Chat, Sequence[Entry]]] = []
            signals: list[threading.Event] = []
            ending = False
            item = first
            while True:
                if item is None:
                    ending = True
                elif isinstance(item, threading.Event):
                    signals.append(item)
                else:
                    batch.append(item)
                if ending or len(batch) >= BATCH_ITEMS:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                try:
                    self.index.index(batch)
                except Exception:  # a cache: a batch lost is found again when its chat is shown
                    self.failures += 1
                    log.exception("search index: %d chats' entries not written", len(batch))
            for signal in signals:
                signal.set()
            if ending:
                return
