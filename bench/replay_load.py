"""`replay_load`: a 1,000-turn session (20,000 updates) opened with `session/load` until ClawQt's
grouped rows are ready, vs the bare SDK client receiving the same replay. Goal: <= 2.0."""

from __future__ import annotations

import asyncio
import time

from app.renderer.timeline.pipeline import HeadlessPipeline
from bench.common import Result, scripted_service, sdk_vs_clawqt, sized
from bench.sdk_client import with_sdk_client

TURNS = sized(1_000, 100)
UPDATES = TURNS * 20
GOAL = 2.0
SESSION = f"big-{TURNS}"


async def _sdk(cwd: str) -> float:
    async def body(conn, client) -> float:
        client.count = 0
        client.target = UPDATES
        started = time.perf_counter()
        await conn.load_session(cwd=cwd, session_id=SESSION)
        await asyncio.wait_for(client.reached.wait(), 60)
        return time.perf_counter() - started

    return await with_sdk_client(body)


async def _clawqt(cwd: str) -> tuple[float, int]:
    service = scripted_service(cwd)
    pipeline = HeadlessPipeline(service)
    try:
        await service.start()
        started = time.perf_counter()
        timeline = await pipeline.load_session(SESSION)
        elapsed = time.perf_counter() - started
        rows = len(timeline.rows)
    finally:
        await service.shutdown()
    return elapsed, rows


def run(rounds: int = 5) -> Result:
    return sdk_vs_clawqt("replay_load", GOAL, rounds, _sdk, _clawqt, {"turns": TURNS, "updates": UPDATES})
