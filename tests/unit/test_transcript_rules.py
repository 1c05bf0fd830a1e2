"""Transcript supplements in the reducer: marked cards on the matched turn only, once, never a message
of their own; reloaded turns get "Took N s" only when unambiguously matched."""

from __future__ import annotations

from app.contract.envelopes import (
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
    TranscriptSupplementEnvelope,
    TranscriptTurn,
)
from app.renderer.presenter import footer_entry
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.turn_view import group_attachments

KEY = "agent:main:t"


def _chunk(kind: str, text: str) -> SessionUpdateEnvelope:
    update = {"sessionUpdate": kind, "content": {"type": "text", "text": text}}
    return SessionUpdateEnvelope(KEY, 1, True, {"sessionId": KEY, "update": update})


def _loaded(*turns: tuple[str, str | None]) -> Timeline:
    timeline = Timeline(KEY, 1)
    envelopes = []
    for user, reply in turns:
        envelopes.append(_chunk("user_message_chunk", f"[Working directory: /w]\n\n{user}"))
        if reply is not None:
            envelopes.append(_chunk("agent_message_chunk", reply))
    timeline.apply_batch(envelopes)
    return timeline


def _cards(timeline: Timeline) -> list[list[str]]:
    return [
        [a.uri for a in group_attachments(timeline.items, g) if a.source == "media-transcript"]
        for g in timeline.grouping.groups
        if g.kind != "user"
    ]


def _footers(timeline: Timeline) -> list[str]:
    return [footer_entry(timeline, g, 0.0)["timing"] for g in timeline.grouping.groups if g.kind != "user"]


def test_a_load_supplement_adds_cards_and_durations_to_matched_turns_once():
    timeline = _loaded(("first", "one"), ("make a chart", "Here it is."))
    supplement = TranscriptSupplementEnvelope(
        KEY, 1, (TranscriptTurn("first", (), 2.0), TranscriptTurn("make a chart", ("/w/chart.png",), 7.0))
    )
    assert timeline.apply(supplement)  # rows changed
    timeline.apply(supplement)  # the retry: nothing twice
    assert _cards(timeline) == [[], ["/w/chart.png"]]
    assert _footers(timeline) == ["Took 2 s", "Took 7 s"]
    rows = len(timeline.rows)
    assert rows == len(timeline.grouping.rows)  # no new turn, text or tool


def test_a_mismatch_stops_the_pairing_from_the_newest_backwards():
    timeline = _loaded(("first", "one"), ("second", "two"))
    supplement = TranscriptSupplementEnvelope(
        KEY, 1, (TranscriptTurn("other", ("/w/a.png",), 1.0), TranscriptTurn("second", ("/w/b.png",), 3.0))
    )
    timeline.apply(supplement)
    assert _cards(timeline) == [[], ["/w/b.png"]]
    assert _footers(timeline) == ["", "Took 3 s"]


def test_a_turn_without_an_assistant_message_gets_no_card():
    timeline = _loaded(("only media", None))
    order = list(timeline.order)
    timeline.apply(TranscriptSupplementEnvelope(KEY, 1, (TranscriptTurn("only media", ("/w/x.png",), 1.0),)))
    assert timeline.order == order


def test_a_live_supplement_goes_to_its_prompt_and_keeps_the_live_timing():
    timeline = Timeline(KEY, 1)
    timeline.add_optimistic("user:1", "write media", sent_at=0.0)
    live = SessionUpdateEnvelope(
        KEY,
        1,
        False,
        {"update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "ok"}}},
    )
    timeline.apply(live)
    timeline.apply(PromptSettledEnvelope(KEY, 1, "user:1", "end_turn", None, 3.0))
    supplement = TranscriptSupplementEnvelope(
        KEY, 1, (TranscriptTurn("write media", ("/w/r.txt",), 9.0),), "user:1"
    )
    timeline.apply(supplement)
    timeline.apply(supplement)
    assert _cards(timeline) == [["/w/r.txt"]]
    assert _footers(timeline) == ["Took 3 s"]  # the client's own clock wins
    other = TranscriptSupplementEnvelope(KEY, 2, (TranscriptTurn("write media", ("/w/z",), 1.0),), "user:1")
    timeline.apply(other)  # another generation: ignored
    assert _cards(timeline) == [["/w/r.txt"]]
