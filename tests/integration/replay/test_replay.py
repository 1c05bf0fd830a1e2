"""`clawqt replay`: a recorded trace renders through the same routing, reducer and grouping code as
the live app, so replaying a recorded session gives exactly the live grouped timeline."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys

from app.main.acp.recorder import TraceRecorder
from app.renderer.timeline.pipeline import HeadlessPipeline
from app.renderer.timeline.serialize import timeline_json
from app.replay import replay_json
from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.paths import REPO, TESTS

FIXTURE = TESTS / "fixtures" / "demo-session.trace.jsonl"


def _normalized(session: dict) -> str:
    """Permission item ids come from main-side request ids (not in the trace), and a turn that starts
    with a permission is named after it: compare without them.
    `agentRequests` is read off the trace's wire, which the live timeline does not hold: left out."""
    kept = {k: v for k, v in session.items() if k not in ("diagnostics", "agentRequests")}
    text = json.dumps(kept, sort_keys=True)
    return re.sub(r'permission:[^"]+"', 'permission:X"', text)  # also in a turn's id named after one


async def _answer_permissions(service, envelopes, choose: str) -> None:
    answered: set[str] = set()
    while True:
        for request in envelopes.of_kind("permission_request"):
            if request.request_id not in answered:
                answered.add(request.request_id)
                option = next(o["optionId"] for o in request.options if o["kind"] == choose)
                service.answer_permission(request.request_id, option)
        await asyncio.sleep(0.01)  # the poll's interval


async def test_replay_of_a_recorded_demo_session_equals_the_live_timeline(make_service, tmp_path):
    trace = tmp_path / "demo.jsonl"
    recorder = TraceRecorder(trace)
    service, envelopes = make_service(demo_agent_argv(), recorder=recorder)
    pipeline = HeadlessPipeline(service)
    answering = asyncio.create_task(_answer_permissions(service, envelopes, "allow_once"))
    try:
        timeline = await pipeline.new_session()
        await pipeline.prompt(timeline.session_key, "Show me the tour")
        await pipeline.prompt(timeline.session_key, "/echo second question")
    finally:
        answering.cancel()
        await service.shutdown()
        recorder.close()
    live = timeline_json(pipeline.store.timelines[timeline.session_key], 0)
    replayed = replay_json(trace)["sessions"]
    assert len(replayed) == 1
    assert _normalized(replayed[0]) == _normalized(live)
    kinds = [g["kind"] for g in live["groups"]]
    assert kinds == ["user", "assistant-turn", "user", "assistant-turn"]
    assert live["questions"] == ["Show me the tour", "/echo second question"]
    tool = next(i for i in live["groups"][1]["items"] if i["kind"] == "tool" and i["tool"]["terminal"])
    assert tool["tool"]["terminal"]["exitCode"] == 0 and "passed" in tool["tool"]["terminal"]["output"]
    assert "\x1b" not in tool["tool"]["terminal"]["output"]


async def test_a_loaded_session_groups_into_the_same_turns_as_the_live_one(make_service, tmp_path):
    service, envelopes = make_service(demo_agent_argv())
    pipeline = HeadlessPipeline(service)
    answering = asyncio.create_task(_answer_permissions(service, envelopes, "allow_once"))
    try:
        timeline = await pipeline.new_session()
        await pipeline.prompt(timeline.session_key, "Show me the tour")
        await pipeline.prompt(timeline.session_key, "/echo again")
    finally:
        answering.cancel()
    live = timeline_json(pipeline.store.timelines[timeline.session_key], 0)
    await service.shutdown()

    trace = tmp_path / "load.jsonl"
    recorder = TraceRecorder(trace)
    fresh, _ = make_service(demo_agent_argv(), recorder=recorder)
    reloaded_pipeline = HeadlessPipeline(fresh)
    reloaded = await reloaded_pipeline.load_session(timeline.session_key)
    await fresh.shutdown()
    recorder.close()
    loaded = timeline_json(reloaded, 0)

    def shape(session: dict) -> list:
        return [
            (
                g["kind"],
                [i["kind"] for i in g.get("items", []) if i["kind"] != "permission"],
                g.get("copyText"),
                g.get("text"),
            )
            for g in session["groups"]
        ]

    assert shape(loaded) == shape(live)
    replayed = replay_json(trace)["sessions"][0]
    assert _normalized(replayed) == _normalized(loaded)
    assert all(i["kind"] != "permission" for g in loaded["groups"] for i in g.get("items", []))


async def test_replay_of_a_scripted_session_with_bad_input_counts_what_it_ignores(make_service, tmp_path):
    trace = tmp_path / "scripted.jsonl"
    recorder = TraceRecorder(trace)
    service, envelopes = make_service(scripted_agent_argv(), recorder=recorder)
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    await pipeline.prompt(timeline.session_key, "garbage")
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    service.answer_permission(request.request_id, "deny")
    await running
    slow = asyncio.create_task(pipeline.prompt(timeline.session_key, "slow"))
    await envelopes.wait_for(lambda log: "tick 2" in log.text())
    await service.cancel(timeline.session_key)
    await slow
    await service.shutdown()
    recorder.close()
    live = timeline_json(pipeline.store.timelines[timeline.session_key], 0)
    replayed = replay_json(trace)["sessions"][0]
    # the same session state machine decides in both: the cancelled turn's open tool is cancelled too
    assert _normalized(replayed) == _normalized(live)
    assert '"status": "cancelled"' in _normalized(replayed)
    assert replayed["diagnostics"]["ignored"] >= 2  # unknown session + malformed update (+ unknown kind)
    permission = next(i for g in replayed["groups"] for i in g.get("items", []) if i["kind"] == "permission")
    assert permission["permission"]["status"] == "selected"
    # the chosen option, by id, name and kind, live and replayed alike (compared above)
    assert permission["permission"]["selected"] == {"optionId": "deny", "name": "Deny", "kind": "reject_once"}


def test_replay_cli_prints_the_documented_json_shape():
    result = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(FIXTURE), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    session = data["sessions"][0]
    assert set(data) == {"sessions", "failures"} and data["failures"] == []
    assert set(session) == {"key", "title", "groups", "questions", "agentRequests", "diagnostics"}
    assert session["agentRequests"] == []  # the demo's terminal is the _meta convention, not terminal/*
    user_group, turn = session["groups"][0], session["groups"][1]
    assert set(user_group) == {"kind", "id", "text", "attachments"} and user_group["kind"] == "user"
    assert set(turn) == {"kind", "id", "items", "attachments", "copyText"}
    kinds = {i["kind"] for i in turn["items"]}
    assert kinds == {"message", "thought", "tool", "permission", "plan"}
    tool = next(i for i in turn["items"] if i["kind"] == "tool")
    assert set(tool["tool"]) == {"toolCallId", "title", "toolKind", "status", "terminal"}
    terminal = next(
        i["tool"]["terminal"] for i in turn["items"] if i["kind"] == "tool" and i["tool"]["terminal"]
    )
    assert set(terminal) == {"terminalId", "cwd", "output", "exitCode", "signal"}
    permission = next(i for i in turn["items"] if i["kind"] == "permission")
    assert set(permission["permission"]) == {"status", "selected", "options"}
    assert permission["permission"]["selected"] == {
        "optionId": "allow",
        "name": "Allow",
        "kind": "allow_once",
    }
    assert set(permission["permission"]["options"][0]) == {"optionId", "name", "kind"}
    plan = next(i for i in turn["items"] if i["kind"] == "plan")
    assert set(plan["plan"]["entries"][0]) == {"content", "status", "priority"}
    attachment = turn["attachments"][0]
    assert set(attachment) == {"name", "uri", "source", "status"} and attachment["source"] == "acp-resource"
    assert session["questions"] and session["diagnostics"] == {"ignored": 0}


def test_replay_text_output_is_readable():
    result = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(FIXTURE)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert result.returncode == 0 and "## You" in result.stdout and "## Agent" in result.stdout
    assert "- permission: selected: Allow (allow_once)" in result.stdout


def test_replay_counts_garbage_lines_and_unknown_messages(tmp_path):
    trace = tmp_path / "bad.jsonl"
    lines = FIXTURE.read_text().splitlines()
    lines.insert(3, "this is not json")
    lines.insert(4, json.dumps({"t": 0, "dir": "recv", "msg": {"jsonrpc": "2.0", "method": "x/unknown"}}))
    lines.insert(5, json.dumps([1, 2]))
    trace.write_text("\n".join(lines))
    session = replay_json(trace)["sessions"][0]
    assert session["diagnostics"]["ignored"] == 3


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(tmp_path / "nope.jsonl"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert result.returncode == 2 and "cannot read the trace" in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_the_recorded_openclaw_session():
    """tests/fixtures/openclaw-session.trace.jsonl: a real `openclaw acp` session (recorded by
    tests/e2e/record_fixture.py): five questions, a read tool, /status, an approved exec."""
    trace = TESTS / "fixtures" / "openclaw-session.trace.jsonl"
    session = replay_json(trace)["sessions"][0]
    assert session["key"].startswith("agent:main:clawqt-")
    assert session["questions"] == [
        "Say hello please",
        "please think about it",
        "please read file notes",
        "/status",
        "please run command now",
    ]
    turns = [g for g in session["groups"] if g["kind"] == "assistant-turn"]
    assert len(turns) == 5
    assert turns[0]["copyText"] == "Hello from the fake model."
    read = next(i["tool"] for i in turns[2]["items"] if i["kind"] == "tool")
    assert read["toolKind"] == "read" and read["status"] == "completed"
    assert "OpenClaw" in turns[3]["copyText"]
    kinds = [i["kind"] for i in turns[4]["items"]]
    assert "permission" in kinds and "tool" in kinds
    permission = next(i["permission"] for i in turns[4]["items"] if i["kind"] == "permission")
    assert permission["status"] == "selected"
    assert {o["kind"] for o in permission["options"]} >= {"allow_once", "reject_once"}
    assert permission["selected"] == {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"}
    exec_tool = next(i["tool"] for i in turns[4]["items"] if i["kind"] == "tool")
    assert exec_tool["toolKind"] == "execute" and exec_tool["status"] == "completed"
    assert session["diagnostics"]["ignored"] == 0
