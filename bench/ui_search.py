"""`ui_search`: find in the chat (Ctrl+F) in the real window. The time from a query to its first hit
drawn (the row brought in and marked, the next frame painted) in a 2,000-turn chat over the same in a
20-turn chat, the query matching only the newest turn (goal <= 2.0: the first hit must not depend on the
chat's length). Also timed in the 2,000-turn chat, and printed: counting every match of a query found
in every turn (a tool's output: 2,000 matches), and a query found nowhere (every row read)."""

from __future__ import annotations

import time

from bench.common import Result, median, sized
from bench.ui_common import close_window, frame, load_into_window, open_window, qt_loop, temp_dir, until

SMALL = 20
BIG = sized(2_000, 200)
GOAL = 2.0


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

    with temp_dir() as cwd, loop:
        loop.run_until_complete(scenario(cwd))
    ratio = median(first[BIG]) / median(first[SMALL])
    details = {
        "turns": BIG,
        "small_turns": SMALL,
        "rounds": rounds,
        "first_hit_small_ms": round(median(first[SMALL]) * 1000, 1),
        "first_hit_big_ms": round(median(first[BIG]) * 1000, 1),
        "count_all_matches_ms": round(median(counts["all_matches"]) * 1000, 1),
        "all_matches": found.get("all_matches", 0),
        "count_no_match_ms": round(median(counts["no_match"]) * 1000, 1),
    }
    result = Result("ui_search", ratio, GOAL, details)
    result.extra_line = (
        f"ui_search ratio={ratio:.3f} goal={GOAL} first hit {details['first_hit_big_ms']} ms "
        f"({BIG} turns) vs {details['first_hit_small_ms']} ms ({SMALL}); counting "
        f"{found.get('all_matches', 0)} matches {details['count_all_matches_ms']} ms, "
        f"a query found nowhere {details['count_no_match_ms']} ms"
    )
    return result
