"""Agent process ownership: full environment, own process group, stderr log under the log dir, no
orphans on quit, restart backoff, and `--record` traces."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import sys
import time

import pytest

from app.main.acp.recorder import TraceRecorder
from app.main.agents.connection import BACKOFF_STEPS, backoff_delay
from tests.conftest import SCRIPTED_AGENT, process_alive, scripted_agent_argv


def _agent_with_grandchild(pidfile) -> str:
    """A shell line: start a long `sleep` grandchild (its pid written to pidfile), then become the agent."""
    return (
        f"sleep 300 & echo $! > {shlex.quote(str(pidfile))}; "
        f"exec {shlex.quote(sys.executable)} {shlex.quote(str(SCRIPTED_AGENT))}"
    )


async def test_full_environment_is_passed_to_the_agent(make_service, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAWQT_TEST_MARK", "passed-through-42")
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    assert "env mark: passed-through-42" in (tmp_path / "agent-stderr.log").read_text()


async def test_agent_runs_in_its_own_process_group(make_service):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    pid = service.connection.pid
    assert os.getpgid(pid) == pid != os.getpgid(0)


async def test_stderr_log_defaults_to_the_platform_log_dir(isolated_dirs):
    from app.main.agents.command import AgentCommand
    from app.main.sessions.service import ChatService

    service = ChatService(AgentCommand(scripted_agent_argv(), "flag", "test"))
    try:
        await service.start()
    finally:
        await service.shutdown()
    log_file = isolated_dirs / "logs" / "agent-stderr.log"
    assert "client capabilities" in log_file.read_text()


async def test_quit_kills_the_whole_process_group_no_orphans(make_service, tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    script = _agent_with_grandchild(pidfile)
    service, _ = make_service(("sh", "-c", script))
    await service.start()
    leader = service.connection.pid
    grandchild = int(pidfile.read_text())
    assert process_alive(leader) and process_alive(grandchild)
    await service.shutdown()
    assert not process_alive(leader)
    assert not process_alive(grandchild)


async def test_child_exit_kills_leftover_grandchildren(make_service, tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    script = _agent_with_grandchild(pidfile)
    service, envelopes = make_service(("sh", "-c", script))
    session = await service.new_session()
    grandchild = int(pidfile.read_text())
    with contextlib.suppress(Exception):
        await service.prompt(session.session_key, "exit")
    await envelopes.wait_for(lambda log: any(e.state == "exited" for e in log.of_kind("agent_state")))
    assert not process_alive(grandchild)


def test_restart_backoff_grows_and_caps():
    assert [backoff_delay(n) for n in range(9)] == [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert BACKOFF_STEPS[-1] == 30.0


async def test_repeated_early_deaths_announce_the_backoff(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    for _ in range(2):
        session = await service.new_session()
        with contextlib.suppress(Exception):
            await service.prompt(session.session_key, "exit")
        await envelopes.wait_for(lambda log: log.of_kind("agent_state")[-1].state == "exited")
    assert envelopes.of_kind("agent_state")[-1].restart_in_s == 2.0


async def test_record_writes_every_message_both_ways_and_stderr(make_service, tmp_path):
    trace = tmp_path / "trace.jsonl"
    recorder = TraceRecorder(trace)
    service, _ = make_service(scripted_agent_argv(), recorder=recorder)
    session = await service.new_session()
    await service.prompt(session.session_key, "hello")
    await service.shutdown()
    recorder.close()
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    sends = [e["msg"].get("method") for e in lines if e["dir"] == "send"]
    recvs = [e["msg"] for e in lines if e["dir"] == "recv"]
    assert sends[:3] == ["initialize", "session/new", "session/prompt"]
    assert any(m.get("method") == "session/update" for m in recvs)
    assert any("result" in m and isinstance(m["result"], dict) and "stopReason" in m["result"] for m in recvs)
    assert any(e["dir"] == "stderr" and e["text"].startswith("client capabilities") for e in lines)
    assert all(isinstance(e["t"], float | int) for e in lines)
    times = [e["t"] for e in lines]
    assert times == sorted(times)


def test_app_exit_without_shutdown_still_kills_the_agent_group(tmp_path):
    """If the app exits without calling shutdown (an exception, a forgotten path), the atexit hook kills
    the whole group: asyncio alone would kill only the direct child and orphan its grandchildren."""
    import subprocess
    import time

    pidfile = tmp_path / "grandchild.pid"
    script = _agent_with_grandchild(pidfile)
    program = f"""
import asyncio
from app.main.agents.command import AgentCommand
from app.main.sessions.service import ChatService

async def main():
    service = ChatService(AgentCommand(("sh", "-c", {script!r}), "flag", "t"))
    await service.start()
    print(service.connection.pid, flush=True)

asyncio.run(main())
"""
    result = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(SCRIPTED_AGENT.parents[2]),
        env={**os.environ, "CLAWQT_LOG_DIR": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    leader = int(result.stdout.split()[0])
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while (process_alive(leader) or process_alive(grandchild)) and time.monotonic() < deadline:
        time.sleep(0.05)  # the poll's interval
    assert not process_alive(leader)
    assert not process_alive(grandchild)


async def test_quitting_while_the_agent_starts_leaves_no_task_error_and_no_process(make_service):
    """Quit while `initialize` is still unanswered: the start is abandoned cleanly (the suite fails on
    any asyncio "exception was never retrieved"), and the agent's group is gone."""
    service, _ = make_service(scripted_agent_argv("no-init"), init_timeout=30)
    starting = asyncio.create_task(service.start())
    deadline = time.monotonic() + 10
    while service.connection.pid is None and time.monotonic() < deadline:
        await asyncio.sleep(0.01)  # the poll's interval
    pid = service.connection.pid
    await asyncio.sleep(0.2)  # initialize is in flight
    await service.shutdown()
    with pytest.raises(BaseException):  # noqa: B017 - cancelled, or refused as shutting down
        await starting
    assert not process_alive(pid)
