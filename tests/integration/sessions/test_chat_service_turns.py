"""The main-side rules of chat-timeline.md ("Main side") for a turn under way: switching chats while
it runs, the historical flag, updates for unknown sessions, permission requests and when they are
cancelled, cancel, capability-gated operations, modes and the raw observer; against the scripted agent
as a real subprocess over stdio."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.contract.errors import CapabilityMissing, PromptRefused
from tests.conftest import scripted_agent_argv


async def test_live_prompt_context_survives_switching_sessions(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    first = await service.new_session()
    running = asyncio.create_task(service.prompt(first.session_key, "background"))
    await envelopes.wait_for(lambda log: log.text(first.session_key))
    second = await service.new_session()
    assert service.active_session_key == second.session_key
    await running
    text = envelopes.text(first.session_key)
    assert text.count("bg") == 30  # nothing of the first session's stream was dropped while away
    first_updates = [e for e in envelopes.updates() if e.session_key == first.session_key]
    assert all(e.generation == first.generation and not e.historical for e in first_updates)


async def test_returning_to_a_live_prompt_reuses_its_generation_without_load(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    first = await service.new_session()
    running = asyncio.create_task(service.prompt(first.session_key, "background"))
    await envelopes.wait_for(lambda log: log.text(first.session_key))
    await service.new_session()
    back = await service.activate_session(first.session_key)
    assert back.resumed_live and back.generation == first.generation and back.updates == ()
    assert service.active_session_key == first.session_key
    await running


async def test_after_settlement_returning_means_a_normal_load(make_service):
    service, _ = make_service(scripted_agent_argv())
    first = await service.new_session()
    await service.prompt(first.session_key, "hello")
    await service.new_session()
    back = await service.activate_session(first.session_key)
    assert not back.resumed_live
    assert back.generation > first.generation


async def test_historical_flag_is_sticky_until_the_first_live_prompt(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    loaded = await service.load_session("past-9")
    await service.set_mode(loaded.session_key, "b")
    mode_update = await envelopes.wait_for(lambda log: log.updates("current_mode_update"))
    assert mode_update[-1].historical
    await service.prompt(loaded.session_key, "hello")
    assert not envelopes.updates("agent_message_chunk")[-1].historical


async def test_updates_for_unknown_sessions_are_dropped_and_counted(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "garbage")
    assert "lost" not in envelopes.text()
    assert service.io.ignored_updates >= 2  # unknown session + malformed params
    codes = {e.code for e in envelopes.of_kind("diagnostic")}
    assert "update-dropped" in codes and "update-malformed" in codes


async def test_permission_request_becomes_an_envelope_answered_by_the_renderer(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    assert request.session_key == session.session_key
    assert [o["optionId"] for o in request.options] == ["allow", "deny"]
    assert request.tool_call["toolCallId"] == "t-perm"
    assert service.answer_permission(request.request_id, "allow")
    assert not service.answer_permission(request.request_id, "deny")  # answered once
    await running
    assert "outcome: allow" in envelopes.text()
    resolved = envelopes.of_kind("permission_resolved")[-1]
    assert (resolved.outcome, resolved.option_id) == ("selected", "allow")


async def test_permission_answer_must_be_one_of_the_options(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    assert not service.answer_permission(request.request_id, "not-an-option")
    assert service.answer_permission(request.request_id, "deny")
    await running
    assert "outcome: deny" in envelopes.text()


async def test_permission_auto_cancelled_during_a_load(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    result = await service.load_session("perm-load")
    texts = [u.notification["update"].get("content", {}).get("text") for u in result.updates]
    assert "permission during load: cancelled" in texts
    assert not envelopes.of_kind("permission_request")


async def test_permission_auto_cancelled_on_cancel(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    assert await service.cancel(session.session_key)
    result = await running
    assert result.stop_reason == "cancelled"
    assert envelopes.of_kind("permission_resolved")[-1].reason == "cancelled"
    assert service.pending_permissions == 0


async def test_permission_auto_cancelled_when_no_prompt_is_live(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    await service.start()
    # outside any prompt: routed straight into the handler as the agent would
    outcome = await service.handle_permission_request("acp-77", {"toolCallId": "x"}, [{"optionId": "a"}])
    assert outcome is None
    assert not envelopes.of_kind("permission_request")


async def test_permission_auto_cancelled_on_child_exit(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "permission"))
    await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    service.connection._process.proc.kill()
    with pytest.raises(Exception):  # noqa: B017 - AgentUnavailable, asserted below
        await running
    await envelopes.wait_for(lambda log: log.of_kind("permission_resolved"))
    assert envelopes.of_kind("permission_resolved")[-1].reason == "agent-exited"


async def test_permission_auto_cancelled_on_prompt_settlement(make_service):
    service, _envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.prompt(session.session_key, "hello")
    # a late request after settlement has no live prompt and is cancelled at once
    outcome = await service.handle_permission_request("acp-1", {"toolCallId": "late"}, [{"optionId": "a"}])
    assert outcome is None


async def test_cancel_settles_cancelled_keeps_partial_output_and_marks_open_tools(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "slow"))
    await envelopes.wait_for(lambda log: "tick 3" in log.text())
    assert await service.cancel(session.session_key)
    result = await running
    assert result.stop_reason == "cancelled"
    assert "tick 0" in envelopes.text()
    cancelled = envelopes.of_kind("tool_calls_cancelled")
    assert cancelled and cancelled[-1].tool_call_ids == ("t-slow",)
    settled = envelopes.of_kind("prompt_settled")[-1]
    assert settled.stop_reason == "cancelled" and settled.error is None


async def test_cancel_without_a_live_prompt_does_nothing(make_service):
    service, _ = make_service(scripted_agent_argv())
    session = await service.new_session()
    assert not await service.cancel(session.session_key)


async def test_second_prompt_while_one_runs_is_refused(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "slow"))
    await envelopes.wait_for(lambda log: log.text())
    with pytest.raises(PromptRefused) as info:
        await service.prompt(session.session_key, "hello")
    assert info.value.code == "prompt-running"
    await service.cancel(session.session_key)
    await running


async def test_list_sessions_pages_with_the_cursor(make_service):
    service, _ = make_service(scripted_agent_argv())
    pages = []
    cursor = None
    while True:
        page = await service.list_sessions(cursor)
        pages.append(page)
        cursor = page.next_cursor
        if cursor is None:
            break
    keys = [s.session_key for p in pages for s in p.sessions]
    assert len(pages) == 3 and len(keys) == 25 == len(set(keys))
    assert pages[0].sessions[0].title == "Session 0"


async def test_capability_gated_operations_refuse_without_capability(make_service):
    service, _ = make_service(scripted_agent_argv('--caps={"loadSession": false}'))
    await service.start()
    for call in (
        service.load_session("x"),
        service.list_sessions(),
        service.resume_session("x"),
        service.close_session("x"),
        service.delete_session("x"),
    ):
        with pytest.raises(CapabilityMissing):
            await call


async def test_resume_close_and_delete_with_capability(make_service):
    service, _ = make_service(scripted_agent_argv())
    await service.start()
    resumed = await service.resume_session("past-4")
    assert resumed.session_key == "past-4" and resumed.updates == ()
    await service.close_session("past-4")
    assert service.active_session_key is None
    await service.delete_session("past-5")


async def test_set_mode_and_config_option(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    session = await service.new_session()
    await service.set_mode(session.session_key, "b")
    await envelopes.wait_for(lambda log: log.updates("current_mode_update"))
    options = await service.set_config_option(session.session_key, "model", "m2")
    assert options[0]["currentValue"] == "m2"
    with pytest.raises(PromptRefused):
        await service.set_mode("never-opened", "b")


async def test_raw_observer_sees_what_the_agent_really_sent(make_service):
    service, _ = make_service(scripted_agent_argv())
    seen: list[tuple[str, dict]] = []
    service.observe_raw(lambda direction, message: seen.append((direction, json.loads(json.dumps(message)))))
    session = await service.new_session()
    await service.prompt(session.session_key, "garbage")
    received = [m for d, m in seen if d == "recv"]
    kinds = [
        m["params"]["update"].get("sessionUpdate") for m in received if m.get("method") == "session/update"
    ]
    assert "future_kind_v9" in kinds  # a newer update kind, as sent
    assert any(m.get("params", {}).get("sessionId") == "nobody-knows-this-session" for m in received)
    assert [m.get("method") for d, m in seen if d == "send"][:3] == [
        "initialize",
        "session/new",
        "session/prompt",
    ]
