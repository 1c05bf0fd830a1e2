"""Hostile agents as real subprocesses: whatever an agent writes, the connection to it lives (a line
that cannot be used is dropped, logged and counted), and an agent that can no longer be heard is ended
and reported instead of looking ready."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.contract.errors import AgentUnavailable, LoadFailed
from tests.conftest import process_alive, scripted_agent_argv
from tests.paths import REPO


def _diagnostics(envelopes) -> list[str]:
    return [e.message for e in envelopes.of_kind("diagnostic")]


async def test_lines_the_reader_cannot_use_are_dropped_and_the_connection_lives(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    result = await service.prompt(session.session_key, "hostile-lines")
    assert result.stop_reason == "end_turn" and envelopes.text().endswith("survived")
    dropped = _diagnostics(envelopes)
    assert any("nested too deep to parse" in d for d in dropped)  # RecursionError ended the reader
    assert sum("has an id JSON-RPC does not allow" in d for d in dropped) == 5  # unhashable ids did too
    assert sum("has a method that is not a string" in d for d in dropped) == 2
    # the connection lives: the next prompt is answered, and the agent was never restarted
    pid = service.connection.pid
    assert (await service.prompt(session.session_key, "hello")).stop_reason == "end_turn"
    assert service.connection.pid == pid and service.connection.state == "ready"


async def test_an_agent_that_closes_its_output_is_ended_and_reported_not_left_ready(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    pid = service.connection.pid
    try:
        await service.prompt(session.session_key, "close-stdout")
    except AgentUnavailable as exc:
        assert "exited" in str(exc)
    await envelopes.wait_for(lambda log: any(e.state == "exited" for e in log.of_kind("agent_state")), 5)
    assert not process_alive(pid)  # it kept running with its output closed: ended
    assert any("closed its output" in d for d in _diagnostics(envelopes))
    assert (await service.new_session()).session_key  # the next action starts a new one
    assert service.connection.pid != pid


def test_replay_takes_a_trace_with_such_lines_without_a_traceback(tmp_path: Path):
    trace = tmp_path / "hostile.trace.jsonl"
    lines = [
        json.dumps({"t": 0, "dir": "recv", "msg": {"jsonrpc": "2.0", "id": [1], "result": {}}}),
        '{"t":0,"dir":"recv","msg":' + "[" * 5000 + "]" * 5000 + "}",
        json.dumps({"t": 0, "dir": "recv", "msg": {"jsonrpc": "2.0", "method": 7}}),
    ]
    trace.write_bytes("\n".join(lines).encode() + b"\n\xff\xfe not utf-8\n")
    done = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(trace), "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 1 and json.loads(done.stdout)["sessions"] == []
    assert "no session could be rendered" in done.stderr


async def test_terminal_create_with_what_no_process_can_start_with_is_refused_and_the_app_goes_on(
    make_service,
):
    """A NUL byte or an `=` in a variable name used to raise inside the PTY library's forked child,
    outside its OSError handling: a second copy of ClawQt kept running there and the window froze."""
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    result = await service.prompt(session.session_key, "term-hostile")
    assert result.stop_reason == "end_turn"
    answers = json.loads(envelopes.text())
    assert answers == [
        "refused to run 'bash': the environment variable name 'A=B' is not allowed",
        "refused to run 'bash': the value of the environment variable 'GOOD' is not allowed",
        "refused to run 'bash': an argument contains a NUL character",
        "refused to run 'bash': the environment variable name '' is not allowed",
        # refused on the raw request: the SDK's schema would drop these items and run the rest
        "refused to run the command: every env entry must be {name, value} of text",
        "refused to run the command: every argument must be text",
    ]
    assert len(service.terminals) == 0
    assert (await service.prompt(session.session_key, "hello")).stop_reason == "end_turn"


async def test_a_session_new_never_answered_ends_at_its_deadline_and_says_so(make_service):
    service, _ = make_service(scripted_agent_argv("--hang-new=1"))
    service.connection.deadlines["session/new"] = 0.5
    with pytest.raises(LoadFailed) as info:
        await service.new_session()
    assert str(info.value) == "The agent did not answer session/new within 0.5 s."
    assert service.connection.state == "ready"  # the agent lives; the next try is answered
    assert (await service.new_session()).session_key
