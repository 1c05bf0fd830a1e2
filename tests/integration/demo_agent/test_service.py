"""The demo agent end to end through ClawQt's own chat service: initialize, new, the streamed showcase
(with the terminal `_meta` convention the service opts into), permission, cancel, load and list.

The start is the real child (`clawqt demo-agent`, as the app runs it); the turns are served in the
test's own process (tests/agents/in_process.py: the same transport, JSON-RPC, session machine and SDK
between two pipes), where a child process would add only its start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.agents.in_process import demo_agent_launcher, in_process_command
from tests.conftest import demo_agent_argv


@pytest.fixture(autouse=True)
def fast_demo(monkeypatch):
    monkeypatch.setenv("CLAWQT_DEMO_DELAY_MS", "0")


@pytest.fixture
def in_process(make_service, tmp_path):
    """`in_process()` -> (service, envelopes) on the demo agent served in this process; every one
    keeps its sessions in the same store, as one user's demo agent does."""
    launch = demo_agent_launcher(tmp_path / "demo-store")
    return lambda: make_service(in_process_command().argv, launch=launch)


async def _showcase(service, envelopes, answer: str):
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "Show me everything"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    option = next(o["optionId"] for o in request.options if o["kind"] == answer)
    assert service.answer_permission(request.request_id, option)
    result = await running
    return session, result


async def test_demo_initialize_and_new_session(make_service):
    service, envelopes = make_service(demo_agent_argv())
    info = await service.start()
    assert info.name == "clawqt-demo"
    assert info.supports("loadSession") and info.supports("sessionCapabilities", "list")
    session = await service.new_session()
    assert session.modes and len(session.modes["availableModes"]) == 2
    assert any(o.get("category") == "model" for o in session.config_options)
    # the demo sends its commands right after the response: in the batch or just after, same session
    await envelopes.wait_for(
        lambda log: any(
            u.notification["update"]["sessionUpdate"] == "available_commands_update"
            and u.session_key == session.session_key
            for u in (*session.updates, *log.updates())
        )
    )


async def test_demo_showcase_streams_every_kind_of_update(in_process, tmp_path):
    service, envelopes = in_process()
    session, result = await _showcase(service, envelopes, "allow_once")
    assert result.stop_reason == "end_turn"
    kinds = {e.notification["update"]["sessionUpdate"] for e in envelopes.updates()}
    assert {
        "agent_thought_chunk",
        "plan",
        "agent_message_chunk",
        "tool_call",
        "tool_call_update",
        "session_info_update",
        "usage_update",
    } <= kinds
    text = envelopes.text()
    assert "```python" in text and "| Feature |" in text
    tools = {e.notification["update"].get("kind") for e in envelopes.updates("tool_call")}
    assert {"read", "search", "edit", "execute"} <= tools
    metas = [e.notification["update"].get("_meta") or {} for e in envelopes.updates()]
    assert any("terminal_info" in m for m in metas) and any("terminal_exit" in m for m in metas)
    diffs = [
        c
        for e in envelopes.updates("tool_call_update")
        for c in e.notification["update"].get("content") or []
        if c.get("type") == "diff"
    ]
    assert diffs, "the allowed edit shows its diff"
    links = [
        e.notification["update"]["content"]
        for e in envelopes.updates("agent_message_chunk")
        if e.notification["update"]["content"].get("type") == "resource_link"
    ]
    assert links and (Path(tmp_path) / links[0]["name"]).exists()
    turn = [
        e
        for e in envelopes.updates()
        if e.notification["update"]["sessionUpdate"] != "available_commands_update"
    ]
    assert all(e.session_key == session.session_key and not e.historical for e in turn)


async def test_demo_permission_rejected_fails_the_edit(in_process):
    service, envelopes = in_process()
    _, result = await _showcase(service, envelopes, "reject_once")
    assert result.stop_reason == "end_turn"
    edit_id = next(
        e.notification["update"]["toolCallId"]
        for e in envelopes.updates("tool_call")
        if e.notification["update"].get("kind") == "edit"
    )
    statuses = [
        e.notification["update"].get("status")
        for e in envelopes.updates("tool_call_update")
        if e.notification["update"]["toolCallId"] == edit_id
    ]
    assert statuses[-1] == "failed"


async def test_demo_cancel_mid_stream(in_process):
    service, envelopes = in_process()
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "something slow please"))
    await envelopes.wait_for(lambda log: len(log.updates("agent_message_chunk")) >= 3)
    await service.cancel(session.session_key)
    result = await asyncio.wait_for(running, 5)
    assert result.stop_reason == "cancelled"
    assert envelopes.text()


async def test_demo_load_replays_history_and_list_shows_titles(in_process):
    service, _envelopes = in_process()
    session = await service.new_session()
    await service.prompt(session.session_key, "/echo remember me")
    await service.shutdown()

    fresh, _ = in_process()
    page = await fresh.list_sessions()
    listed = {s.session_key: s for s in page.sessions}
    assert session.session_key in listed and listed[session.session_key].title
    loaded = await fresh.load_session(session.session_key)
    kinds = [u.notification["update"]["sessionUpdate"] for u in loaded.updates]
    assert kinds[0] == "user_message_chunk"
    texts = [u.notification["update"].get("content", {}).get("text") for u in loaded.updates]
    assert "remember me" in texts
    assert all(u.historical for u in loaded.updates)
