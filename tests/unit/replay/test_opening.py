"""Open trace…'s main side (app/main/replay/opening.py): a recorded trace replayed through the same feed as
`clawqt replay`; a file that is missing, a folder, too large, or holds no session is refused in words;
what is kept is bounded (the sessions opened last, the failures in words, lines skipped past a length)
and counted."""

from __future__ import annotations

import asyncio

import pytest

from app.contract.envelopes import LoadResult
from app.contract.errors import TraceUnreadable
from app.main.replay import opening as trace_opening
from app.main.replay.opening import open_trace, read_trace_file
from app.renderer.timeline.items import MessageSegment
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.store import replayed_timelines
from bench.trace_files import PARAGRAPH, one_long_line, turn, writer
from tests.paths import REPO

FIXTURE = REPO / "tests" / "fixtures" / "demo-session.trace.jsonl"


def serialize_text(timeline: Timeline) -> str:
    """The agent's prose in a timeline, in order."""
    items = (timeline.items[i] for i in timeline.order)
    agent = (i for i in items if isinstance(i, MessageSegment) and i.role == "assistant")
    return "".join(getattr(part, "text", "") for item in agent for part in item.parts)


def test_a_recorded_trace_gives_what_the_live_renderer_received():
    read = asyncio.run(open_trace(str(FIXTURE)))
    assert read.name == "demo-session.trace.jsonl" and read.failures == () and read.ignored == 0
    assert isinstance(read.outputs[0], LoadResult)
    [timeline] = replayed_timelines(read.outputs)
    assert timeline.session_key == read.outputs[0].session_key and len(timeline.order) > 5


def test_what_cannot_be_opened_is_said(tmp_path, monkeypatch):
    with pytest.raises(TraceUnreadable, match="cannot be read"):
        read_trace_file(tmp_path / "missing.jsonl")
    with pytest.raises(TraceUnreadable, match="is not a file"):
        read_trace_file(tmp_path)
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"hello": 1}\n[1, 2]\nnot json\n')
    with pytest.raises(TraceUnreadable, match="holds no ACP session: it is not a ClawQt trace"):
        read_trace_file(notes)
    monkeypatch.setattr(trace_opening, "MAX_TRACE_BYTES", 1000)
    big = tmp_path / "big.jsonl"
    big.write_bytes(FIXTURE.read_bytes())
    with pytest.raises(TraceUnreadable, match="ClawQt opens traces up to 0 MB"):
        read_trace_file(big)


def test_bad_lines_inside_a_trace_are_counted_not_fatal(tmp_path):
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("garbage line\n" + FIXTURE.read_text() + '{"dir": "recv", "msg": 5}\n')
    read = read_trace_file(mixed)
    assert read.ignored == 2 and len(replayed_timelines(read.outputs)) == 1


def test_a_trace_shows_the_sessions_opened_last_and_counts_the_others(tmp_path, monkeypatch):
    """Six chats, then the first loaded again with a history long enough to arrive ahead of its result:
    with room for three, the last three opened are kept (the reloaded one whole) and three counted."""
    monkeypatch.setattr(trace_opening, "MAX_TRACE_SESSIONS", 3)
    trace = tmp_path / "seven.jsonl"
    with trace.open("w", encoding="utf-8") as handle:
        write = writer(handle)
        for number in range(6):
            turn(write, number, f"s{number}", f"reply {number}")
        write("send", {"jsonrpc": "2.0", "id": 99, "method": "session/load", "params": {"sessionId": "s0"}})
        for n in range(600):  # more than one chunk of replay: sent ahead of the load's result
            chunk = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": f"{n} "}}
            params = {"sessionId": "s0", "update": chunk}
            write("recv", {"jsonrpc": "2.0", "method": "session/update", "params": params})
        write("recv", {"jsonrpc": "2.0", "id": 99, "result": {}})
    read = read_trace_file(trace)
    assert read.sessions_left_out == 3
    timelines = replayed_timelines(read.outputs)
    assert [t.session_key for t in timelines] == ["s4", "s5", "s0"]
    assert serialize_text(timelines[2]) == "".join(f"{n} " for n in range(600))


def test_a_line_too_long_to_open_is_skipped_and_said_and_a_long_one_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(trace_opening, "MAX_LINE_BYTES", 2 * 2**20)
    read = read_trace_file(one_long_line(tmp_path / "longest.jsonl", 3))
    assert read.long_lines == "1 line over 2 MB not read (the longest 3 MB; clawqt replay reads any)"
    assert read.ignored == 0  # said once, not also counted as a message not applied
    [timeline] = replayed_timelines(read.outputs)
    assert serialize_text(timeline) == ""
    read = read_trace_file(one_long_line(tmp_path / "long.jsonl", 1.5))  # parsed by large_json
    [timeline] = replayed_timelines(read.outputs)
    assert read.long_lines == "" and serialize_text(timeline) == PARAGRAPH * 25


def test_failures_past_those_listed_are_counted(tmp_path, monkeypatch):
    monkeypatch.setattr(trace_opening, "MAX_FAILURES", 2)
    trace = tmp_path / "failing.jsonl"
    with trace.open("w", encoding="utf-8") as handle:
        write = writer(handle)
        for n in range(5):
            write("send", {"jsonrpc": "2.0", "id": n, "method": "session/new", "params": {"cwd": "/"}})
            error = {"code": -32603, "message": f"no model {n}"}
            write("recv", {"jsonrpc": "2.0", "id": n, "error": error})
    read = read_trace_file(trace)
    assert read.failures == (
        "session/new failed: no model 0 (code -32603)",
        "session/new failed: no model 1 (code -32603)",
    )
    assert read.more_failures == 3
