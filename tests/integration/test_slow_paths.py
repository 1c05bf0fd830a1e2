"""Work a hostile agent can make long stays off the loop the window runs on: closing a chat with 64 of
its terminals scans /proc once, off the loop (it scanned once or more per terminal, on it), and a 100 MB
line is parsed in a worker thread in short steps (json.loads held the loop for the whole parse), in
order: nothing the agent sent after it is handled before it. A real scripted agent each time."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.conftest import process_alive, scripted_agent_argv


class LoopStalls:
    """The longest gap between turns of the running loop while it runs (a 5 ms tick)."""

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
        return self.longest * 1000


async def _until(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


@pytest.mark.timing
async def test_closing_a_chat_with_64_agent_terminals_does_not_stall_the_loop(make_service):
    """Each terminal's kill scanned /proc (and scanned again for children forked meanwhile): 64 of them
    stalled the loop 0.3-1.6 s."""
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "term-many 64")
    assert "created 64 terminals" in envelopes.text()
    terminals = service.terminals.terminals
    pids = [t.pty.pid for t in terminals._terminals.values()]
    assert terminals.running_count == 64 and all(process_alive(p) for p in pids)
    async with LoopStalls() as stalls:
        await service.close_session(session.session_key)
        await _until(lambda: not any(process_alive(p) for p in pids), 20)
        await _until(lambda: len(terminals) == 0 and terminals.running_count == 0, 20)
    assert stalls.ms < 150, f"closing 64 terminals stalled the loop {stalls.ms:.0f} ms"


@pytest.mark.timing
async def test_a_100_mb_line_from_the_agent_is_parsed_off_the_loop_and_in_order(make_service):
    """One 100 MB session/update of text written as \\uXXXX escapes: parsing it on the loop stalled it
    300 ms and more."""
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    async with LoopStalls() as stalls:
        await service.prompt(session.session_key, "hostile-bigline 100 escaped")
    chunks = [e.notification["update"]["content"]["text"] for e in envelopes.updates("agent_message_chunk")]
    assert len(chunks) == 2 and chunks[1] == "after the big line"  # in the order sent
    assert len(chunks[0]) > 50_000_000 and chunks[0].startswith("Grüße, 世界 and Привет")
    assert stalls.ms < 250, f"the 100 MB line stalled the loop {stalls.ms:.0f} ms"
