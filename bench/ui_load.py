"""`ui_load`: a 1,000-turn session from `session/load` to the first painted frame of the real window vs
the headless pipeline (transport, routing, reducer, grouping) on the same replay. Goal <= 1.5."""

from __future__ import annotations

import asyncio
import time

from app.renderer.timeline.pipeline import HeadlessPipeline
from bench.common import Result, median, scripted_service, sized
from bench.ui_common import close_window, frame, open_window, qt_loop, temp_dir, until

TURNS = sized(1_000, 100)
GOAL = 1.5


def run(rounds: int = 3) -> Result:
    loop = qt_loop()
    times: dict[str, list[float]] = {"window": [], "headless": []}

    async def scenario(cwd: str) -> None:
        window = await open_window(cwd)
        service = scripted_service(cwd)
        pipeline = HeadlessPipeline(service)
        await service.start()
        try:
            session = f"big-{TURNS}"
            objects = window.objects
            for round_index in range(rounds):
                if objects.session.sessionKey == session:
                    objects.session.newChat()
                    await until(lambda: objects.session.sessionKey != session)
                started = time.perf_counter()
                objects.session.openSession(session)
                await until(lambda: objects.session.sessionKey == session, 60)
                await frame(window)
                times["window"].append(time.perf_counter() - started)
                started = time.perf_counter()
                await pipeline.load_session(session)
                times["headless"].append(time.perf_counter() - started)
                await asyncio.sleep(0.05 * round_index)
        finally:
            await service.shutdown()
            await close_window(window)

    with temp_dir() as cwd, loop:
        loop.run_until_complete(scenario(cwd))
    ratio = median(times["window"]) / median(times["headless"])
    return Result(
        "ui_load",
        ratio,
        GOAL,
        {
            "turns": TURNS,
            "rounds": rounds,
            "window_median_s": round(median(times["window"]), 4),
            "headless_median_s": round(median(times["headless"]), 4),
        },
    )
