"""`pipeline`: the same 10,000-update burst from the same agent subprocess through (a) a bare SDK
client that only counts updates and (b) ClawQt's headless pipeline: our transport, routing, reducer,
grouping and row changes. Goal: b/a <= 1.5."""

from __future__ import annotations

import time

import acp

from app.renderer.timeline.pipeline import HeadlessPipeline
from bench.common import Result, scripted_service, sdk_vs_clawqt, sized
from bench.sdk_client import with_sdk_client

UPDATES = sized(10_000, 1_000)
GOAL = 1.5


async def _sdk(cwd: str) -> float:
    async def body(conn, client) -> float:
        session = await conn.new_session(cwd=cwd)
        client.count = 0
        started = time.perf_counter()
        await conn.prompt(session_id=session.session_id, prompt=[acp.text_block(f"blast {UPDATES}")])
        elapsed = time.perf_counter() - started
        assert client.count >= UPDATES, client.count
        return elapsed

    return await with_sdk_client(body)


async def _clawqt(cwd: str) -> tuple[float, int]:
    service = scripted_service(cwd)
    pipeline = HeadlessPipeline(service)
    try:
        timeline = await pipeline.new_session()
        started = time.perf_counter()
        await pipeline.prompt(timeline.session_key, f"blast {UPDATES}")
        elapsed = time.perf_counter() - started
        rows = len(timeline.rows)
    finally:
        await service.shutdown()
    assert pipeline.change_count >= UPDATES, pipeline.change_count
    return elapsed, rows


def run(rounds: int = 5) -> Result:
    return sdk_vs_clawqt("pipeline", GOAL, rounds, _sdk, _clawqt, {"updates": UPDATES})
