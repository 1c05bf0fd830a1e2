"""The demo agent (`python -m app demo-agent`) on the wire, driven by the Python SDK's client side:
a real subprocess, real stdio, raw messages checked through a connection observer (wire.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from acp import RequestError
from acp.schema import ClientCapabilities

import app
from tests.integration.demo_agent.wire import (
    Agent,
    WireClient,
    end,
    start_agent,
    stop,
    text_block,
    within,
)
from tests.waits import until

RESOURCE_NOT_FOUND = -32002
INVALID_PARAMS = -32602
INVALID_REQUEST = -32600

Spawn = Callable[..., Awaitable[Agent]]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    path = tmp_path / "work"
    path.mkdir()
    return path


@pytest.fixture
async def spawn(tmp_path: Path, data_dir: Path) -> AsyncIterator[Spawn]:
    """`await spawn(terminal_output=True, permission="allow")` -> an initialized demo agent; every
    process group is killed at teardown."""
    started: list[Agent] = []

    async def factory(*, terminal_output: bool = True, permission: str = "allow") -> Agent:
        capabilities = ClientCapabilities(field_meta={"terminal_output": True}) if terminal_output else None
        client = WireClient(permission=permission)
        agent = await start_agent(data_dir, tmp_path / "agent-stderr.log", client, capabilities)
        started.append(agent)
        return agent

    yield factory
    for agent in started:
        await end(agent)


# --- handshake and session setup ---------------------------------------------------------------------
async def test_initialize_advertises_capabilities(spawn: Spawn) -> None:
    agent = await spawn()
    result = next(m["result"] for m in agent.client.raw if "result" in m and m["id"] == 0)
    assert result["protocolVersion"] == 1
    assert result["agentInfo"] == {
        "name": "clawqt-demo",
        "title": "ClawQt demo agent",
        "version": app.__version__,
    }
    caps = result["agentCapabilities"]
    assert caps["loadSession"] is True
    assert caps["promptCapabilities"] == {"image": True, "audio": False, "embeddedContext": True}
    assert caps["sessionCapabilities"] == {"list": {}, "resume": {}, "close": {}}
    assert caps["mcpCapabilities"]["http"] is True  # ClawQt's terminal tools (test_demo_agent_terminals.py)


async def test_new_session_has_modes_model_option_and_commands(spawn: Spawn, work: Path) -> None:
    agent = await spawn()
    response = await within(agent.conn.new_session(cwd=str(work)))
    assert len(response.session_id) == 32
    assert response.modes is not None
    assert response.modes.current_mode_id == "code"
    assert [mode.id for mode in response.modes.available_modes] == ["ask", "code"]
    assert response.config_options is not None
    assert [option.id for option in response.config_options] == ["model"]
    raw_new = next(m["result"] for m in agent.client.raw if "result" in m and "sessionId" in m["result"])
    (option,) = raw_new["configOptions"]
    assert option["type"] == "select" and option["category"] == "model"
    assert option["currentValue"] == "demo-fast"
    assert [o["value"] for o in option["options"]] == ["demo-fast", "demo-thorough"]

    (commands,) = await until(
        lambda: agent.client.raw_updates(response.session_id, "available_commands_update"), 5
    )
    by_name = {c["name"]: c for c in commands["availableCommands"]}
    assert set(by_name) == {"help", "echo", "terminals", "terminal", "propose"}
    assert by_name["echo"]["input"] == {"hint": "text to repeat"}


# --- the showcase turn ---------------------------------------------------------------------------------
def _tool_calls(updates: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Tool call id -> its tool_call followed by its tool_call_updates."""
    calls: dict[str, list[dict[str, Any]]] = {}
    for update in updates:
        if update["sessionUpdate"] in ("tool_call", "tool_call_update"):
            calls.setdefault(update["toolCallId"], []).append(update)
    return calls


def _by_kind(calls: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {history[0]["kind"]: history for history in calls.values()}


async def test_showcase_turn_with_terminal_output(spawn: Spawn, work: Path) -> None:
    agent = await spawn(terminal_output=True)
    sid = await agent.start(work)
    assert await agent.say(sid, "Show me everything you can do") == "end_turn"

    updates = [u for u in agent.client.raw_updates(sid) if u["sessionUpdate"] != "available_commands_update"]
    kinds = [u["sessionUpdate"] for u in updates]
    assert "user_message_chunk" not in kinds  # the prompt is not echoed live
    # Nothing was dropped by the SDK's validation on the client side.
    assert len(agent.client.updates) == len(agent.client.raw_updates(sid))

    first = {kind: kinds.index(kind) for kind in dict.fromkeys(kinds)}
    assert kinds[0] == "agent_thought_chunk"
    assert first["agent_thought_chunk"] < first["plan"] < first["agent_message_chunk"] < first["tool_call"]
    assert kinds[-2:] == ["session_info_update", "usage_update"]
    assert all(u.get("messageId") for u in updates if u["sessionUpdate"].endswith("_chunk"))

    plans = [[e["status"] for e in u["entries"]] for u in updates if u["sessionUpdate"] == "plan"]
    assert plans[0] == ["pending"] * 3
    assert plans[-1] == ["completed"] * 3
    assert any("in_progress" in statuses for statuses in plans)
    assert all(len(statuses) == 3 for statuses in plans)

    text = agent.client.text(sid)
    assert "\n## " in "\n" + text
    assert "```python\n" in text
    assert "|---|" in text and "| Feature |" in text

    calls = _by_kind(_tool_calls(updates))
    assert set(calls) == {"read", "search", "edit", "execute"}
    for kind in ("read", "search", "edit", "execute"):
        assert calls[kind][-1]["status"] == "completed", kind
    read = calls["read"]
    assert read[0]["locations"] and read[0]["locations"][0]["path"].startswith(str(work))
    assert read[-1]["content"][0]["content"]["type"] == "text"

    (request,) = agent.client.permission_requests
    assert request["tool_call"].kind == "edit"
    assert [(o.kind, o.name) for o in request["options"]] == [
        ("allow_once", "Allow"),
        ("allow_always", "Always allow"),
        ("reject_once", "Reject"),
    ]
    (diff,) = calls["edit"][-1]["content"]
    assert diff["type"] == "diff" and diff["path"].endswith("hello.py")
    assert diff["oldText"] and diff["newText"] and diff["oldText"] != diff["newText"]

    execute = calls["execute"]
    (terminal,) = execute[0]["content"]
    assert terminal["type"] == "terminal"
    terminal_id = terminal["terminalId"]
    assert execute[0]["_meta"]["terminal_info"] == {"terminal_id": terminal_id, "cwd": str(work)}
    outputs = [u["_meta"]["terminal_output"] for u in execute if "terminal_output" in u.get("_meta", {})]
    assert outputs and all(o["terminal_id"] == terminal_id for o in outputs)
    assert "\x1b[" in "".join(o["data"] for o in outputs)
    assert execute[-1]["_meta"]["terminal_exit"] == {
        "terminal_id": terminal_id,
        "exit_code": 0,
        "signal": None,
    }

    links = [
        u["content"]
        for u in updates
        if u["sessionUpdate"] == "agent_message_chunk" and u["content"]["type"] == "resource_link"
    ]
    (link,) = links
    path = Path(unquote(urlparse(link["uri"]).path))
    assert link["uri"].startswith("file://") and path == work / "clawqt-demo-notes.md"
    assert link["name"] == "clawqt-demo-notes.md" and link["mimeType"] == "text/markdown"
    assert path.is_file() and link["size"] == path.stat().st_size
    assert updates.index(next(u for u in updates if u.get("content") == link)) > first["tool_call"]

    info = updates[-2]
    assert info["title"] == "Show me everything you can do" and info["updatedAt"]
    usage = updates[-1]
    assert usage["used"] > 0 and usage["size"] > usage["used"]
    assert set(usage["cost"]) == {"amount", "currency"}


async def test_showcase_without_terminal_output_uses_console_block(spawn: Spawn, work: Path) -> None:
    agent = await spawn(terminal_output=False)
    sid = await agent.start(work)
    assert await agent.say(sid, "Hello") == "end_turn"
    updates = agent.client.raw_updates(sid)
    execute = _by_kind(_tool_calls(updates))["execute"]
    assert execute[-1]["status"] == "completed"
    (block,) = execute[-1]["content"]
    assert block["content"]["text"].startswith("```console\n")
    assert all(c["type"] != "terminal" for u in execute for c in u.get("content") or [])
    assert not any("terminal" in key for u in updates for key in u.get("_meta", {}))


async def test_rejected_permission_fails_the_edit(spawn: Spawn, work: Path) -> None:
    agent = await spawn(permission="reject")
    sid = await agent.start(work)
    assert await agent.say(sid, "Change hello.py") == "end_turn"
    edit = _by_kind(_tool_calls(agent.client.raw_updates(sid)))["edit"]
    assert edit[-1]["status"] == "failed"
    (content,) = edit[-1]["content"]
    assert "rejected" in content["content"]["text"]
    assert len(agent.client.permission_requests) == 1


async def test_cancelled_permission_cancels_the_turn(spawn: Spawn, work: Path) -> None:
    agent = await spawn(permission="cancelled")
    sid = await agent.start(work)
    assert await agent.say(sid, "Change hello.py") == "cancelled"
    calls = _by_kind(_tool_calls(agent.client.raw_updates(sid)))
    assert calls["edit"][-1]["status"] == "failed"
    assert "rejected" in calls["edit"][-1]["content"][0]["content"]["text"]
    assert "execute" not in calls  # the turn stopped at the edit


# --- commands, slow stream, cancel ---------------------------------------------------------------------
async def test_slash_commands(spawn: Spawn, work: Path) -> None:
    agent = await spawn()
    sid = await agent.start(work)
    assert await agent.say(sid, "/echo hi") == "end_turn"
    assert agent.client.text(sid) == "hi"
    assert await agent.say(sid, "/help") == "end_turn"
    assert "`/echo TEXT`" in agent.client.text(sid)
    assert not agent.client.permission_requests


async def test_slow_stream_cancels_promptly_and_keeps_partial_text(spawn: Spawn, work: Path) -> None:
    agent = await spawn()
    sid = await agent.start(work)
    turn = asyncio.create_task(agent.say(sid, "Tell me something slow"))
    await until(lambda: len(agent.client.raw_updates(sid, "agent_message_chunk")) >= 3, 5)

    with pytest.raises(RequestError) as busy:
        await within(agent.conn.prompt(session_id=sid, prompt=[text_block("/echo meanwhile")]))
    assert busy.value.code == INVALID_REQUEST

    await agent.conn.cancel(session_id=sid)
    assert await within(turn, 30) == "cancelled"  # not cancelled, the stream would end its turn
    partial = agent.client.text(sid)
    assert partial.startswith("slow-1/400 ") and "slow-400/400" not in partial
    count = len(agent.client.raw_updates(sid))
    await asyncio.sleep(0.15)  # time for what must not happen to show: an absence has no event
    assert len(agent.client.raw_updates(sid)) == count  # nothing streams after the answer

    assert await agent.say(sid, "/echo again") == "end_turn"


# --- persistence ---------------------------------------------------------------------------------------
async def test_load_after_restart_replays_history(spawn: Spawn, work: Path, data_dir: Path) -> None:
    first = await spawn()
    sid = await first.start(work)
    assert await first.say(sid, "/echo remember me") == "end_turn"
    await within(first.conn.set_config_option(config_id="model", session_id=sid, value="demo-thorough"))
    await stop(first)
    assert (data_dir / "demo-agent" / "sessions" / f"{sid}.json").is_file()

    second = await spawn()
    with pytest.raises(RequestError) as missing:
        await within(second.conn.load_session(cwd=str(work), session_id="0" * 32))
    assert missing.value.code == RESOURCE_NOT_FOUND

    response = await within(second.conn.load_session(cwd=str(work), session_id=sid))
    assert response.modes is not None and response.modes.current_mode_id == "code"
    assert response.config_options is not None
    assert response.config_options[0].current_value == "demo-thorough"

    raw = second.client.raw
    answer = next(i for i, m in enumerate(raw) if "result" in m and "modes" in (m["result"] or {}))
    replayed = [m["params"]["update"] for m in raw[:answer] if m.get("method") == "session/update"]
    assert [u["sessionUpdate"] for u in replayed] == ["user_message_chunk", "agent_message_chunk"]
    assert replayed[0]["content"]["text"] == "/echo remember me"
    assert replayed[1]["content"]["text"] == "remember me"
    assert replayed[0]["messageId"] != replayed[1]["messageId"]
    await until(lambda: second.client.raw_updates(sid, "available_commands_update"), 5)

    assert await second.say(sid, "/echo still here") == "end_turn"


async def test_list_sessions_pages_newest_first(spawn: Spawn, work: Path, tmp_path: Path) -> None:
    agent = await spawn()
    created = []
    for _ in range(22):
        sid = await agent.start(work)
        assert await agent.say(sid, "/echo x") == "end_turn"
        created.append(sid)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = await agent.start(elsewhere)

    page1 = await within(agent.conn.list_sessions())
    assert len(page1.sessions) == 20 and page1.next_cursor
    page2 = await within(agent.conn.list_sessions(cursor=page1.next_cursor))
    assert page2.next_cursor is None
    listed = page1.sessions + page2.sessions
    assert sorted(s.session_id for s in listed) == sorted([*created, other])
    stamps = [s.updated_at for s in listed]
    assert stamps == sorted(stamps, reverse=True)
    assert listed[0].session_id == other
    assert {s.title for s in listed if s.session_id != other} == {"/echo x"}
    assert all(s.cwd == str(work) for s in listed if s.session_id != other)

    only_elsewhere = await within(agent.conn.list_sessions(cwd=str(elsewhere)))
    assert [s.session_id for s in only_elsewhere.sessions] == [other]
    with pytest.raises(RequestError) as bad_cursor:
        await within(agent.conn.list_sessions(cursor="not-a-cursor"))
    assert bad_cursor.value.code == INVALID_PARAMS


async def test_corrupt_session_file_is_skipped(
    spawn: Spawn, work: Path, data_dir: Path, tmp_path: Path
) -> None:
    agent = await spawn()
    sid = await agent.start(work)
    sessions = data_dir / "demo-agent" / "sessions"
    (sessions / "deadbeef.json").write_text("{not json", encoding="utf-8")
    (sessions / "cafe.json").write_text(json.dumps(["a list"]), encoding="utf-8")
    listed = await within(agent.conn.list_sessions())
    assert [s.session_id for s in listed.sessions] == [sid]
    with pytest.raises(RequestError) as corrupt:
        await within(agent.conn.load_session(cwd=str(work), session_id="deadbeef"))
    assert corrupt.value.code == RESOURCE_NOT_FOUND
    assert "corrupt session file" in (tmp_path / "agent-stderr.log").read_text()


# --- settings, resume/close, odd input -------------------------------------------------------------------
async def test_set_mode_and_config_option(spawn: Spawn, work: Path) -> None:
    agent = await spawn()
    sid = await agent.start(work)
    await within(agent.conn.set_session_mode(session_id=sid, mode_id="ask"))
    (mode,) = await until(lambda: agent.client.raw_updates(sid, "current_mode_update"), 5)
    assert mode["currentModeId"] == "ask"

    response = await within(
        agent.conn.set_config_option(config_id="model", session_id=sid, value="demo-thorough")
    )
    assert [o.current_value for o in response.config_options] == ["demo-thorough"]
    (update,) = await until(lambda: agent.client.raw_updates(sid, "config_option_update"), 5)
    assert update["configOptions"][0]["currentValue"] == "demo-thorough"

    for call in (
        agent.conn.set_session_mode(session_id=sid, mode_id="yolo"),
        agent.conn.set_config_option(config_id="temperature", session_id=sid, value="hot"),
        agent.conn.set_config_option(config_id="model", session_id=sid, value="gpt-9"),
        agent.conn.set_config_option(config_id="model", session_id=sid, value=True),
    ):
        with pytest.raises(RequestError) as invalid:
            await within(call)
        assert invalid.value.code == INVALID_PARAMS
    with pytest.raises(RequestError) as unknown:
        await within(agent.conn.set_session_mode(session_id="nope", mode_id="ask"))
    assert unknown.value.code == RESOURCE_NOT_FOUND


async def test_resume_close_and_odd_input(spawn: Spawn, work: Path) -> None:
    agent = await spawn()
    sid = await agent.start(work)
    await within(agent.conn.close_session(session_id=sid))
    for call in (
        agent.conn.prompt(session_id=sid, prompt=[text_block("/echo x")]),
        agent.conn.resume_session(cwd=str(work), session_id="../../etc/passwd"),
        agent.conn.load_session(cwd=str(work), session_id="../../etc/passwd"),
    ):
        with pytest.raises(RequestError) as gone:
            await within(call)
        assert gone.value.code == RESOURCE_NOT_FOUND

    resumed = await within(agent.conn.resume_session(cwd=str(work), session_id=sid))
    assert resumed.modes is not None and resumed.modes.current_mode_id == "code"
    assert await agent.say(sid, "/echo back") == "end_turn"

    raw_conn = agent.conn._conn  # requests the SDK client would refuse to build
    with pytest.raises(RequestError) as bad:
        await within(raw_conn.send_request("session/prompt", {"sessionId": sid, "prompt": "not a list"}))
    assert bad.value.code == INVALID_PARAMS
    with pytest.raises(RequestError) as unknown_method:
        await within(raw_conn.send_request("session/fork", {"sessionId": sid, "cwd": str(work)}))
    assert unknown_method.value.code == -32601
    await raw_conn.send_notification("session/cancel", {"sessionId": "nobody"})
    assert await agent.say(sid, "/echo alive") == "end_turn"
    await stop(agent)
