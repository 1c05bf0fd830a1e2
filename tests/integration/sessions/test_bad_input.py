"""Bad input from the agent: none of it may crash the app; each gets a clear UI-facing message and a log
line, and everything else keeps working. Real subprocesses over stdio."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.contract.errors import AgentUnavailable, LoadFailed
from tests.conftest import scripted_agent_argv


async def test_garbage_and_non_json_lines_are_dropped_and_logged(make_service, caplog):
    caplog.set_level(logging.WARNING)
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    result = await service.prompt(session.session_key, "garbage")
    assert result.stop_reason == "end_turn"
    assert "survived" in envelopes.text()
    messages = [e.message for e in envelopes.of_kind("diagnostic")]
    assert any("non-JSON line" in m and "this is not json" in m for m in messages)
    assert any("unparsable line" in m for m in messages)
    assert any("non-JSON line" in m and "[1, 2, 3]" in m for m in messages)
    assert "this is not json" in caplog.text


async def test_banner_lines_before_initialize_are_dropped(make_service):
    service, envelopes = make_service(scripted_agent_argv("--banner"))
    info = await service.start()
    assert info.name == "scripted"
    assert any("Welcome to the scripted agent" in e.message for e in envelopes.of_kind("diagnostic"))


async def test_a_20_mb_single_line_is_read_and_the_stream_continues(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    result = await service.prompt(session.session_key, "bigline")
    assert result.stop_reason == "end_turn"
    chunks = [e.notification["update"]["content"]["text"] for e in envelopes.updates("agent_message_chunk")]
    assert len(chunks[0]) == 20 * 1024 * 1024 and chunks[-1] == "after the big line"
    assert any("20971520 bytes" in e.message for e in envelopes.of_kind("diagnostic"))


async def test_unknown_session_update_kinds_pass_through_without_error(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "garbage")
    unknown = envelopes.updates("future_kind_v9")
    assert unknown and unknown[0].notification["update"]["whatever"] == [1, 2]


async def test_response_with_unknown_id_is_dropped(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "garbage")
    assert any("unknown id: 987654" in e.message for e in envelopes.of_kind("diagnostic"))


async def test_agent_that_never_answers_initialize_times_out_with_stderr_tail(make_service):
    service, envelopes = make_service(scripted_agent_argv("--no-init"), init_timeout=1.0)
    with pytest.raises(AgentUnavailable) as info:
        await asyncio.wait_for(service.start(), 30)  # the 1 s limit ends it; only a hang reaches 30 s
    assert str(info.value) == "The agent scripted_agent did not answer initialize within 1 s."
    assert "client capabilities" in info.value.details  # the stderr tail stands behind the sentence
    assert envelopes.of_kind("agent_state")[-1].state == "failed"
    assert service.connection._process.returncode is not None  # the silent child was killed


async def test_agent_that_exits_during_initialize_reports_code_and_stderr(make_service):
    service, envelopes = make_service(scripted_agent_argv("--exit-in-init=7"))
    with pytest.raises(AgentUnavailable) as info:
        await service.start()
    assert str(info.value) == "The agent scripted_agent exited with code 7 during initialize."
    assert "fatal: cannot reach the gateway" in info.value.details
    state = envelopes.of_kind("agent_state")[-1]
    assert state.state == "failed" and state.exit_code == 7


async def test_agent_that_exits_during_a_prompt_surfaces_exit_and_restarts_on_next_action(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    with pytest.raises(AgentUnavailable):
        await service.prompt(session.session_key, "exit")
    exited = await envelopes.wait_for(
        lambda log: [e for e in log.of_kind("agent_state") if e.state == "exited"]
    )
    assert exited[-1].exit_code == 3 and "segfault-ish: goodbye" in exited[-1].stderr_tail
    assert envelopes.of_kind("tool_calls_cancelled")[-1].tool_call_ids == ("t-exit",)
    assert envelopes.of_kind("prompt_settled")[-1].error
    assert "about to die" in envelopes.text()
    # the next action starts a new child
    again = await service.new_session()
    assert service.connection.generation_of_child == 2
    result = await service.prompt(again.session_key, "hello")
    assert result.stop_reason == "end_turn"


async def test_prompt_after_agent_exit_is_refused_with_reload_advice(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    with pytest.raises(AgentUnavailable):
        await service.prompt(session.session_key, "exit")
    await envelopes.wait_for(lambda log: any(e.state == "exited" for e in log.of_kind("agent_state")))
    with pytest.raises(Exception) as info:
        await service.prompt(session.session_key, "hello")
    assert "reload the session" in str(info.value)
    assert service.last_active_key == session.session_key


async def test_agent_that_exits_during_a_load(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    with pytest.raises(LoadFailed):
        await service.load_session("exit-load")
    await envelopes.wait_for(lambda log: any(e.state == "exited" for e in log.of_kind("agent_state")))
    result = await service.load_session("past-1")
    assert result.session_key == "past-1" and len(result.updates) == 3


async def test_a_5_mb_stderr_flood_does_not_stall_the_agent(make_service, tmp_path):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    # an undrained stderr pipe blocks the agent for good: only that reaches the ceiling
    result = await asyncio.wait_for(service.prompt(session.session_key, "stderrflood"), 60)
    assert result.stop_reason == "end_turn" and "flooded" in envelopes.text()
    assert service.connection._process.stderr.total_bytes >= 5 * 1024 * 1024
    tail = service.connection.stderr_tail(5)
    assert tail.count("\n") == 4 and "EEEE" in tail  # bounded ring, newest lines
    log_size = sum(p.stat().st_size for p in tmp_path.glob("agent-stderr.log*"))
    assert log_size >= 5 * 1024 * 1024


async def test_agent_command_that_does_not_exist_names_the_command(make_service):
    service, envelopes = make_service(("clawqt-no-such-agent-xyz", "acp"))
    with pytest.raises(AgentUnavailable) as info:
        await service.start()
    assert info.value.code == "agent-not-found"
    assert "'clawqt-no-such-agent-xyz' was not found" in str(info.value)
    assert envelopes.of_kind("agent_state")[-1].state == "failed"


async def test_a_failed_request_reads_as_one_sentence_with_the_rest_as_details(make_service):
    """It used to stack three prefixes and a Python dict: "Could not open the session: The agent refused
    session/new: Internal error (code -32603): {'details': ...}"."""
    service, _ = make_service(scripted_agent_argv("--fail-new=1"))
    with pytest.raises(LoadFailed) as info:
        await service.new_session()
    assert str(info.value) == "Internal error: the workspace is locked by another agent."
    assert "session/new answered error -32603" in info.value.details


async def test_an_agent_that_does_not_say_who_it_is_is_named_after_its_command(make_service):
    service, _ = make_service(scripted_agent_argv("--no-info"))
    assert service.agent_label == "scripted_agent"  # while it starts
    info = await service.start()
    assert info.name == "scripted_agent" and service.agent_label == "scripted_agent"
