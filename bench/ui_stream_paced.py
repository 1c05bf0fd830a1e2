"""`ui_stream_paced`: a 20 KB Markdown reply (headings, lists, a 40-line code block, a table) streamed at a
real model's pace (about 1,000 characters a second in 5-20 character chunks) into the real window, once
into an empty chat and once while it shows 2,000 turns. Measured while it streams: the app's CPU (this
process: Qt, QML and the pipeline; the agent is another process), the frames the window renders, the
99th percentile interval between frames, the longest GUI stall. The ratio is the history's CPU over the
empty chat's (goal <= 1.2); the bounds are printed and kept in the details. Beside them, the bare
contender (`bench/bare_stream.py`: the same reply at the same pace into one Qt Markdown `Text`, what Qt
does by itself): the CPU seconds the whole stream cost ClawQt (the worse case) over the bare window's
(`cpu_vs_bare`, goal <= 1.0)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import time

from bench.common import REPO, Result, cpu_s, median, percentile, sized
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

CHARS = sized(20_000, 2_000)
RATE = 1_000  # characters a second
TURNS = sized(2_000, 100)
GOAL = 1.2
CPU_VS_BARE_GOAL = 1.0
BOUNDS = {"cpu_fraction": 0.15, "frames_per_s": 62.0, "p99_frame_ms": 20.0, "longest_stall_ms": 33.0}


async def _stream(window) -> dict[str, float]:
    """Stream one paced reply into what the window shows now (after it settled: loading not counted)."""
    objects = window.objects
    objects.model.flush()
    await frame(window)
    await asyncio.sleep(0.5)
    swaps: list[float] = []
    window.root.frameSwapped.connect(lambda: swaps.append(time.perf_counter()))
    ended = asyncio.get_running_loop().create_future()  # awaited, not polled: polling would bill the app

    def end(_reason: str) -> None:
        if not ended.done():
            ended.set_result(None)

    objects.turn.turnEnded.connect(end)
    monitor = StallMonitor(interval_ms=5)  # coarser than the stall it looks for, cheap on the CPU
    monitor.start()
    cpu, started = cpu_s(), time.perf_counter()
    objects.turn.send(f"paced {RATE} {CHARS}")
    await asyncio.wait_for(ended, 120)
    wall, cpu = time.perf_counter() - started, cpu_s() - cpu
    objects.turn.turnEnded.disconnect(end)
    stall = monitor.stop()
    streamed = [t for t in swaps if t >= started]
    intervals = [b - a for a, b in itertools.pairwise(streamed)]
    return {
        "cpu_fraction": cpu / wall,
        "frames_per_s": len(streamed) / wall,
        "p99_frame_ms": percentile(intervals, 0.99) * 1000,
        "longest_stall_ms": stall * 1000,
        "wall_s": wall,
    }


def _bare() -> dict[str, float]:
    """The bare window's figures for the same stream (its own process: its CPU is its own)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    argv = [sys.executable, "-m", "bench.bare_stream", str(RATE), str(CHARS)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the bare stream failed: {done.stderr[-2000:]}")
    return json.loads(lines[-1])


def run(rounds: int = 1) -> Result:
    loop = qt_loop()
    runs: dict[str, list[dict[str, float]]] = {"empty": [], "history": []}

    async def scenario(cwd: str) -> None:
        window = await open_window(cwd)
        try:
            for _ in range(rounds):
                await load_into_window(window, f"big-{TURNS}")
                runs["history"].append(await _stream(window))
                window.objects.session.newChat()
                previous = window.objects.session.sessionKey
                await until(lambda: window.objects.session.sessionKey != previous)  # noqa: B023
                runs["empty"].append(await _stream(window))
        finally:
            await close_window(window)

    with temp_dir() as cwd, loop:
        loop.run_until_complete(scenario(cwd))

    def figure(case: str, name: str) -> float:
        return median([r[name] for r in runs[case]])

    ratio = figure("history", "cpu_fraction") / figure("empty", "cpu_fraction")
    # each bound holds for the worse of the two cases
    worst = {name: max(figure("empty", name), figure("history", name)) for name in BOUNDS}
    details: dict[str, object] = {
        "chars": CHARS,
        "chars_per_s": RATE,
        "history_turns": TURNS,
        "rounds": rounds,
        "cpu_fraction": round(worst["cpu_fraction"], 4),
        "frames_per_s": round(worst["frames_per_s"], 1),
        "p99_frame_ms": round(worst["p99_frame_ms"], 1),
        "longest_stall_ms": round(worst["longest_stall_ms"], 1),
        "bounds": BOUNDS,
        "bounds_met": {name: worst[name] <= bound for name, bound in BOUNDS.items()},
    }
    for case in runs:
        details[case] = {name: round(figure(case, name), 4) for name in (*BOUNDS, "wall_s")}
    bare = _bare()
    ours_cpu_s = max(figure(case, "cpu_fraction") * figure(case, "wall_s") for case in runs)
    cpu_vs_bare = ours_cpu_s / (bare["cpu_fraction"] * bare["wall_s"])
    details["bare"] = {name: round(value, 4) for name, value in bare.items()}
    details["cpu_vs_bare"] = round(cpu_vs_bare, 3)
    details["cpu_vs_bare_goal"] = CPU_VS_BARE_GOAL
    result = Result("ui_stream_paced", ratio, GOAL, details)
    result.extra_line = (
        f"ui_stream_paced cpu_fraction={worst['cpu_fraction']:.3f} frames_per_s={worst['frames_per_s']:.1f} "
        f"p99_frame_ms={worst['p99_frame_ms']:.1f} longest_stall_ms={worst['longest_stall_ms']:.1f} "
        f"cpu_vs_bare={cpu_vs_bare:.3f} (bare: cpu {bare['cpu_fraction']:.3f}, {bare['wall_s']:.1f} s, "
        f"p99 {bare['p99_frame_ms']:.0f} ms) ratio={ratio:.3f} goal={GOAL}"
    )
    return result
