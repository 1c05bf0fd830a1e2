"""Indexing off the event loop: what is handed in (`put`, `forget`) is written by one thread, in the
order it came, everything that waited written in one transaction, so a burst of updates is a few
commits and the GUI thread never waits for SQLite. `flush` waits for what was handed in so far (a test,
a quit); `close` ends the thread after writing what is left.

Entries wait in the queue packed (`_Packed`): one bytes object a hand-over, not the caller's objects.
A loaded history is handed over while the window builds its rows; thousands of small objects kept
across that and freed afterwards would leave holes in pymalloc's arenas around the rows, which the
process never gives back."""

from __future__ import annotations

import logging
import marshal
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.contract.heap import trim_heap
from app.main.search.index import Chat, Entry, SearchIndex
from app.main.search.usage_ledger import TurnUsage

log = logging.getLogger(__name__)

BATCH_ITEMS = 512  # chats' batches written in one transaction at most
RELEASE_AFTER = 1000  # entries written before the idle thread hands SQLite's cache and the heap back


@dataclass(frozen=True)
class _Forget:
    keys: tuple[str, ...]


@dataclass(frozen=True)
class _Usage:
    turns: tuple[TurnUsage, ...]


class _Packed:
    """Entries as one marshalled bytes object (a block of the C heap, which the writer trims) while
    they wait to be written; unpacked one hand-over at a time as they are written, each entry made
    as it is read (a batch unpacked whole would be thousands of objects living through a transaction,
    kept by the collector long enough to be walked by its full collections)."""

    __slots__ = ("blob", "count")

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.count = len(entries)
        self.blob = marshal.dumps([(e.item, e.kind, e.text, e.at) for e in entries])

    def __iter__(self) -> Iterator[Entry]:
        for item, kind, text, at in marshal.loads(self.blob):
            yield Entry(item, kind, text, at)


_Work = tuple[Chat, _Packed] | _Forget | _Usage | threading.Event | None


class IndexWriter:
    """The index is opened, and the thread started, on first use: a run where nothing is said (or a
    window test that sends nothing) costs neither a file nor a thread."""

    def __init__(self, open_index: Callable[[], SearchIndex]) -> None:
        self._open_index = open_index
        self._index: SearchIndex | None = None
        self._queue: queue.Queue[_Work] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self.failures = 0  # batches a write refused (logged): the index is a cache, the chats stay
        self._unreleased = 0  # entries written since memory was last handed back

    @property
    def opened(self) -> bool:
        return self._index is not None

    @property
    def index(self) -> SearchIndex:
        """The index, opened on first use (a write on the thread, or a search)."""
        with self._starting:
            if self._index is None:
                self._index = self._open_index()
            return self._index

    def _send(self, item: _Work) -> None:
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="search-index", daemon=True)
                self._thread.start()
        self._queue.put(item)

    def put(self, chat: Chat, entries: Sequence[Entry]) -> None:
        """The chat's entries, packed now: nothing of the caller's is held while they wait."""
        if entries:
            self._send((chat, _Packed(entries)))

    def forget(self, keys: Sequence[str]) -> None:
        """The chats' entries dropped, after everything handed in before is written."""
        if keys:
            self._send(_Forget(tuple(keys)))

    def record_usage(self, turns: Sequence[TurnUsage]) -> None:
        """Turns' usage into the ledger, in order with what was handed in before."""
        if turns:
            self._send(_Usage(tuple(turns)))

    def flush(self, timeout: float | None = None) -> bool:
        """Whether everything handed in before was written within `timeout` seconds."""
        if self._thread is None:
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def close(self, timeout: float | None = None) -> None:
        """What is left written, the thread ended, the index closed."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)
        if self._index is not None and (self._thread is None or not self._thread.is_alive()):
            self._index.close()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            batch: list[tuple[Chat, _Packed]] = []
            signals: list[threading.Event] = []
            alone: _Forget | _Usage | None = None
            ending = False
            while True:
                if item is None:
                    ending = True
                elif isinstance(item, threading.Event):
                    signals.append(item)
                elif isinstance(item, _Forget | _Usage):
                    alone = item  # written after what came before it, then a new batch
                else:
                    batch.append(item)
                if ending or alone is not None or len(batch) >= BATCH_ITEMS:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._safely(self.index.index, batch, len(batch))
                self._unreleased += sum(packed.count for _chat, packed in batch)
            if isinstance(alone, _Forget):
                self._safely(self.index.forget, alone.keys, len(alone.keys))
            elif isinstance(alone, _Usage):
                self._safely(self.index.add_usage, alone.turns, len(alone.turns))
            # nothing written stays referenced while the thread waits: a loaded history's whole text
            item, batch, alone = None, [], None
            if not ending and self._unreleased >= RELEASE_AFTER and self._queue.empty():
                self._release()
            if not ending and self._queue.empty():
                self._safely(lambda _: self.index.release_memory(), None, 0)
            for signal in signals:
                signal.set()
            if ending:
                return

    def _release(self) -> None:
        """After a history was indexed (not after each turn's few entries): SQLite's page cache and the
        pages this thread's heap arena freed go back to the system; a search reads from the file."""
        self._unreleased = 0
        self._safely(lambda _: self.index.release_memory(), None, 0)
        trim_heap()

    def _safely(self, write: Callable[[Any], None], work: Any, chats: int) -> None:
        """A write that fails is logged and counted: the index is a cache, and what a lost batch held is
        found again when its chat is shown."""
        try:
            write(work)
        except Exception:
            self.failures += 1
            log.exception("search index: a write for %d chats failed", chats)
