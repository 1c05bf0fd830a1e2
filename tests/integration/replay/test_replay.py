"""`clawqt replay`: a recorded trace renders through the same routing, reducer and grouping code as
the live app, so replaying a recorded session gives exactly the live grouped timeline."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.contract.errors import LoadFailed
from app.main.acp.recorder import TraceRecorder
from app.renderer.timeline.pipeline import HeadlessPipeline
from app.renderer.timeline.serialize import timeline_json
from app.replay import replay_json
from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.paths import REPO, TESTS

FIXTURE = TESTS / "fixtures" / "demo-session.trace.jsonl"


@pytest.fixture(autouse=True)
def fast_demo(monkeypatch):
    monkeypatch.setenv("CLAWQT_DEMO_DELAY_MS", "0")


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


# --- what the trace says beyond the timeline: failures, the agent's fs/terminal requests -------------
def _replay_cli(trace: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", "replay", str(trace), *flags],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )


async def test_a_trace_whose_session_new_failed_says_what_failed_and_exits_1(make_service, tmp_path):
    """It used to print `{"sessions": []}` and exit 0: now the agent's own error, from the trace."""
    trace = tmp_path / "failed-new.jsonl"
    recorder = TraceRecorder(trace)
    service, _ = make_service(scripted_agent_argv("--fail-new=1"), recorder=recorder)
    with pytest.raises(LoadFailed):
        await service.new_session()
    await service.shutdown()
    recorder.close()

    result = _replay_cli(trace, "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["sessions"] == []
    [failure] = data["failures"]
    assert failure["method"] == "session/new" and failure["code"] == -32603
    assert failure["message"] == "Internal error: the workspace is locked by another agent"
    assert (
        "error: session/new failed: Internal error: the workspace is locked by another agent (code -32603)"
        in (result.stderr)
    )
    assert "no session could be rendered" in result.stderr and "Traceback" not in result.stderr

    text = _replay_cli(trace)
    assert text.returncode == 1 and text.stdout == ""
    assert "session/new failed: Internal error" in text.stderr


async def test_replay_renders_what_it_can_and_reports_the_failed_openings(make_service, tmp_path):
    """A failed session/new, then one that opened, then a failed session/load: the session renders, both
    failures are listed (JSON and stderr), and the exit status is 0."""
    trace = tmp_path / "partial.jsonl"
    recorder = TraceRecorder(trace)
    service, _ = make_service(scripted_agent_argv("--fail-new=1"), recorder=recorder)
    pipeline = HeadlessPipeline(service)
    with pytest.raises(LoadFailed):
        await pipeline.new_session()
    timeline = await pipeline.new_session()
    await pipeline.prompt(timeline.session_key, "hello")
    with pytest.raises(LoadFailed):
        await pipeline.load_session("fail-load")
    await service.shutdown()
    recorder.close()

    data = replay_json(trace)
    assert [s["key"] for s in data["sessions"]] == [timeline.session_key]
    assert data["sessions"][0]["questions"] == ["hello"]
    assert [(f["method"], f["session"], f["code"]) for f in data["failures"]] == [
        ("session/new", None, -32603),
        ("session/load", "fail-load", -32002),
    ]
    assert data["failures"][1]["message"] == "Resource not found: fail-load"
    result = _replay_cli(trace)
    assert result.returncode == 0 and "## Agent" in result.stdout
    assert "warning: session/new failed" in result.stderr
    assert "warning: session/load of fail-load failed: Resource not found: fail-load (code -32002)" in (
        result.stderr
    )


def _write_trace(path: Path, messages: list[tuple[str, dict]]) -> Path:
    path.write_text(
        "\n".join(json.dumps({"t": n / 10, "dir": d, "msg": m}) for n, (d, m) in enumerate(messages))
    )
    return path


@pytest.mark.parametrize(
    "messages, expected",
    [
        pytest.param(
            [("send", {"id": 1, "method": "session/new", "params": {"cwd": "/w"}})],
            "error: session/new failed: no answer in the trace",
            id="never-answered",
        ),
        pytest.param(
            [
                ("send", {"id": 1, "method": "session/new", "params": {"cwd": "/w"}}),
                ("recv", {"id": 1, "result": {"modes": None}}),
            ],
            "error: session/new failed: The agent answered session/new without a session id.",
            id="no-session-id",
        ),
        pytest.param(
            [("send", {"id": 0, "method": "initialize", "params": {}}), ("recv", {"id": 0, "result": {}})],
            "error: no session could be rendered from the trace (it opens none)",
            id="opens-none",
        ),
    ],
)
def test_a_trace_that_renders_no_session_is_never_an_empty_success(tmp_path, messages, expected):
    result = _replay_cli(_write_trace(tmp_path / "t.jsonl", messages), "--json")
    assert result.returncode == 1 and expected in result.stderr
    assert json.loads(result.stdout)["sessions"] == []


async def test_the_agents_fs_and_terminal_requests_show_with_the_clients_answers(make_service, tmp_path):
    """They used to be only counted in `diagnostics.ignored`: now each is in its session's
    `agentRequests`, with what the agent asked, the client's answer, and the turn it belonged to."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    trace = tmp_path / "served.jsonl"
    recorder = TraceRecorder(trace)
    service, _ = make_service(scripted_agent_argv(), recorder=recorder, cwd=str(workspace))
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    for text in ("term-create", "fs-write notes.txt hello", "fs-read notes.txt", "fs-read-outside"):
        await pipeline.prompt(timeline.session_key, text)
    await service.shutdown()
    recorder.close()

    session = replay_json(trace)["sessions"][0]
    requests = session["agentRequests"]
    assert [r["method"] for r in requests] == [
        "terminal/create",
        "terminal/wait_for_exit",
        "terminal/output",
        "terminal/release",
        "fs/write_text_file",
        "fs/read_text_file",
        "fs/read_text_file",
    ]
    assert all(set(r) == {"method", "turn", "t", "params", "outcome", "result", "error"} for r in requests)
    create, wait, output = requests[:3]
    assert create["params"]["command"] == "bash" and create["params"]["cwd"] == str(workspace)
    assert "sessionId" not in create["params"]
    terminal_id = create["result"]["terminalId"]
    assert wait["params"] == {"terminalId": terminal_id} and wait["result"]["exitCode"] == 0
    assert output["result"]["truncated"] is True and output["result"]["output"].endswith("done\r\n")
    tool = next(i["tool"] for i in session["groups"][1]["items"] if i["kind"] == "tool")
    assert tool["terminal"]["terminalId"] == terminal_id  # the card the terminal was shown in
    user_groups = [g["id"] for g in session["groups"] if g["kind"] == "user"]
    # each request names the prompt it came in: the user group `<turn>:0`
    assert [f"{r['turn']}:0" for r in requests] == [user_groups[0]] * 4 + user_groups[1:]
    write, read, outside = requests[4:]
    assert write["params"] == {"path": str(workspace / "notes.txt"), "content": "hello"}
    assert write["outcome"] == "ok" and write["result"] == {} and write["error"] is None
    assert read["outcome"] == "ok" and read["result"] == {"content": "hello"}
    assert outside["outcome"] == "error" and outside["result"] is None
    assert outside["error"]["code"] == -32002 and "outside the session folder" in outside["error"]["message"]
    assert session["diagnostics"]["ignored"] == 0

    text = _replay_cli(trace)
    assert text.returncode == 0
    assert f"- terminal/wait_for_exit {terminal_id}: exit code 0" in text.stdout
    assert f"- fs/write_text_file {workspace / 'notes.txt'} (5 characters): ok" in text.stdout
    assert "- fs/read_text_file" in text.stdout and "error -32002:" in text.stdout


def test_an_agent_request_naming_no_open_session_is_counted_once(tmp_path):
    trace = _write_trace(
        tmp_path / "t.jsonl",
        [
            ("send", {"id": 1, "method": "session/new", "params": {"cwd": "/w"}}),
            ("recv", {"id": 1, "result": {"sessionId": "acp-a"}}),
            (
                "recv",
                {"id": 7, "method": "fs/read_text_file", "params": {"sessionId": "acp-x", "path": "/a"}},
            ),
            ("send", {"id": 7, "error": {"code": -32002, "message": "unknown session"}}),
            (
                "recv",
                {"id": 8, "method": "terminal/create", "params": {"sessionId": "acp-a", "command": "ls"}},
            ),
        ],
    )
    session = replay_json(trace)["sessions"][0]
    assert session["diagnostics"]["ignored"] == 1
    [unanswered] = session["agentRequests"]
    assert unanswered["method"] == "terminal/create" and unanswered["outcome"] == "unanswered"
    assert unanswered["turn"] is None and unanswered["result"] is None and unanswered["error"] is None
