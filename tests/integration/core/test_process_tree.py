"""Every process ClawQt starts ends with what owns it, also those that left their process group
(setsid, double forks): a client terminal's with its session and at quit, the agent's at quit; the
number of terminals and the output an agent may ask to keep are capped; a process that closed its
terminal but keeps running ties up no thread; closing terminals does not stall the loop."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.main.core import process_tree
from app.main.terminals.client import MAX_OUTPUT_LIMIT, ClientTerminals, TerminalError
from bench.common import TerminalEndings
from tests.conftest import process_alive, scripted_agent_argv
from tests.waits import until


async def _pids(folder: Path, *names: str) -> list[int]:
    def written() -> list[str] | None:
        texts = [(folder / n).read_text().strip() if (folder / n).exists() else "" for n in names]
        return texts if all(texts) else None

    return [int(t) for t in await until(written, 10)]


async def _gone(pids: list[int], timeout: float = 30.0) -> list[int]:
    """The processes of `pids` still running once all ended or `timeout` passed (only a kill that
    missed them reaches it)."""
    with contextlib.suppress(AssertionError):
        await until(lambda: not any(process_alive(p) for p in pids), timeout)
    return [p for p in pids if process_alive(p)]


async def _escaped(make_service, tmp_path):
    service, _ = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "term-escape")
    pids = await _pids(tmp_path, "escaped.pid", "orphan.pid")
    assert all(process_alive(p) for p in pids)
    return service, session, pids


async def test_a_terminals_escaped_processes_end_when_its_session_closes(make_service, tmp_path):
    service, session, pids = await _escaped(make_service, tmp_path)
    await service.close_session(session.session_key)
    assert await _gone(pids) == []


async def test_a_terminals_escaped_processes_end_when_the_app_quits(make_service, tmp_path):
    service, _session, pids = await _escaped(make_service, tmp_path)
    await service.shutdown()
    assert await _gone(pids) == []


async def test_a_process_killed_in_the_middle_of_its_exec_is_found_all_the_same():
    """/proc shows an empty environment for a process in the middle of an exec (`setsid` becoming its
    command, right after it left the group): a kill at that moment used to miss it for good."""
    scope = process_tree.new_scope("exec-race")
    env = process_tree.tagged_env(dict(os.environ), scope)
    survivors = []
    for _ in range(10):
        script = "setsid sleep 300 >/dev/null & echo $!"
        shell = subprocess.Popen(["bash", "-c", script], stdout=subprocess.PIPE, env=env)
        assert shell.stdout is not None
        pid = int(shell.stdout.readline())  # at once: the child is still on its way to `sleep`
        process_tree.kill_tagged(scope)
        survivors += await _gone([pid])
        shell.communicate()
    process_tree.kill_tagged(scope)
    assert survivors == []


async def test_the_agents_escaped_processes_end_when_the_app_quits(make_service, tmp_path):
    service, _ = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "agent-escape")
    [pid] = await _pids(tmp_path, "agent-escaped.pid")
    assert process_alive(pid)
    await service.shutdown()
    assert await _gone([pid]) == []


async def test_terminals_are_capped_and_so_is_the_output_an_agent_asks_to_keep(tmp_path, monkeypatch):
    monkeypatch.setattr("app.main.terminals.client.MAX_RUNNING", 2)
    terminals = ClientTerminals()
    try:
        first = terminals.create("s", str(tmp_path), "sleep", ["30"], output_byte_limit=10**12)
        terminals.create("s", str(tmp_path), "sleep", ["30"])
        with pytest.raises(TerminalError) as info:
            terminals.create("s", str(tmp_path), "sleep", ["30"])
        assert "2 terminals are running already" in str(info.value)
        assert terminals._terminals[first].limit == MAX_OUTPUT_LIMIT
    finally:
        terminals.shutdown()


async def test_processes_that_closed_their_terminal_tie_up_no_thread_of_the_shared_pool(tmp_path):
    """Each used to hold a worker of the default executor until it exited: a few of them and every
    file read or preview (asyncio.to_thread) waited. Every worker of the pool is free: as many calls
    as it has workers all run at once (each waits for all the others at a barrier)."""
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=4)
    loop.set_default_executor(pool)  # the pool ClawQt's waits would take workers from
    terminals = ClientTerminals()
    try:
        for _ in range(12):  # three times the pool
            terminals.create("s", str(tmp_path), "bash", ["-c", "exec >/dev/null 2>&1 </dev/null; sleep 300"])
        # their terminals closed at once (exec >/dev/null): the output ended, each is now waited for
        deadline = time.monotonic() + 30  # only a hang reaches it
        while len(terminals._reapers) < 12:
            assert time.monotonic() < deadline, "their closed terminals were never noticed"
            await asyncio.sleep(0.02)  # the poll's interval
        everyone = threading.Barrier(4, timeout=30)  # only a hang reaches the ceilings
        calls = asyncio.gather(*(asyncio.to_thread(everyone.wait) for _ in range(4)))
        try:
            met = await asyncio.wait_for(calls, 30)
        except TimeoutError:
            everyone.abort()  # the calls that did start end now; the others never started
            raise AssertionError("a worker of the pool is tied up: the calls never all ran") from None
        assert sorted(met) == [0, 1, 2, 3]
    finally:
        terminals.shutdown()


async def test_many_terminals_ending_never_sleep_on_the_loop(tmp_path, monkeypatch):
    """Closing a PTY slept 0.1 s on the loop (ptyprocess's delay after close), for each terminal
    (bench/loop_stalls.py measures the loop's stall)."""
    endings = TerminalEndings(30)
    slept_on_the_loop: list[float] = []
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        if threading.current_thread() is threading.main_thread():
            slept_on_the_loop.append(seconds)
        real_sleep(seconds)  # the sleep being recorded, as asked

    terminals = ClientTerminals(endings)
    monkeypatch.setattr(time, "sleep", sleep)
    try:
        for _ in range(endings.expected):
            terminals.create("s", str(tmp_path), "true")
        await asyncio.wait_for(endings.all_ended.wait(), 60)
    finally:
        terminals.shutdown()
    assert not slept_on_the_loop, f"{len(slept_on_the_loop)} sleeps on the loop's thread"
