"""The protocol inspector's log, fed by a real agent's pipe: both ways and stderr, responses named by
their requests, credentials never shown, bounded, and saved as a trace `clawqt replay` renders."""

from __future__ import annotations

import json

from app.main.acp import protocol_log
from app.main.acp.protocol_log import ProtocolLog
from app.main.host.parts import InspectorOfCurrent
from app.main.sessions.hub import AgentHub
from app.replay import replay_json
from tests.conftest import scripted_agent_argv


async def test_the_log_holds_both_ways_and_stderr_with_responses_named_by_their_request(
    make_service, tmp_path
):
    service, _ = make_service(scripted_agent_argv())
    inspector = InspectorOfCurrent(AgentHub.single(service))
    session = await service.new_session()
    await service.set_mode(session.session_key, "b")  # the scripted agent says so on stderr
    await service.prompt(session.session_key, "hello")
    page = inspector.read(0)
    assert page.first == 1 and page.entries[0].seq == 1
    sent = [(e.kind, e.method) for e in page.entries if e.direction == "send"]
    assert sent[:2] == [("request", "initialize"), ("request", "session/new")]
    answers = {e.method for e in page.entries if e.direction == "recv" and e.kind == "response"}
    assert {"initialize", "session/new", "session/set_mode", "session/prompt"} <= answers
    updates = [e for e in page.entries if e.method == "session/update"]
    assert updates and all(e.session == session.session_key and e.kind == "notification" for e in updates)
    assert any(e.direction == "stderr" for e in page.entries)
    assert all(e.kept for e in page.entries)
    prompt = next(e for e in page.entries if e.method == "session/prompt" and e.direction == "send")
    shown = inspector.text(prompt.seq, pretty=True)
    assert json.loads(shown)["method"] == "session/prompt" and "\n  " in shown  # indented on demand
    assert inspector.read(page.entries[-1].seq).entries == ()  # nothing new since

    trace = tmp_path / "saved.jsonl"
    written = await inspector.save_trace(str(trace))
    assert written == len(page.entries)
    replayed = replay_json(trace)  # the trace `--record` writes, rendered by `clawqt replay`
    assert [s["key"] for s in replayed["sessions"]] == [session.session_key]
    texts = [g["text"] for g in replayed["sessions"][0]["groups"] if g["kind"] == "user"]
    assert texts == ["hello"]


def test_credentials_are_named_not_shown_in_the_text_and_the_saved_trace():
    log = ProtocolLog()
    secret = "cqt_" + "A1b2" * 8
    line = json.dumps({"jsonrpc": "2.0", "method": "session/prompt", "id": 3, "params": {"token": secret}})
    log.wire("send", json.loads(line), line.encode())
    text = log.text(1)
    assert secret not in text and "cqt_<redacted>" in text


def test_a_line_the_transport_read_into_a_bytearray_is_shown_as_text():
    """The transport hands observers the buffer a long line was read into (a bytearray): its text is
    still a string, redacted like any other."""
    log = ProtocolLog()
    secret = "cqt_" + "C3d4" * 8
    line = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"token": secret}})
    log.wire("recv", json.loads(line), bytearray(line.encode()))
    text = log.text(1)
    assert isinstance(text, str) and "session/update" in text and secret not in text


def test_the_oldest_entries_go_first_past_the_bounds_and_a_huge_line_is_listed_not_kept(monkeypatch):
    monkeypatch.setattr(protocol_log, "MAX_BYTES", 1_000)
    monkeypatch.setattr(protocol_log, "MAX_KEPT_LINE_BYTES", 500)
    log = ProtocolLog()
    log.watch(True)
    for n in range(30):
        line = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"n": n}})
        log.wire("recv", json.loads(line), line.encode())
    page = log.read("a", 0)
    assert page.first > 1 and page.entries[0].seq == page.first  # the oldest were let go
    assert sum(e.size for e in page.entries) <= 1_000
    assert "no longer kept" in log.text(1)
    huge = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"x": "y" * 600}})
    log.wire("recv", json.loads(huge), huge.encode())
    last = log.read("a", 0).entries[-1]
    assert not last.kept and last.size == len(huge) and "its text not kept" in log.text(last.seq)
    after = log.read("a", last.seq - 1)
    assert after.entries == (last,)


def test_closed_it_keeps_only_the_last_moments_and_opened_it_keeps_much_more(monkeypatch):
    monkeypatch.setattr(protocol_log, "IDLE_ENTRIES", 10)
    log = ProtocolLog()  # the inspector is closed: a long chat does not carry a log nobody reads
    line = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {}})
    for _ in range(50):
        log.wire("recv", json.loads(line), line.encode())
    assert [e.seq for e in log.read("a", 0).entries] == list(range(41, 51))
    log.watch(True)
    for _ in range(50):
        log.wire("recv", json.loads(line), line.encode())
    assert len(log.read("a", 0).entries) == 60
    log.watch(False)  # closed again: let go at once
    assert len(log.read("a", 0).entries) == 10
