"""fs/read_text_file and fs/write_text_file through a real scripted agent subprocess: the agent reads and
writes inside the session's workspace, is refused outside it (nothing written), and the service records
the turn's changes for the diff card."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.main.acp.json_rpc import RpcError
from tests.conftest import scripted_agent_argv


async def _session(make_service, tmp_path: Path):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    service, envelopes = make_service(scripted_agent_argv(), cwd=str(workspace))
    opened = await service.new_session()
    return service, envelopes, opened.session_key, workspace


async def _say(service, envelopes, key: str, prompt: str) -> tuple[dict, str]:
    """Send one prompt; returns the agent's JSON report and the turn id (the client message id)."""
    before = len(envelopes.text(key))
    result = await service.prompt(key, prompt)
    assert result.stop_reason == "end_turn"
    return json.loads(envelopes.text(key)[before:]), result.client_message_id


def _refusals(envelopes) -> list[str]:
    return [e.message for e in envelopes.of_kind("diagnostic") if e.code == "fs-refused"]


async def test_agent_reads_a_workspace_file_whole_and_by_lines(make_service, tmp_path):
    service, envelopes, key, ws = await _session(make_service, tmp_path)
    (ws / "notes.txt").write_text("first\nsecond\nthird\n")
    report, _ = await _say(service, envelopes, key, "fs-read notes.txt")
    assert report == {"result": {"content": "first\nsecond\nthird\n"}, "error": None}
    report, _ = await _say(service, envelopes, key, "fs-read notes.txt 2 1")
    assert report["result"] == {"content": "second\n"}
    assert _refusals(envelopes) == []


async def test_agent_reading_outside_the_workspace_gets_an_error(make_service, tmp_path):
    service, envelopes, key, _ = await _session(make_service, tmp_path)
    (tmp_path / "outside.txt").write_text("secret outside")
    report, _ = await _say(service, envelopes, key, "fs-read-outside")
    assert report["result"] is None
    assert report["error"]["code"] == -32002  # resource not found, and the message says why:
    assert "outside the session folder" in report["error"]["data"]["details"]
    assert "outside the session folder" in report["error"]["message"]  # what the agent's model reads
    assert "secret outside" not in json.dumps(report)
    assert len(_refusals(envelopes)) == 1


async def test_agent_reading_a_fifo_is_refused_as_not_regular(make_service, tmp_path):
    service, envelopes, key, ws = await _session(make_service, tmp_path)
    os.mkfifo(ws / "pipe")
    report, _ = await _say(service, envelopes, key, "fs-read pipe")
    assert report["error"]["code"] == -32602 and "not a regular file" in report["error"]["data"]["details"]


async def test_agent_write_inside_changes_the_file_and_the_turn_records_it(make_service, tmp_path):
    service, envelopes, key, ws = await _session(make_service, tmp_path)
    target = ws / "notes.txt"
    target.write_text("old line\n")
    os.chmod(target, 0o640)
    await _say(service, envelopes, key, "fs-read notes.txt")
    report, turn_id = await _say(service, envelopes, key, "fs-write notes.txt new line\\nsecond\\n")
    assert report == {"result": {}, "error": None}
    assert target.read_text() == "new line\nsecond\n"
    assert os.stat(target).st_mode & 0o777 == 0o640
    assert not [p for p in ws.iterdir() if p.name.startswith(".clawqt-")]
    (change,) = service.files.files.changes(key, turn_id)
    assert (change.path, change.before, change.after) == (str(target), "old line\n", "new line\nsecond\n")
    assert change.read_base == "old line\n"
    (shown,) = service.files.changes(key, turn_id)
    assert (shown.path, shown.name, shown.created) == (str(target), "notes.txt", False)
    assert "-old line\n+new line\n+second\n" in shown.diff
    announced = envelopes.of_kind("file_changes")
    assert [(e.session_key, e.turn_id) for e in announced] == [(key, turn_id)]
    service.files.revert(key, turn_id, str(target))
    assert target.read_text() == "old line\n" and service.files.changes(key, turn_id) == []
    assert len(envelopes.of_kind("file_changes")) == 2  # the revert is announced too


async def test_agent_write_outside_is_refused_and_nothing_is_written(make_service, tmp_path):
    service, envelopes, key, ws = await _session(make_service, tmp_path)
    listing = sorted(p.name for p in tmp_path.iterdir())
    report, turn_id = await _say(service, envelopes, key, "fs-write-outside")
    assert report["result"] is None and report["error"]["code"] == -32002
    assert sorted(p.name for p in tmp_path.iterdir()) == listing
    assert not (tmp_path / "outside.txt").exists() and list(ws.iterdir()) == []
    assert service.files.changes(key, turn_id) == []
    assert len(_refusals(envelopes)) == 1


async def test_file_request_for_an_unknown_session_is_resource_not_found(make_service, tmp_path):
    service, envelopes, _key, ws = await _session(make_service, tmp_path)
    (ws / "a.txt").write_text("a")
    with pytest.raises(RpcError) as refused:
        await service._client.read_text_file("no-such-session", str(ws / "a.txt"))
    assert refused.value.code == -32002 and "no open session" in refused.value.data["details"]
    with pytest.raises(RpcError) as refused_write:
        await service._client.write_text_file("no-such-session", str(ws / "a.txt"), "b")
    assert refused_write.value.code == -32002 and (ws / "a.txt").read_text() == "a"
    assert len(_refusals(envelopes)) == 2


async def test_additional_directories_are_sent_when_supported_and_reachable_by_fs(make_service, tmp_path):
    workspace, extra = tmp_path / "ws", tmp_path / "extra"
    workspace.mkdir()
    extra.mkdir()
    (extra / "shared.txt").write_text("shared notes\n")
    (tmp_path / "elsewhere.txt").write_text("not granted\n")
    caps = {"loadSession": True, "sessionCapabilities": {"additionalDirectories": {}}}
    service, envelopes = make_service(
        scripted_agent_argv(f"--caps={json.dumps(caps)}"),
        cwd=str(workspace),
        additional_directories=[str(extra)],
    )
    sent: list[dict] = []
    service.observe_raw(lambda direction, message: sent.append(message) if direction == "send" else None)
    opened = await service.new_session()
    [new] = [m for m in sent if m.get("method") == "session/new"]
    assert new["params"]["additionalDirectories"] == [os.path.realpath(extra)]
    report, _ = await _say(service, envelopes, opened.session_key, "fs-read ../extra/shared.txt")
    assert report["result"] == {"content": "shared notes\n"}
    report, _ = await _say(service, envelopes, opened.session_key, "fs-read ../elsewhere.txt")
    assert report["result"] is None and report["error"]["code"] == -32002


async def test_additional_directories_are_not_sent_to_an_agent_without_the_capability(make_service, tmp_path):
    service, _ = make_service(
        scripted_agent_argv(), cwd=str(tmp_path), additional_directories=[str(tmp_path)]
    )
    sent: list[dict] = []
    service.observe_raw(lambda direction, message: sent.append(message) if direction == "send" else None)
    await service.new_session()
    [new] = [m for m in sent if m.get("method") == "session/new"]
    assert "additionalDirectories" not in new["params"]


async def test_requests_the_client_cannot_take_as_sent_get_json_rpc_errors_and_the_next_one_works(
    make_service, tmp_path
):
    """Answered by ClawQt's own JSON-RPC layer (app/main/acp/rpc_connection.py, acp/rpc_params.py): an unknown
    or extension method is method not found, params that are no object or a field of the wrong type
    (or missing) are invalid params naming the field; nothing of it ends the agent's connection."""
    service, envelopes, key, ws = await _session(make_service, tmp_path)
    (ws / "notes.txt").write_text("still here\n")
    answers, _ = await _say(service, envelopes, key, "rpc-hostile")
    errors = [
        (a["method"], a["error"]["code"], (a["error"].get("data") or {}).get("details")) for a in answers[:-1]
    ]
    assert errors == [
        ("no/such_method", -32601, None),
        ("_vendor/extension", -32601, None),
        ("mcp/connect", -32601, None),
        ("fs/read_text_file", -32602, "params must be an object"),
        ("fs/read_text_file", -32602, "`path` must be a string"),
        ("fs/read_text_file", -32602, "`line` must be an integer"),
        ("fs/write_text_file", -32602, "`content` must be a string"),
        ("terminal/output", -32602, "`terminalId` must be a string"),
        ("session/request_permission", -32602, "`options` must be a list of objects"),
    ]
    assert all(a["result"] is None for a in answers[:-1])
    assert answers[-1] == {
        "method": "fs/read_text_file",
        "result": {"content": "still here\n"},
        "error": None,
    }
    assert service.connection.state == "ready"
