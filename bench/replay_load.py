"""`replay_load`: a 1,000-turn session (20,000 updates) opened with `session/load` until ClawQt's
grouped rows are ready, vs the bare SDK client receiving the same replay. Goal: <= 2.0."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from app.main.agent_command import AgentCommand
from app.main.chat_service import ChatService
from app.renderer.pipeline import HeadlessPipeline
from bench.common import SCRIPTED_AGENT, Result, interleave, median, with_sdk_client

TURNS = 1_000
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
    service = ChatService(
        AgentCommand(SCRIPTED_AGENT, "flag", "bench"), cwd=cwd, log_path=Path(cwd) / "stderr.log"
    )
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
    with tempfile.TemporaryDirectory() as cwd:
        rows: list[int] = []

        def clawqt() -> float:
            elapsed, count = asyncio.run(_clawqt(cwd))
            rows.append(count)
            return elapsed

        times = interleave(rounds, {"sdk": lambda: asyncio.run(_sdk(cwd)), "clawqt": clawqt})
    sdk, ours = median(times["sdk"]), median(times["clawqt"])
    return Result(
        "replay_load",
        ours / sdk,
        GOAL,
        {
            "turns": TURNS,
            "updates": UPDATES,
            "rounds": rounds,
            "sdk_median_s": round(sdk, 4),
            "clawqt_median_s": round(ours, 4),
            "rows": rows[-1] if rows else None,
        },
    )
