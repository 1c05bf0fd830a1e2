"""`search_index`: the search index over every chat (app/main/search/), on 2,000 generated chats of
200 turns each (a user's message and an answer a turn, one in ten with a tool's output; words drawn
from a 20,000-word vocabulary with a Zipf law, as text is).

Prints the time to index it all through the writer thread, the database's size against the text's, the
95th percentile of the first results' latency (20 hits with their snippets) for a common word, a rare
word and a phrase, and the longest stall of a thread standing for the GUI thread, which hands each chat
to the writer on a 2 ms tick while the writer indexes (the stall: the longest gap between its ticks).
Goals: first results < 50 ms, stall <= 16 ms, database < 1.5x the text. The ratio is the worst of
p95 / 50 ms, stall / 16 ms and size ratio / 1.5; goal <= 1.0."""

from __future__ import annotations

import random
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from bench.common import Result, sized

if TYPE_CHECKING:
    from app.main.search.index import Chat, Entry

CHATS = sized(2_000, 40)
TURNS = sized(200, 20)
VOCABULARY = 20_000
QUERIES = sized(40, 5)
TICK_S = 0.002
GOALS = {"p95_ms": 50.0, "stall_ms": 16.0, "size_ratio": 1.5}
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def _vocabulary(rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
    return sorted(words, key=lambda w: (len(w), w))  # short words are the common ones, as in a language


def _corpus(rng: random.Random, words: list[str]) -> Iterator[tuple[Chat, list[Entry]]]:
    from app.main.search.index import Chat, Entry

    weights = [1 / (rank + 1) for rank in range(len(words))]
    cumulative = list(_running(weights))

    def text(count: int) -> str:
        picked = rng.choices(words, cum_weights=cumulative, k=count)
        for at in range(12, count, rng.randint(9, 16)):
            picked[at] += "."
        return " ".join(picked)

    for n in range(CHATS):
        chat = Chat(f"chat-{n}", ("Claude", "Codex", "OpenClaw")[n % 3], f"/work/p{n % 50}", f"Chat {n}", n)
        entries = []
        for turn in range(TURNS):
            at = 1_700_000_000 + n * 10_000 + turn
            entries.append(Entry(f"{n}-{turn}-u", "message", text(rng.randint(8, 30)), at))
            entries.append(Entry(f"{n}-{turn}-a", "answer", text(rng.randint(60, 200)), at))
            if turn % 10 == 0:
                entries.append(Entry(f"{n}-{turn}-t", "output", text(rng.randint(20, 80)), at))
        yield chat, entries


def _running(values: list[float]) -> Iterator[float]:
    total = 0.0
    for value in values:
        total += value
        yield total


def _index_all(folder: Path, corpus: list[tuple[Chat, list[Entry]]]) -> tuple[float, float, int]:
    """Seconds to index it all, the GUI stand-in's longest stall (ms), the text's bytes."""
    from app.main.search.index import SearchIndex
    from app.main.search.writer import IndexWriter

    writer = IndexWriter(lambda: SearchIndex(folder))
    done = threading.Event()
    text_bytes = sum(len(e.text.encode()) for _chat, entries in corpus for e in entries)
    started = last = time.perf_counter()
    stall = 0.0
    tick = started
    handed = 0
    while not done.is_set():
        if handed < len(corpus):
            writer.put(*corpus[handed])
            handed += 1
            if handed == len(corpus):
                threading.Thread(target=lambda: (writer.flush(), done.set()), daemon=True).start()
        tick += TICK_S
        delay = tick - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        now = time.perf_counter()
        stall = max(stall, now - last - TICK_S)
        last = now
        tick = max(tick, now)
    elapsed = time.perf_counter() - started
    writer.close()
    return elapsed, stall * 1000, text_bytes


def _size(folder: Path) -> int:
    import sqlite3

    db = sqlite3.connect(folder / "search.db")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return sum(p.stat().st_size for p in folder.glob("search.db*"))


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _latencies(folder: Path, queries: list[str]) -> float:
    from app.main.search.index import SearchIndex

    index = SearchIndex(folder)
    index.search(queries[0], limit=20)  # the first opens the file's pages: not a query's cost
    times = []
    for query in queries:
        started = time.perf_counter()
        hits = index.search(query, limit=20)
        times.append((time.perf_counter() - started) * 1000)
        assert hits, f"nothing found for {query!r}"
    index.close()
    return _p95(times)


def run(rounds: int = 1) -> Result:
    rng = random.Random(39)
    words = _vocabulary(rng)
    corpus = list(_corpus(rng, words))
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        elapsed, stall_ms, text_bytes = _index_all(folder, corpus)
        size = _size(folder)
        answers = [e.text for _chat, entries in corpus for e in entries if e.kind == "answer"]
        seen = {w.rstrip(".") for text in rng.sample(answers, min(2000, len(answers))) for w in text.split()}
        common = [w + " " for w in words[:QUERIES]]
        rare = [w + " " for w in [w for w in reversed(words) if w in seen][:QUERIES]]
        phrases = []
        for text in rng.sample(answers, QUERIES):
            pair = text.split()[3:5]
            phrases.append('"' + " ".join(w.rstrip(".") for w in pair) + '"')
        p95 = {
            "common": _latencies(folder, common),
            "rare": _latencies(folder, rare),
            "phrase": _latencies(folder, phrases),
        }
    size_ratio = size / text_bytes
    worst_p95 = max(p95.values())
    parts = {
        "p95_ms": worst_p95 / GOALS["p95_ms"],
        "stall_ms": stall_ms / GOALS["stall_ms"],
        "size_ratio": size_ratio / GOALS["size_ratio"],
    }
    ratio = max(parts.values())
    entries = sum(len(entries) for _chat, entries in corpus)
    return Result(
        "search_index",
        ratio,
        1.0,
        {
            "chats": CHATS,
            "turns": TURNS,
            "entries": entries,
            "text_mb": round(text_bytes / 2**20, 1),
            "index_s": round(elapsed, 1),
            "database_mb": round(size / 2**20, 1),
            "size_ratio": round(size_ratio, 3),
            "p95_ms": {name: round(value, 1) for name, value in p95.items()},
            "longest_stall_ms": round(stall_ms, 1),
        },
        extra_line=f"search_index ratio={ratio:.3f} goal=1.0 ({CHATS} chats x {TURNS} turns, {entries:,} "
        "entries, "
        f"{text_bytes / 2**20:.0f} MB of text indexed in {elapsed:.1f} s; database {size / 2**20:.0f} MB = "
        f"{size_ratio:.2f}x the text (goal < 1.5); first results p95: common {p95['common']:.1f} ms, rare "
        f"{p95['rare']:.1f} ms, phrase {p95['phrase']:.1f} ms (goal < 50); longest stall of the GUI "
        f"stand-in {stall_ms:.1f} ms (goal <= 16))",
    )
