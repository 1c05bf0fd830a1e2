"""ClawQt against fast-agent (PyPI `fast-agent-mcp`), a real ACP agent nobody here wrote, with its
`passthrough` model: it echoes the prompt, and calls a real tool when the prompt reads
`***CALL_TOOL <tool> <json args>`, so client terminals (terminal/*) and file requests (fs/*) run without
an LLM. `--shell` gives it the `execute` tool, which it runs in ClawQt's terminals.

Everything goes through ChatService and the renderer's headless pipeline (the timeline a window would
show). fast-agent is installed once into `<repo>/.cache/fast-agent/` with a Python >= 3.12 the machine
has (tests/fast_agent_support.py); when there is none, or the install fails, every test here FAILS
with instructions instead of skipping.

What fast-agent sends that differs from the protocol's happy path (each pinned below):
- `execute` asks permission BEFORE its tool call exists, for `toolCallId: "pending"`; a rejected call
  then appears as a tool call that fails at once.
- it never embeds its client terminal in the tool card (no `terminal` content): the card gets the
  output as text with "[Exit code: N]" once the command ended.
- before a write it reads the file (to show a diff), also when the file does not exist yet.
- after Stop it answers `cancelled` but neither kills nor releases its terminal (ClawQt kills it
  after a grace), and it keeps waiting for that terminal's exit.
- a reloaded session replays only messages: tool calls come back as text, not as tool cards.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from pathlib import Path

import pytest

from app.contract.errors import AgentRequestFailed
from app.main.sessions.stop_grace import STOP_GRACE_S
from app.renderer.timeline.items import MessageSegment, PermissionItem, ToolCall, TurnEnd
from app.renderer.timeline.parts import DiffPart, MarkdownPart
from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.conftest import process_alive
from tests.fast_agent_support import FAST_AGENT_VERSION, ensure_fast_agent, fast_agent_args
from tests.real_agents_support import InstalledAgent, RealAgentSetupError, installed_or_fail

pytestmark = pytest.mark.real_agents

log = logging.getLogger(__name__)


@pytest.fixture(scope="session")
def fast_agent() -> InstalledAgent:
    """fast-agent installed in .cache/ (on first use), with a Python >= 3.12 of this machine."""
    agent = installed_or_fail("fast-agent", ensure_fast_agent)
    log.info(
        "fast-agent %s (%s): %s in %.3f s",
        agent.version,
        agent.runtime,
        "installed" if agent.installed_now else "cached",
        agent.setup_seconds,
    )
    return agent


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return Path(os.path.realpath(folder))


@pytest.fixture
def start(make_service, fast_agent, workspace, tmp_path):
    """`start(model=..., shell=...)` -> (service, envelopes, pipeline) running fast-agent in `workspace`;
    every agent a test starts shares one fast-agent home (its saved sessions)."""
    home = tmp_path / "fast-agent-home"

    def start_agent(model: str = "passthrough", *, shell: bool = True):
        argv = fast_agent.argv + fast_agent_args(home, model, shell=shell)
        service, envelopes = make_service(argv, cwd=str(workspace))
        return service, envelopes, HeadlessPipeline(service)

    return start_agent


def _call(tool: str, **arguments: object) -> str:
    return f"***CALL_TOOL {tool} {json.dumps(arguments)}"


def _texts(timeline, role: str) -> list[str]:
    return [
        "".join(p.text for p in item.parts if isinstance(p, MarkdownPart))
        for item in (timeline.items[i] for i in timeline.order)
        if isinstance(item, MessageSegment) and item.role == role
    ]


def _tools(timeline) -> list[ToolCall]:
    return [timeline.items[i] for i in timeline.order if isinstance(timeline.items[i], ToolCall)]


def _permissions(timeline) -> list[PermissionItem]:
    return [timeline.items[i] for i in timeline.order if isinstance(timeline.items[i], PermissionItem)]


def _option(request, kind: str) -> str:
    return next(o["optionId"] for o in request.options if o["kind"] == kind)


async def _turn(service, envelopes, pipeline, key: str, text: str, answers: tuple[str, ...] = ()):
    """One prompt through the pipeline, answering its permission requests with options of these kinds
    in order; returns the result and the requests."""
    asked = len(envelopes.of_kind("permission_request"))
    running = asyncio.create_task(pipeline.prompt(key, text))
    requests = []
    for kind in answers:
        wanted = asked + len(requests) + 1
        found = await envelopes.wait_for(
            lambda log, n=wanted: (
                log.of_kind("permission_request") if len(log.of_kind("permission_request")) >= n else None
            )
        )
        request = found[wanted - 1]
        requests.append(request)
        assert service.answer_permission(request.request_id, _option(request, kind))
    result = await asyncio.wait_for(running, 20)
    assert len(envelopes.of_kind("permission_request")) == asked + len(answers), "unexpected permission"
    return result, requests


def test_without_a_python_3_12_the_install_fails_saying_so(tmp_path, monkeypatch):
    """No python3.12+ on PATH, no pyenv, and an explicit interpreter that is too old: the fixture's
    error (a test FAILURE, never a skip) says what is missing, how to get it, and what was tried."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("PYENV_ROOT", str(empty))
    monkeypatch.setenv("HOME", str(empty))
    monkeypatch.setenv(
        "CLAWQT_FAST_AGENT_PYTHON", sys.executable if sys.version_info < (3, 12) else "/nonexistent"
    )
    with pytest.raises(RealAgentSetupError) as missing:
        ensure_fast_agent(tmp_path / "cache" / "fast-agent")
    message = str(missing.value)
    assert message.startswith("No Python >= 3.12 was found on this machine")
    assert "pyenv install 3.12" in message and "CLAWQT_FAST_AGENT_PYTHON" in message
    assert "Tried: " in message and os.environ["CLAWQT_FAST_AGENT_PYTHON"] in message
    assert not (tmp_path / "cache" / "fast-agent").exists()


async def test_starts_with_its_identity_capabilities_mode_and_commands(start):
    service, envelopes, pipeline = start()
    info = await service.start()
    assert (info.name, info.version, info.protocol_version) == ("fast-agent-acp", FAST_AGENT_VERSION, 1)
    assert info.supports("loadSession")
    assert info.supports("sessionCapabilities", "list") and info.supports("sessionCapabilities", "resume")
    assert not info.supports("sessionCapabilities", "close")
    # an agent-handled sign-in method is offered although nothing needs it with the passthrough model
    assert [m["id"] for m in info.auth_methods] == ["fast-agent-ai-secrets"]
    assert envelopes.of_kind("agent_state")[-1].state == "ready"

    timeline = await pipeline.new_session()
    key = timeline.session_key
    assert service.active_session_key == key  # a generic agent: the key is fast-agent's session id
    commands = await envelopes.wait_for(lambda _: [c["name"] for c in timeline.meta.commands])
    assert {"tools", "status", "model"} <= set(commands)
    # it lists a sign-in method, but the chat opened: no sign-in is asked for
    assert envelopes.of_kind("agent_state")[-1].state == "ready"

    # a slash command runs inside the agent, without the model. /tools shows that ClawQt's `fs`
    # capability made fast-agent read and write files through the client (ACP Filesystem), not
    # through its own local tools (without it: "_(Shell)_", and an extra edit_file)
    result, _ = await _turn(service, envelopes, pipeline, key, "/tools")
    assert result.stop_reason == "end_turn"
    listing = envelopes.text(key)
    assert "**read\\_text\\_file** _(ACP Filesystem)_" in listing, listing
    assert "**write\\_text\\_file** _(ACP Filesystem)_" in listing, listing
    assert "**execute**" in listing and "edit\\_file" not in listing, listing


async def test_its_one_mode_is_offered_and_an_unknown_mode_is_refused_in_its_own_words(start):
    service, _, _ = start()
    opened = await service.new_session()
    assert opened.created
    assert opened.modes is not None and opened.modes["currentModeId"] == "agent"
    assert [m["id"] for m in opened.modes["availableModes"]] == ["agent"]
    await service.set_mode(opened.session_key, "agent")
    # -32602 "Invalid params" with the reason in its data: the reason is what the user reads
    with pytest.raises(AgentRequestFailed) as refused:
        await service.set_mode(opened.session_key, "no-such-mode")
    assert str(refused.value).startswith("Invalid mode id")
    assert "-32602" in str(refused.value.details)


async def test_prompt_is_answered_by_an_update_before_the_turn_settles(start):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    result, _ = await _turn(service, envelopes, pipeline, key, "hello from clawqt")
    assert result.stop_reason == "end_turn"
    assert envelopes.text(key) == "hello from clawqt"  # passthrough: the prompt comes back
    kinds = [e.kind for e in envelopes.items if e.kind in ("session_update", "prompt_settled")]
    assert kinds.index("prompt_settled") > max(
        i
        for i, e in enumerate(e for e in envelopes.items if e.kind in ("session_update", "prompt_settled"))
        if e.kind == "session_update" and e.notification["update"]["sessionUpdate"] == "agent_message_chunk"
    )
    # its title comes as a session_info_update from the first prompt
    assert timeline.meta.title == "hello from clawqt"
    await _turn(service, envelopes, pipeline, key, "second")
    assert _texts(timeline, "user") == ["hello from clawqt", "second"]
    assert _texts(timeline, "assistant") == ["hello from clawqt", "second"]


async def test_execute_asks_permission_first_and_runs_in_a_client_terminal(start, workspace):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key

    # rejected: the permission names a tool call that does not exist yet ("pending")...
    result, (request,) = await _turn(
        service, envelopes, pipeline, key, _call("execute", command="echo never"), ("reject_once",)
    )
    assert result.stop_reason == "end_turn"
    assert request.tool_call["toolCallId"] == "pending"
    assert (request.tool_call["kind"], request.tool_call["rawInput"]) == (
        "execute",
        {"command": "echo never"},
    )
    assert {o["kind"] for o in request.options} == {
        "allow_once",
        "allow_always",
        "reject_once",
        "reject_always",
    }
    # ... and the tool call appears after the answer, already failed; nothing ran
    (rejected,) = _tools(timeline)
    assert rejected.status == "failed" and rejected.tool_call_id != "pending"
    assert "declined permission" in envelopes.text(key)
    assert envelopes.of_kind("terminal_output") == [] and len(service.terminals) == 0
    (answered,) = _permissions(timeline)
    assert (answered.status, answered.selected_option) == ("selected", "reject_once")

    # allowed: fast-agent runs `/bin/sh -lc CMD` in a ClawQt terminal, in the session's folder
    command = "pwd; printf 'one\\ntwo\\n'; exit 3"
    result, _ = await _turn(
        service, envelopes, pipeline, key, _call("execute", command=command), ("allow_once",)
    )
    assert result.stop_reason == "end_turn"
    outputs = envelopes.of_kind("terminal_output")
    assert len({e.terminal_id for e in outputs}) == 1 and all(e.session_key == key for e in outputs)
    shown = "".join(e.data for e in outputs)
    assert shown.splitlines() == [str(workspace), "one", "two"]
    assert (outputs[-1].exited, outputs[-1].exit_code, outputs[-1].signal) == (True, 3, None)
    assert len(service.terminals) == 0  # released by the agent
    # the card: fast-agent does not embed the terminal; it reports the output and exit code as text
    ran = _tools(timeline)[-1]
    assert (ran.tool_kind, ran.status, ran.terminal_ids) == ("execute", "failed", [])
    card_text = "".join(p.text for p in ran.output_parts if isinstance(p, MarkdownPart))
    assert "one" in card_text and "[Exit code: 3]" in card_text


async def test_a_write_is_shown_as_a_diff_and_reverted(start, workspace):
    service, envelopes, pipeline = start()
    wire: list[tuple[str, dict]] = []
    service.observe_raw(lambda direction, message: wire.append((direction, json.loads(json.dumps(message)))))
    timeline = await pipeline.new_session()
    key = timeline.session_key
    notes = workspace / "notes.txt"
    notes.write_text("keep\nold\ntail\n")

    result, (request,) = await _turn(
        service,
        envelopes,
        pipeline,
        key,
        _call("write_text_file", path=str(notes), content="keep\nnew\ntail\n"),
        ("allow_once",),
    )
    assert result.stop_reason == "end_turn"
    assert request.tool_call["kind"] == "edit"
    assert notes.read_text() == "keep\nnew\ntail\n"
    # the tool card shows fast-agent's own diff (it read the file before writing)
    (edit,) = _tools(timeline)
    assert edit.status == "completed"
    diffs = [p for p in edit.output_parts if isinstance(p, DiffPart)]
    assert [(d.path, d.old_text, d.new_text) for d in diffs] == [
        (str(notes), "keep\nold\ntail\n", "keep\nnew\ntail\n")
    ]
    # ClawQt's own record of the turn's changes: a unified diff with context, and Revert
    turn = result.client_message_id
    assert [(e.session_key, e.turn_id) for e in envelopes.of_kind("file_changes")] == [(key, turn)]
    (change,) = service.files.changes(key, turn)
    assert (change.path, change.name, change.created) == (str(notes), "notes.txt", False)
    assert "-old\n+new\n" in change.diff and " keep\n" in change.diff and " tail\n" in change.diff
    service.files.revert(key, turn, str(notes))
    assert notes.read_text() == "keep\nold\ntail\n"
    assert service.files.changes(key, turn) == []

    # a new file: fast-agent reads it first anyway and is told it does not exist, then writes it
    fresh = workspace / "fresh.txt"
    result, _ = await _turn(
        service,
        envelopes,
        pipeline,
        key,
        _call("write_text_file", path=str(fresh), content="hi\n"),
        ("allow_once",),
    )
    assert result.stop_reason == "end_turn" and fresh.read_text() == "hi\n"
    (read,) = [
        m["id"]
        for d, m in wire
        if d == "recv" and m.get("method") == "fs/read_text_file" and m["params"]["path"] == str(fresh)
    ]
    (answer,) = [m for d, m in wire if d == "send" and m.get("id") == read and "method" not in m]
    assert answer["error"]["code"] == -32002 and "does not exist" in answer["error"]["message"]
    (created,) = service.files.changes(key, result.client_message_id)
    assert created.created and "+hi\n" in created.diff
    service.files.revert(key, result.client_message_id, str(fresh))
    assert not fresh.exists()


async def test_reads_inside_and_a_refused_read_outside_in_words_the_agent_repeats(start, workspace, tmp_path):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    (workspace / "inside.txt").write_text("inside text\n")
    (tmp_path / "secret.txt").write_text("top secret\n")

    await _turn(
        service,
        envelopes,
        pipeline,
        key,
        _call("read_text_file", path=str(workspace / "inside.txt")),
        ("allow_once",),
    )
    assert _tools(timeline)[-1].status == "completed"
    assert envelopes.text(key) == "inside text\n"

    before = len(envelopes.text(key))
    await _turn(
        service,
        envelopes,
        pipeline,
        key,
        _call("read_text_file", path=str(tmp_path / "secret.txt")),
        ("allow_once",),
    )
    reply = envelopes.text(key)[before:]
    assert "is outside the session folder" in reply  # ClawQt's reason reached the agent's model
    assert _tools(timeline)[-1].status == "failed"
    assert "top secret" not in json.dumps([repr(e) for e in envelopes.items])


async def test_stop_while_a_command_runs_then_the_left_terminal_is_killed_after_the_grace(start, workspace):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    pidfile = workspace / "held.pid"
    command = f"echo $$ > {pidfile}; echo started; exec sleep 30"
    wire: list[tuple[str, dict]] = []
    service.observe_raw(lambda direction, message: wire.append((direction, json.loads(json.dumps(message)))))

    running = asyncio.create_task(pipeline.prompt(key, _call("execute", command=command)))
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
    assert cancelled.tool_call_ids == (_tools(timeline)[0].tool_call_id,)
    assert _tools(timeline)[0].status == "cancelled"
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
    again, _ = await _turn(service, envelopes, pipeline, key, "after stop")
    assert again.stop_reason == "end_turn"
    assert _texts(timeline, "assistant")[-1] == "**The user interrupted this tool call**"


async def test_stop_while_its_permission_is_pending_cancels_the_request(start):
    service, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    running = asyncio.create_task(pipeline.prompt(key, _call("execute", command="echo never")))
    (request,) = await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    assert await service.cancel(key) is True
    result = await asyncio.wait_for(running, 5)

    assert result.stop_reason == "cancelled"
    resolved = envelopes.of_kind("permission_resolved")
    assert [(e.request_id, e.outcome, e.reason) for e in resolved] == [
        (request.request_id, "cancelled", "cancelled")
    ]
    assert service.answer_permission(request.request_id, "allow_once") is False
    assert _permissions(timeline)[0].status == "cancelled"
    assert _tools(timeline) == []  # the "pending" tool call never came to exist
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
    assert _texts(timeline, "user") == ["take your time"]
    assert isinstance(timeline.items[timeline.order[-1]], TurnEnd)  # "Stopped", not a bare message
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert envelopes.updates("agent_message_chunk") == []  # nothing comes in after the Stop


async def test_an_earlier_session_loads_and_resumes_in_a_fresh_agent_process(start, workspace):
    first, envelopes, pipeline = start()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    await _turn(first, envelopes, pipeline, key, "remember the word banana")
    await _turn(
        first, envelopes, pipeline, key, _call("execute", command="echo from-the-past"), ("allow_once",)
    )
    assert len(_tools(timeline)) == 1
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
    assert _tools(loaded) == [] and _permissions(loaded) == []
    assert _texts(loaded, "user")[0] == "remember the word banana"
    assert any("from-the-past" in text for text in _texts(loaded, "assistant"))
    result, _ = await _turn(second, envelopes2, pipeline2, key, "and now")
    assert result.stop_reason == "end_turn" and result.generation == loaded.generation
    assert _texts(loaded, "assistant")[-1] == "and now"
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
        await _turn(
            service,
            envelopes,
            pipeline,
            timeline.session_key,
            _call("execute", command=command),
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
