"""`loop_stalls`: work a hostile agent can make long, measured as the longest gap between turns of the
asyncio loop the window runs on (a 5 ms tick), headless with the scripted agent: closing a chat with 64
of its terminals (a /proc scan per terminal, on the loop, stalled it 0.3-1.6 s), 30 terminals ending
together (ptyprocess's close slept 0.1 s each, on the loop), one 100 MB line of `\\uXXXX` escapes (parsed in
one go: 300 ms and more); and the wait of a thread-pool call while 12 processes that closed their
terminal keep running (each held a worker of the pool). Each figure against its goal (100 ms); the
ratio is the worst of them, goal <= 1.0."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Result, TerminalEndings, median, scripted_service, sized

GOAL_MS = 100.0
TERMINALS = sized(64, 8)
ENDING = sized(30, 6)
BIG_LINE_MB = sized(100, 5)
DETACHED = sized(12, 6)


class LoopStalls:
    """The longest gap between turns of the running loop while the block runs."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    async def __aenter__(self) -> LoopStalls:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        await asyncio.sleep(0)  # ticking from now on
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()

    @property
    def ms(self) -> float:
        return round(self.longest * 1000, 1)


async def _until(predicate: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the benchmark's condition was not met")
        await asyncio.sleep(0.02)


async def _closing_terminals(cwd: str) -> float:
    service = scripted_service(cwd)
    try:
        session = await service.new_session()
        await service.prompt(session.session_key, f"term-many {TERMINALS}")
        terminals = service.terminals.terminals
        assert terminals.running_count == TERMINALS, terminals.running_count
        async with LoopStalls() as stalls:
            await service.close_session(session.session_key)
            await _until(lambda: len(terminals) == 0 and terminals.running_count == 0)
        return stalls.ms
    finally:
        await service.shutdown()


async def _terminals_ending(cwd: str) -> float:
    from app.main.terminals.client import ClientTerminals

    endings = TerminalEndings(ENDING)
    terminals = ClientTerminals(endings)
    try:
        for _ in range(ENDING):  # started before the measure (each start is a fork on the loop)
            terminals.create("s", cwd, "sleep", ["1"])
        async with LoopStalls() as stalls:
            await asyncio.wait_for(endings.all_ended.wait(), 60)
        return stalls.ms
    finally:
        terminals.shutdown()


async def _big_line(cwd: str) -> float:
    service = scripted_service(cwd)
    try:
        session = await service.new_session()
        async with LoopStalls() as stalls:
            await service.prompt(session.session_key, f"hostile-bigline {BIG_LINE_MB} escaped")
        return stalls.ms
    finally:
        await service.shutdown()


async def _pool_wait(cwd: str) -> float:
    """A thread-pool call's wait while processes that closed their terminal keep running."""
    from app.main.terminals.client import ClientTerminals

    terminals = ClientTerminals()
    try:
        for _ in range(DETACHED):
            terminals.create("s", cwd, "bash", ["-c", "exec >/dev/null 2>&1 </dev/null; sleep 300"])
        await asyncio.sleep(0.5)  # their terminals closed: each one is waited for from now on
        started = time.perf_counter()
        await asyncio.wait_for(asyncio.to_thread(lambda: None), 30)
        return round((time.perf_counter() - started) * 1000, 1)
    finally:
        terminals.shutdown()


CASES = {
    "close_64_terminals_stall_ms": _closing_terminals,
    "terminals_ending_stall_ms": _terminals_ending,
    "big_line_stall_ms": _big_line,
    "pool_wait_ms": _pool_wait,
}


def run(rounds: int = 3) -> Result:
    figures: dict[str, list[float]] = {name: [] for name in CASES}
    with tempfile.TemporaryDirectory(prefix="loop-stalls-") as cwd:
        Path(cwd).mkdir(exist_ok=True)
        for _ in range(rounds):
            for name, case in CASES.items():
                figures[name].append(asyncio.run(case(cwd)))
    medians = {name: median(values) for name, values in figures.items()}
    worst = max(medians, key=lambda name: medians[name])
    ratio = medians[worst] / GOAL_MS
    shown = " ".join(f"{name}={value:.0f}" for name, value in medians.items())
    return Result(
        "loop_stalls",
        ratio,
        1.0,
        {"goal_ms": GOAL_MS, "rounds": rounds, "terminals": TERMINALS, "ending": ENDING, **medians},
        extra_line=f"loop_stalls ratio={ratio:.3f} {shown} goal=1.0",
    )
