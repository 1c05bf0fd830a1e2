"""The index writer (app/main/search/writer.py): what is handed in is written by its own thread, in few
transactions; `flush` waits for it; a write that fails is counted and logged, and the thread goes on;
`close` writes what is left first."""

from __future__ import annotations

import threading

from app.main.search.index import Chat, Entry, SearchIndex
from app.main.search.writer import IndexWriter


def _chat(n: int) -> Chat:
    return Chat(f"c{n}", "agent", "/f", f"chat {n}", float(n))


def test_everything_handed_in_is_written_in_a_few_transactions_off_the_callers_thread(tmp_path, monkeypatch):
    index = SearchIndex(tmp_path)
    writes: list[tuple[int, str]] = []
    real = index.index

    def counted(batches):
        batches = list(batches)
        writes.append((len(batches), threading.current_thread().name))
        real(batches)

    monkeypatch.setattr(index, "index", counted)
    writer = IndexWriter(lambda: index)
    for n in range(2000):
        writer.put(_chat(n), [Entry("1", "answer", f"word{n} common", float(n))])
    assert writer.flush(30)
    assert index.counts() == (2000, 2000)
    assert {name for _size, name in writes} == {"search-index"}
    assert len(writes) < 2000 and sum(size for size, _name in writes) == 2000
    writer.close(10)


def test_a_failed_write_is_counted_and_the_writer_goes_on(tmp_path, monkeypatch):
    index = SearchIndex(tmp_path)
    real = index.index
    calls = {"n": 0}

    def failing_once(batches):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("disk on fire")
        real(batches)

    monkeypatch.setattr(index, "index", failing_once)
    writer = IndexWriter(lambda: index)
    writer.put(_chat(1), [Entry("1", "answer", "lost", 1.0)])
    assert writer.flush(10)
    writer.put(_chat(2), [Entry("1", "answer", "kept", 2.0)])
    assert writer.flush(10)
    assert writer.failures == 1 and [h.chat.key for h in index.search("kept")] == ["c2"]
    writer.close(10)


def test_close_writes_what_is_left(tmp_path):
    index = SearchIndex(tmp_path)
    writer = IndexWriter(lambda: index)
    for n in range(50):
        writer.put(_chat(n), [Entry("1", "answer", "last words", float(n))])
    writer.close(30)
    assert SearchIndex(tmp_path).counts() == (50, 50)  # written, then the index closed with the writer


def test_nothing_is_opened_or_started_before_the_first_write(tmp_path):
    opened: list[SearchIndex] = []
    writer = IndexWriter(lambda: opened.append(SearchIndex(tmp_path)) or opened[-1])
    assert writer.flush(1) and not opened and not (tmp_path / "search.db").exists()
    assert writer._thread is None
    writer.put(_chat(1), [Entry("1", "answer", "now", 1.0)])
    assert writer.flush(10) and len(opened) == 1
    writer.close(10)


class _Entries(list):
    """A list a weak reference can follow."""


def test_nothing_written_stays_referenced_while_the_writer_waits(tmp_path):
    """A loaded history's entries (its whole text) are freed once written, not kept by the idle thread
    until the next write."""
    import gc
    import weakref

    writer = IndexWriter(lambda: SearchIndex(tmp_path))
    entries = _Entries([Entry("1", "answer", "a long history", 1.0)])
    gone = weakref.ref(entries)
    writer.put(_chat(1), entries)
    del entries
    assert writer.flush(10)
    gc.collect()
    assert gone() is None
    writer.close(10)


def test_entries_waiting_for_a_busy_writer_are_not_the_callers_objects(tmp_path, monkeypatch):
    """What waits in the queue is packed: the entries handed in (a loaded history's, made while the
    window builds its rows) are freed at once, not held until the writer gets to them."""
    import gc
    import weakref

    index = SearchIndex(tmp_path)
    busy, release = threading.Event(), threading.Event()
    real = index.index

    def held(batches):
        batches = list(batches)
        busy.set()
        release.wait(10)
        real(batches)

    monkeypatch.setattr(index, "index", held)
    writer = IndexWriter(lambda: index)
    writer.put(_chat(1), [Entry("1", "answer", "the first", 1.0)])
    assert busy.wait(10)  # the writer is in its first write
    waiting = [Entry(str(n), "answer", f"word{n} of a history", float(n)) for n in range(3)]
    gone = [weakref.ref(entry) for entry in waiting]
    writer.put(_chat(2), waiting)
    del waiting
    gc.collect()
    try:
        assert [ref() for ref in gone] == [None, None, None]
    finally:
        release.set()
    assert writer.flush(10)
    assert index.counts() == (2, 4)
    writer.close(10)


def test_a_batch_is_unpacked_entry_by_entry_as_it_is_written(tmp_path, monkeypatch):
    """Hand-overs that waited are written in one transaction, each entry made as it is read: a batch
    unpacked whole lived through the transaction long enough for the collector's full collections to
    walk it (the search_index benchmark's GUI stand-in stalled 280 ms instead of 8)."""
    import gc

    index = SearchIndex(tmp_path)
    busy, release = threading.Event(), threading.Event()
    real_index, real_put = index.index, index._put
    most: list[int] = []

    def held(batches):
        batches = list(batches)
        busy.set()
        release.wait(10)
        real_index(batches)

    def counted_put(chat_id, entry):
        most.append(sum(1 for o in gc.get_objects() if type(o) is Entry))
        real_put(chat_id, entry)

    monkeypatch.setattr(index, "index", held)
    monkeypatch.setattr(index, "_put", counted_put)
    writer = IndexWriter(lambda: index)
    writer.put(_chat(0), [Entry("0", "answer", "the first", 0.0)])
    assert busy.wait(10)
    for n in range(1, 11):  # ten hand-overs wait: the next write takes them in one batch
        writer.put(
            _chat(n), [Entry(f"{n}-{k}", "answer", f"word{k} of chat {n}", float(k)) for k in range(50)]
        )
    release.set()
    assert writer.flush(10)
    assert index.counts() == (11, 501)
    assert max(most) <= 2, max(most)  # the one being written (and one the generator holds)
    writer.close(10)


def _sqlite_memory_used() -> int | None:
    """SQLite's own count of the memory it holds, when Python's sqlite3 uses the system library."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("sqlite3")
    if name is None:
        return None
    library = ctypes.CDLL(name)
    library.sqlite3_memory_used.restype = ctypes.c_int64
    return int(library.sqlite3_memory_used())


def test_the_idle_writer_hands_sqlites_page_cache_back(tmp_path, monkeypatch):
    """A history indexed once does not keep a page cache as large as what it wrote for the whole run,
    nor the heap pages it freed; a turn's few entries do not trim the heap each time."""
    import pytest

    from app.main.search import writer as writer_module

    trims: list[int] = []
    monkeypatch.setattr(writer_module, "trim_heap", lambda: trims.append(1))
    before = _sqlite_memory_used()
    if before is None:
        pytest.skip("this Python's sqlite3 does not report through the system library")
    writer = IndexWriter(lambda: SearchIndex(tmp_path))
    writer.put(_chat(1), [Entry("turn", "answer", "a turn's reply", 1.0)])
    assert writer.flush(10) and trims == []
    for n in range(2000):
        text = " ".join(f"w{n}x{k}" for k in range(60))
        writer.put(_chat(n % 7), [Entry(str(n), "answer", text, float(n))])
    assert writer.flush(60)
    held = (_sqlite_memory_used() or 0) - before
    assert held < 512 * 1024, f"SQLite holds {held} bytes after the writes"
    assert trims == [1] and writer.index.counts()[1] == 2001
    writer.close(10)
