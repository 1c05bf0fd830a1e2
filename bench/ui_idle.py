"""`ui_idle`: CPU seconds the app process uses over 10 s of idle with 2,000 turns shown. Goal < 0.1."""

from __future__ import annotations

import asyncio
import time

from bench.common import Result, sized
from bench.ui_common import close_window, frame, load_into_window, open_window, qt_loop, temp_dir

TURNS = sized(2_000, 100)
IDLE_S = float(sized(10, 2))
GOAL = 0.1


def run(rounds: int = 1) -> Result:
    loop = qt_loop()
    measured: dict[str, float] = {}

    async def scenario(cwd: str) -> None:
        window = await open_window(cwd)
        try:
            await load_into_window(window, f"big-{TURNS}")
            window.objects.model.flush()
            await frame(window)
            await asyncio.sleep(1.0)  # let the collapse timers and late frames settle
            cpu = time.process_time()
            await asyncio.sleep(IDLE_S)
            measured["cpu"] = time.process_time() - cpu
            measured["rows"] = window.objects.model.rowCount()
        finally:
            await close_window(window)

    with temp_dir() as cwd, loop:
        loop.run_until_complete(scenario(cwd))
    result = Result(
        "ui_idle",
        measured["cpu"],
        GOAL,
        {"idle_s": IDLE_S, "turns": TURNS, "rows": measured["rows"], "cpu_s": round(measured["cpu"], 4)},
    )
    result.extra_line = f"ui_idle cpu_s={measured['cpu']:.3f} goal={GOAL}"
    return result
