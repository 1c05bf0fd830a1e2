"""`clawqt replay` on what a trace says beyond the timeline: a session that failed to open, the
openings it reports, a trace that renders no session, the agent's fs and terminal requests with the
client's answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.contract.errors import LoadFailed
from app.main.acp.recorder import TraceRecorder
from app.renderer.timeline.pipeline import HeadlessPipeline
from app.replay import replay_json
from tests.conftest import scripted_agent_argv
from tests.paths import REPO, TESTS

FIXTURE = TESTS / "fixtures" / "demo-session.trace.jsonl"


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
