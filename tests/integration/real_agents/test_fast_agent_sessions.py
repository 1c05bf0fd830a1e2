"""fast-agent (the same agent, fixtures in conftest.py) when the user stops a turn, and across
processes: a command stopped while it runs (the terminal it left killed after the grace), a pending
permission request cancelled by Stop, a stop before any reply, an earlier session loaded and resumed in
a fresh process, and a recorded session replayed as it was shown."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from app.main.sessions.stop_grace import STOP_GRACE_S
from app.renderer.timeline.items import TurnEnd
from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.conftest import process_alive
from tests.fast_agent_support import fast_agent_args
from tests.integration.real_agents.fast_agent_harness import (
    call_tool,
    permissions_of,
    run_turn,
    texts_of,
    tools_of,
)

pytestmark = pytest.mark.real_agents


async def test_stop_while_a_command_runs_then_the_left_terminal_is_killed_after_the_grace(start, workspace):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    pidfile = workspace / "held.pid"
    command = f"echo $$ > {pidfile}; echo started; exec sleep 30"
    wire: list[tuple[str, dict]] = []
    service.observe_raw(lambda direction, message: wire.append((direction, json.loads(json.dumps(message)))))

    running = asyncio.create_task(pipeline.prompt(key, call_tool("execute", command=command)))
    (request,) = await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    assert service.answer_permission(request.request_id, "allow_once")
    await envelopes.wait_for(lambda log: "started" in "".join(e.data for e in log.of_kind("terminal_output")))
    pid = int(pidfile.read_text())
    terminal_id = envelopes.of_kind("terminal_output")[0].terminal_id

    stopped_at = time.monotonic()
    assert await service.cancel(key) is True
    result = await asyncio.wait_for(running, STOP_GRACE_S + 30)
    assert result.stop_reason == "cancelled"  # answered at once: its command still runs (below)
    (cancelled,) = envelopes.of_kind("tool_calls_cancelled")
    assert cancelled.tool_call_ids == (tools_of(timeline)[0].tool_call_id,)
    assert tools_of(timeline)[0].status == "cancelled"
    # fast-agent neither kills nor releases its terminal: it still runs during the grace ...
    assert process_alive(pid) and len(service.terminals) == 1
    agent_requests = [m.get("method") for d, m in wire if d == "recv" and "id" in m and "method" in m]
    assert agent_requests.count("terminal/create") == 1
    assert "terminal/kill" not in agent_requests and "terminal/release" not in agent_requests
    # ... after which ClawQt kills it; the output stays and the exit says why
    ended = await envelopes.wait_for(
        lambda log: [e for e in log.of_kind("terminal_output") if e.exited], timeout=STOP_GRACE_S + 5
    )
    assert time.monotonic() - stopped_at >= STOP_GRACE_S - 0.1
    assert (ended[0].terminal_id, ended[0].signal, ended[0].note) == (
        terminal_id,
        "SIGKILL",
        "killed after Stop",
    )
    deadline = time.monotonic() + 5
    while process_alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)  # the poll's interval
    assert not process_alive(pid)
    # the agent's own terminal/wait_for_exit, still pending, is answered with the kill
    (waiting,) = [m["id"] for d, m in wire if d == "recv" and m.get("method") == "terminal/wait_for_exit"]
    answers = await envelopes.wait_for(
        lambda _: [
            m.get("result") for d, m in wire if d == "send" and m.get("id") == waiting and "method" not in m
        ]
    )
    assert answers == [{"signal": "SIGKILL"}]

    # the session goes on; fast-agent tells its model the tool call was interrupted
    again, _ = await run_turn(service, envelopes, pipeline, key, "after stop")
    assert again.stop_reason == "end_turn"
    assert texts_of(timeline, "assistant")[-1] == "**The user interrupted this tool call**"


async def test_stop_while_its_permission_is_pending_cancels_the_request(start):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    running = asyncio.create_task(pipeline.prompt(key, call_tool("execute", command="echo never")))
    (request,) = await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    assert await service.cancel(key) is True
    result = await asyncio.wait_for(running, 5)

    assert result.stop_reason == "cancelled"
    resolved = envelopes.of_kind("permission_resolved")
    assert [(e.request_id, e.outcome, e.reason) for e in resolved] == [
        (request.request_id, "cancelled", "cancelled")
    ]
    assert service.answer_permission(request.request_id, "allow_once") is False
    assert permissions_of(timeline)[0].status == "cancelled"
    assert tools_of(timeline) == []  # the "pending" tool call never came to exist
    assert envelopes.of_kind("terminal_output") == []


async def test_stop_before_any_reply_with_the_slow_model_leaves_a_stopped_turn(start):
    service, envelopes, pipeline = start(model="slow", shell=False)
    timeline = await pipeline.new_session()
    key = timeline.session_key
    running = asyncio.create_task(pipeline.prompt(key, "take your time"))
    await asyncio.sleep(0.5)  # the turn is under way: the slow model answers after 3 s
    assert not running.done()  # the slow model waits 3 s before it answers
    assert await service.cancel(key) is True
    result = await asyncio.wait_for(running, 2)

    assert result.stop_reason == "cancelled"
    assert envelopes.text(key) == ""
    assert texts_of(timeline, "user") == ["take your time"]
    assert isinstance(timeline.items[timeline.order[-1]], TurnEnd)  # "Stopped", not a bare message
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert envelopes.updates("agent_message_chunk") == []  # nothing comes in after the Stop


async def test_an_earlier_session_loads_and_resumes_in_a_fresh_agent_process(start, workspace):
    first, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    await run_turn(first, envelopes, pipeline, key, "remember the word banana")
    await run_turn(
        first, envelopes, pipeline, key, call_tool("execute", command="echo from-the-past"), ("allow_once",)
    )
    assert len(tools_of(timeline)) == 1
    await first.shutdown()

    # a new fast-agent process lists the session (by its first prompt) and replays it on load
    second, envelopes2, pipeline2 = start()
    page = await second.list_sessions(cwd=str(workspace))
    assert [(s.session_key, s.title, s.cwd) for s in page.sessions] == [
        (key, "remember the word banana", str(workspace))
    ]
    loaded = await pipeline2.load_session(key)
    assert loaded.session_key == key and second.active_session_key == key
    assert loaded.order and all(loaded.items[i].historical for i in loaded.order)
    # fast-agent's replay has no tool calls: the command's output comes back as message text
    assert tools_of(loaded) == [] and permissions_of(loaded) == []
    assert texts_of(loaded, "user")[0] == "remember the word banana"
    assert any("from-the-past" in text for text in texts_of(loaded, "assistant"))
    result, _ = await run_turn(second, envelopes2, pipeline2, key, "and now")
    assert result.stop_reason == "end_turn" and result.generation == loaded.generation
    assert texts_of(loaded, "assistant")[-1] == "and now"
    await second.shutdown()

    # resume: the same session, bound again. The protocol's resume has no replay, but fast-agent
    # replays the history anyway; ClawQt hands it over with the result like a load's (one commit)
    third, envelopes3, _ = start()
    resumed = await third.resume_session(key)
    assert resumed.session_key == key and third.active_session_key == key
    assert all(e.historical and e.session_key == key for e in resumed.updates)
    replayed_users = [
        e.notification["update"]["content"]["text"]
        for e in resumed.updates
        if e.notification["update"]["sessionUpdate"] == "user_message_chunk"
    ]
    assert replayed_users[0] == "remember the word banana" and "and now" in replayed_users
    result = await third.prompt(key, "resumed")
    assert result.stop_reason == "end_turn" and envelopes3.text(key) == "resumed"


async def test_a_recorded_session_replays_as_it_was_shown_and_its_text_has_no_escapes(
    make_service, fast_agent, workspace, tmp_path
):
    """`clawqt replay` of a recorded fast-agent turn whose command printed colours: the replay's
    timeline is the live one, the command's output comes as the reply's text (fast-agent never names
    its client terminal on the card, live or replayed), and no text carries a terminal escape."""
    from app.main.acp.recorder import TraceRecorder
    from app.renderer.timeline.serialize import timeline_json
    from app.replay import replay_json
    from tests.integration.replay.test_replay import _normalized

    trace = tmp_path / "fast-agent.jsonl"
    recorder = TraceRecorder(trace)
    argv = fast_agent.argv + fast_agent_args(tmp_path / "home", "passthrough", shell=True)
    service, envelopes = make_service(argv, cwd=str(workspace), recorder=recorder)
    pipeline = HeadlessPipeline(service)
    try:
        timeline = await pipeline.new_session()
        command = "printf 'plain \\033[31mred\\033[0m done\\n'"
        await run_turn(
            service,
            envelopes,
            pipeline,
            timeline.session_key,
            call_tool("execute", command=command),
            ("allow_once",),
        )
    finally:
        await service.shutdown()
        recorder.close()
    live = timeline_json(pipeline.store.timelines[timeline.session_key], 0)
    [replayed] = replay_json(trace)["sessions"]
    assert _normalized(replayed) == _normalized(live)
    [reply] = [i for g in live["groups"] for i in g.get("items", []) if i["kind"] == "message"]
    assert "plain red done" in reply["text"] and "[Exit code: 0]" in reply["text"]
    [tool] = [i for g in live["groups"] for i in g.get("items", []) if i["kind"] == "tool"]
    assert tool["tool"]["terminal"] is None  # fast-agent does not name its terminal on the card
    text = json.dumps({k: v for k, v in replayed.items() if k != "agentRequests"})
    assert "\\u001b" not in text  # the wire's own record of terminal/output keeps the bytes as sent
