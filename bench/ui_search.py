"""`ui_search`: find in the chat (Ctrl+F) in the real window. The time from a query to its first hit
drawn (the row brought in and marked, the next frame painted) in a 2,000-turn chat over the same in a
20-turn chat, the query matching only the newest turn (goal <= 2.0: the first hit must not depend on the
chat's length). Also timed in the 2,000-turn chat, and printed: counting every match of a query found
in every turn (a tool's output: 2,000 matches), and a query found nowhere (every row read).

The big reply: one 50 MB reply of words made of "a" (the scripted agent's `hostile-find`), in a window
of its own, and the query "a" (42 million matches in one item): the time to the first hit drawn, to the
whole count, the longest GUI stall meanwhile (goal < 100 ms) and the peak memory added; then the
longest stalls of taking the marks off (find closed), of marking a long shown part of it (Show more 20
times, a new query) and of taking those marks off (each goal < 100 ms too: the longest stall counts).
The ratio is the first-hit ratio, or the big reply's longest stall over 50 ms when that is worse (so
the stall's 100 ms is the same goal of 2.0)."""

from __future__ import annotations

import asyncio
import time

from bench.common import Result, median, sized
from bench.quick_items import drawn_marks, find_all, plain_text
from bench.ui_common import (
    StallMonitor,
    close_window,
    frame,
    load_into_window,
    open_window,
    qt_loop,
    reset_peak,
    resident_mb,
    temp_dir,
    until,
)

SMALL = 20
BIG = sized(2_000, 200)
GOAL = 2.0
BIG_REPLY_MB = sized(50, 1)
SHOW_MORE = sized(20, 2)  # Show more clicks before marking the long shown part
MARKED_EDITS = sized(10, 1)  # text edits marked at least
STALL_GOAL_S = 0.100  # the big reply's longest stall; its ratio is stall / (STALL_GOAL_S / GOAL)


async def _first_hit_s(window, query: str) -> float:
    """Query typed -> its first hit drawn."""
    search = window.objects.search
    search.setQuery("")
    await frame(window)
    hops: list[int] = []

    search.goTo.connect(lambda row, _scope, _index: hops.append(row))
    started = time.perf_counter()
    search.setQuery(query)
    await until(lambda: bool(hops), 30)
    await frame(window)  # the row shown and marked
    await frame(window)  # the view scrolled to the mark after the row's layout settled
    took = time.perf_counter() - started
    search.goTo.disconnect()
    return took


async def _count_s(window, query: str) -> tuple[float, int]:
    """Query typed -> every match counted (the count runs in slices between frames)."""
    search = window.objects.search
    search.setQuery("")
    await frame(window)
    started = time.perf_counter()
    search.setQuery(query)
    await until(lambda: search.complete, 60)
    return time.perf_counter() - started, search.count


async def _big_query(window) -> tuple[float, float, float, float]:
    """Query "a" typed -> (its first hit drawn, every match counted, the longest stall meanwhile, the
    peak memory added in MB)."""
    search = window.objects.search
    search.setQuery("")
    await asyncio.sleep(0.3)  # the previous query's marks taken off
    hops: list[float] = []

    search.goTo.connect(lambda *_: hops.append(time.perf_counter()))
    reset_peak()
    base = resident_mb() or 0.0
    monitor = StallMonitor()
    monitor.start()
    started = time.perf_counter()
    search.setQuery("a")
    await until(lambda: bool(hops), 120)
    await frame(window)
    await frame(window)
    first = time.perf_counter() - started
    await until(lambda: search.complete, 120)
    counted = time.perf_counter() - started
    for _ in range(3):
        await frame(window)
    await asyncio.sleep(0.2)  # the marks shown
    stall = monitor.stop()
    search.goTo.disconnect()
    return first, counted, stall, (resident_mb("VmHWM") or 0.0) - base


def _marked(window) -> int:
    """How many of the conversation's text edits have find's marks drawn."""
    from PySide6.QtQuick import QQuickItem

    from app.renderer.qt.conversation.search_marks import text_edits

    return sum(bool(drawn_marks(edit)) for edit in text_edits(window.root.findChild(QQuickItem, "timeline")))


def _shown_chars(window) -> int:
    return sum(len(plain_text(edit)) for edit in find_all(window.root.contentItem(), "proseText"))


async def _stall_until(window, action, done, timeout: float = 60) -> float:
    """The longest GUI stall from `action()` until `done()` and a few frames more, in ms."""
    monitor = StallMonitor()
    monitor.start()
    action()
    await until(done, timeout)
    for _ in range(2):
        await frame(window)
    return monitor.stop() * 1000


async def _big_marks(window) -> dict[str, float]:
    """Find's marks on a long shown part of the big reply: taken off (find closed), the part grown by
    Show more, marked again for a new query, taken off again: the longest stall of each, in ms."""
    search = window.objects.search
    off = await _stall_until(window, lambda: search.setOpen(False), lambda: not _marked(window))
    for _ in range(SHOW_MORE):
        shown = _shown_chars(window)
        find_all(window.root.contentItem(), "showMore")[0].clicked.emit()
        await until(lambda: _shown_chars(window) > shown, 60)  # noqa: B023
    search.setOpen(True)
    search.setQuery("a")
    await until(lambda: search.complete, 120)
    marked = await _stall_until(
        window, lambda: search.setQuery("aa"), lambda: search.complete and _marked(window) > MARKED_EDITS
    )
    again_off = await _stall_until(window, lambda: search.setOpen(False), lambda: not _marked(window))
    return {"marks_off_ms": off, "marking_long_part_ms": marked, "marks_off_long_part_ms": again_off}


async def _big_reply(
    cwd: str, rounds: int
) -> tuple[list[tuple[float, float, float, float]], dict[str, float]]:
    """One huge reply in a window of its own, then `_big_query` `rounds` times and `_big_marks`."""
    window = await open_window(cwd)
    try:
        objects = window.objects
        ended: list[str] = []
        objects.turn.turnEnded.connect(ended.append)
        objects.turn.send(f"hostile-find {BIG_REPLY_MB}")
        await until(lambda: ended, 120)
        objects.model.flush()
        await until(lambda: not objects.model.views.presenter.rows_behind, 60)
        await frame(window)
        objects.search.setOpen(True)
        queries = [await _big_query(window) for _ in range(rounds)]
        return queries, await _big_marks(window)
    finally:
        await close_window(window)


def run(rounds: int = 3) -> Result:
    loop = qt_loop()
    first: dict[int, list[float]] = {SMALL: [], BIG: []}
    counts: dict[str, list[float]] = {"all_matches": [], "no_match": []}
    found: dict[str, int] = {}

    async def scenario(cwd: str) -> None:
        window = await open_window(cwd)
        try:
            window.objects.search.setOpen(True)
            for turns in (SMALL, BIG):
                await load_into_window(window, f"big-{turns}")
                await until(lambda: len(window.objects.model.rows) > 5 * turns, 60)  # noqa: B023
                await frame(window)
                for round_index in range(rounds):
                    first[turns].append(await _first_hit_s(window, f"question {turns - 1 - round_index}?"))
            for name, query in (("all_matches", "3 hits"), ("no_match", "words found nowhere")):
                for _ in range(rounds):
                    took, count = await _count_s(window, query)
                    counts[name].append(took)
                    found[name] = count
        finally:
            await close_window(window)

    with temp_dir() as cwd, temp_dir() as big_cwd, loop:  # the big reply: a data folder of its own
        loop.run_until_complete(scenario(cwd))
        measured, marks = loop.run_until_complete(_big_reply(big_cwd, rounds))
    big_first, big_count, big_stall, big_peak = (list(column) for column in zip(*measured, strict=True))
    first_ratio = median(first[BIG]) / median(first[SMALL])
    stall_s = max(median(big_stall), max(marks.values()) / 1000)
    ratio = max(first_ratio, stall_s / (STALL_GOAL_S / GOAL))
    details = {
        "turns": BIG,
        "small_turns": SMALL,
        "rounds": rounds,
        "first_hit_small_ms": round(median(first[SMALL]) * 1000, 1),
        "first_hit_big_ms": round(median(first[BIG]) * 1000, 1),
        "count_all_matches_ms": round(median(counts["all_matches"]) * 1000, 1),
        "all_matches": found.get("all_matches", 0),
        "count_no_match_ms": round(median(counts["no_match"]) * 1000, 1),
        "first_hit_ratio": round(first_ratio, 3),
        "big_reply_mb": BIG_REPLY_MB,
        "big_reply_first_hit_ms": round(median(big_first) * 1000, 1),
        "big_reply_count_ms": round(median(big_count) * 1000, 1),
        "big_reply_longest_stall_ms": round(stall_s * 1000, 1),
        "big_reply_stall_goal_ms": STALL_GOAL_S * 1000,
        "big_reply_peak_mb": round(median(big_peak), 1),
        **{f"big_reply_{name}": round(value, 1) for name, value in marks.items()},
    }
    result = Result("ui_search", ratio, GOAL, details)
    result.extra_line = (
        f"ui_search ratio={ratio:.3f} goal={GOAL} first hit {details['first_hit_big_ms']} ms "
        f"({BIG} turns) vs {details['first_hit_small_ms']} ms ({SMALL}); counting "
        f"{found.get('all_matches', 0)} matches {details['count_all_matches_ms']} ms, "
        f"a query found nowhere {details['count_no_match_ms']} ms; a {BIG_REPLY_MB} MB reply: first hit "
        f"{details['big_reply_first_hit_ms']} ms, counted {details['big_reply_count_ms']} ms, longest "
        f"stall {details['big_reply_longest_stall_ms']} ms (goal < {STALL_GOAL_S * 1000:.0f}), peak "
        f"+{details['big_reply_peak_mb']} MB"
    )
    return result
