"""`ui_stream_history`: stream 5,000 chunks into the real window while it shows a 2,000-turn session vs
while it shows an empty one. Ratios of the total time and of the longest GUI stall. Goal <= 1.25; the
longest stall itself is bounded too (under two frames, printed beside the ratio)."""

from __future__ import annotations

import asyncio
import time

from bench.common import Result, median, sized
from bench.ui_common import (
    StallMonitor,
    close_window,
    frame,
    load_into_window,
    open_window,
    qt_loop,
    temp_dir,
    until,
)

CHUNKS = sized(5_000, 500)
TURNS = sized(2_000, 100)
GOAL = 1.25
STALL_BOUND_MS = 33.0  # two frames: the longest GUI stall of either case, printed beside the ratio


async def _stream(window) -> tuple[float, float]:
    """Stream into what the window shows now (after its first frame settled: loading is not measured)."""
    objects = window.objects
    objects.model.flush()
    await frame(window)
    await asyncio.sleep(0.3)
    monitor = StallMonitor()
    ended: list[str] = []
    objects.turn.turnEnded.connect(ended.append)
    monitor.start()
    started = time.perf_counter()
    objects.turn.send(f"blast {CHUNKS}")
    await until(lambda: ended)
    objects.model.flush()
    await until(lambda: not objects.model.views.presenter.rows_behind)  # the whole reply is on screen
    elapsed = time.perf_counter() - started
    return elapsed, monitor.stop()


def run(rounds: int = 3) -> Result:
    loop = qt_loop()
    totals = {"empty": [], "history": []}
    stalls = {"empty": [], "history": []}

    async def scenario(cwd: str) -> None:
        window = await open_window(cwd)
        try:
            for _ in range(rounds):
                window.objects.session.newChat()
                previous = window.objects.session.sessionKey
                await until(lambda: window.objects.session.sessionKey != previous)  # noqa: B023
                total, stall = await _stream(window)
                totals["empty"].append(total)
                stalls["empty"].append(stall)
                await load_into_window(window, f"big-{TURNS}")
                total, stall = await _stream(window)
                totals["history"].append(total)
                stalls["history"].append(stall)
        finally:
            await close_window(window)

    with temp_dir() as cwd, loop:
        loop.run_until_complete(scenario(cwd))
    total_ratio = median(totals["history"]) / median(totals["empty"])
    stall_ratio = median(stalls["history"]) / median(stalls["empty"])
    result = Result(
        "ui_stream_history",
        max(total_ratio, stall_ratio),
        GOAL,
        {
            "chunks": CHUNKS,
            "history_turns": TURNS,
            "rounds": rounds,
            "total_ratio": round(total_ratio, 3),
            "stall_ratio": round(stall_ratio, 3),
            "empty_total_s": round(median(totals["empty"]), 3),
            "history_total_s": round(median(totals["history"]), 3),
            "empty_longest_stall_ms": round(median(stalls["empty"]) * 1000, 1),
            "history_longest_stall_ms": round(median(stalls["history"]) * 1000, 1),
            "stall_bound_ms": STALL_BOUND_MS,
            "stall_bound_met": max(map(median, stalls.values())) * 1000 < STALL_BOUND_MS,
        },
    )
    result.extra_line = (
        f"ui_stream_history total_ratio={total_ratio:.3f} stall_ratio={stall_ratio:.3f} "
        f"longest_stall_ms={median(stalls['history']) * 1000:.1f} (bound < {STALL_BOUND_MS:.0f}) goal={GOAL}"
    )
    return result
