"""Open trace…'s main side (app/main/trace_opening.py): a recorded trace replayed through the same feed as
`clawqt replay`; a file that is missing, a folder, too large, or holds no session is refused in words."""

from __future__ import annotations

import asyncio

import pytest

from app.contract.envelopes import LoadResult
from app.contract.errors import TraceUnreadable
from app.main import trace_opening
from app.main.trace_opening import open_trace, read_trace_file
from app.renderer.timeline.store import replayed_timelines
from tests.conftest import REPO

FIXTURE = REPO / "tests" / "fixtures" / "demo-session.trace.jsonl"


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
