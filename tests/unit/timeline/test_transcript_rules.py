"""Transcript supplements in the reducer: marked cards on the matched turn only, once, never a message
of their own; reloaded turns get "Took N s" only when unambiguously matched."""

from __future__ import annotations

from app.contract.envelopes import (
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
    TranscriptSupplementEnvelope,
    TranscriptTurn,
    transcript_match_text,
)
from app.renderer.present.presenter import footer_entry
from app.renderer.timeline.grouping import Grouping
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import apply_changes
from app.renderer.timeline.turn_view import group_attachments, item_text

KEY = "agent:main:t"


def _chunk(kind: str, text: str) -> SessionUpdateEnvelope:
    update = {"sessionUpdate": kind, "content": {"type": "text", "text": text}}
    return SessionUpdateEnvelope(KEY, 1, True, {"sessionId": KEY, "update": update})


def _loaded(*turns: tuple[str, str | None]) -> Timeline:
    timeline = Timeline(KEY, 1)
    envelopes = []
    for user, reply in turns:
        prompt = f"[Working directory: /w]\n\n{user}" if user else "[Working directory: /w]"  # images only
        envelopes.append(_chunk("user_message_chunk", prompt))
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


def test_a_prompt_of_images_only_reads_as_no_text_on_both_sides_and_the_pairing_goes_on():
    """OpenClaw keeps only its working-directory prefix as the text of a prompt of images only, with no
    blank line after it, and replays that; a resource turn pairs by the text OpenClaw wrote for it."""
    timeline = _loaded(("[Resource link (a.txt)] file:///w/a.txt", "one"), ("", "seen"), ("second", "two"))
    bare = transcript_match_text("[Working directory: /w]")
    assert bare == ""
    supplement = TranscriptSupplementEnvelope(
        KEY,
        1,
        (
            TranscriptTurn("[Resource link (a.txt)] file:///w/a.txt", ("/w/a.png",), 1.0),
            TranscriptTurn(bare, (), 2.0),
            TranscriptTurn("second", ("/w/b.png",), 3.0),
        ),
    )
    timeline.apply(supplement)
    assert _cards(timeline) == [["/w/a.png"], [], ["/w/b.png"]]
    assert _footers(timeline) == ["Took 1 s", "Took 2 s", "Took 3 s"]


def test_a_replayed_prompt_of_attachments_pairs_by_the_text_openclaw_kept_for_it():
    """OpenClaw replays such a prompt as its blocks (an embedded file, a link, an image), not as the text
    its bridge wrote into the transcript: that text is rebuilt from the parts the same way."""
    blocks = [
        {
            "type": "resource",
            "resource": {"uri": "file:///w/q.txt", "mimeType": "text/plain", "text": "please"},
        },
        {"type": "resource_link", "uri": "file:///w/b.txt", "name": "b.txt", "title": "b"},
        {"type": "image", "uri": "file:///w/dot.png", "mimeType": "image/png"},  # leaves no text
    ]
    replay = [_update({"sessionUpdate": "user_message_chunk", "content": block}) for block in blocks]
    timeline = Timeline(KEY, 1)
    timeline.apply_batch([*replay, _chunk("agent_message_chunk", "ok")])
    kept = transcript_match_text("[Working directory: /w]\n\nplease\n[Resource link (b)] file:///w/b.txt")
    timeline.apply(TranscriptSupplementEnvelope(KEY, 1, (TranscriptTurn(kept, ("/w/r.png",), 1.0),)))
    assert _cards(timeline) == [["/w/r.png"]]


def _update(update: dict) -> SessionUpdateEnvelope:
    return SessionUpdateEnvelope(KEY, 1, True, {"sessionId": KEY, "update": update})


def _fresh_rows(timeline: Timeline) -> list:
    """The rows a grouping built from scratch gives for the same items (the incremental oracle)."""
    fresh = Grouping(timeline.items)
    fresh.rebuild(timeline.order)
    return fresh.rows


def _tool(tool_call_id: str, historical: bool = False) -> SessionUpdateEnvelope:
    update = {
        "sessionUpdate": "tool_call",
        "toolCallId": tool_call_id,
        "title": "write",
        "status": "completed",
    }
    return SessionUpdateEnvelope(KEY, 1, historical, {"sessionId": KEY, "update": update})


def test_a_reply_that_was_only_a_media_line_gets_an_attachment_only_segment_on_the_last_turn():
    timeline = _loaded(("first", "one"), ("only media", None))
    mirror = list(timeline.rows)
    supplement = TranscriptSupplementEnvelope(
        KEY, 1, (TranscriptTurn("first", (), 2.0), TranscriptTurn("only media", ("/w/x.png",), 1.0))
    )
    apply_changes(mirror, timeline.apply(supplement))
    apply_changes(mirror, timeline.apply(supplement))  # the retry: nothing twice
    assert _cards(timeline) == [[], ["/w/x.png"]]
    assert _footers(timeline) == ["Took 2 s", "Took 1 s"]
    assert mirror == timeline.rows == _fresh_rows(timeline)
    added = timeline.items[timeline.order[-1]]
    assert added.role == "assistant" and not added.visible  # no text of its own: only the card
    assert [r.kind for r in timeline.rows[-2:]] == ["turn-attachments", "turn-footer"]


def test_a_live_media_only_reply_after_a_tool_gets_its_card_inside_that_turn():
    timeline = Timeline(KEY, 1)
    mirror: list = []
    apply_changes(mirror, timeline.add_optimistic("user:1", "write media", sent_at=0.0))
    apply_changes(mirror, timeline.apply(_tool("call_write_1")))
    apply_changes(mirror, timeline.apply(PromptSettledEnvelope(KEY, 1, "user:1", "end_turn", None, 3.0)))
    supplement = TranscriptSupplementEnvelope(
        KEY, 1, (TranscriptTurn("write media", ("/w/r.txt",), 9.0),), "user:1"
    )
    apply_changes(mirror, timeline.apply(supplement))
    assert _cards(timeline) == [["/w/r.txt"]]
    assert [r.kind for r in timeline.rows] == ["user", "tool", "turn-attachments", "turn-footer"]
    assert mirror == timeline.rows == _fresh_rows(timeline)
    assert _footers(timeline) == ["Took 3 s"]


def test_a_media_only_reply_of_a_live_turn_waits_for_its_end():
    timeline = Timeline(KEY, 1)
    timeline.add_optimistic("user:1", "write media", sent_at=0.0)
    order = list(timeline.order)
    timeline.apply(
        TranscriptSupplementEnvelope(KEY, 1, (TranscriptTurn("write media", ("/w/r.txt",), 1.0),), "user:1")
    )
    assert timeline.order == order  # still running: the reply may yet come


def test_a_card_for_an_earlier_prompt_lands_on_its_own_turn_never_on_the_next_prompts_reply():
    timeline = Timeline(KEY, 1)
    mirror: list = []
    apply_changes(mirror, timeline.add_optimistic("user:1", "write media", sent_at=0.0))
    apply_changes(mirror, timeline.apply(PromptSettledEnvelope(KEY, 1, "user:1", "end_turn", None, 1.0)))
    apply_changes(mirror, timeline.add_optimistic("user:2", "and now?", sent_at=1.0))  # before the retry
    live = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "ok"}}
    apply_changes(mirror, timeline.apply(SessionUpdateEnvelope(KEY, 1, False, {"update": live})))
    apply_changes(mirror, timeline.apply(PromptSettledEnvelope(KEY, 1, "user:2", "end_turn", None, 1.0)))
    supplement = TranscriptSupplementEnvelope(
        KEY, 1, (TranscriptTurn("write media", ("/w/r.txt",), 1.0),), "user:1"
    )
    apply_changes(mirror, timeline.apply(supplement))
    assert _cards(timeline) == [["/w/r.txt"], []]  # the first prompt's turn, then the second's reply
    assert [g.kind for g in timeline.grouping.groups] == ["user", "assistant", "user", "assistant"]
    assert mirror == timeline.rows == _fresh_rows(timeline)


def test_an_older_turn_without_an_assistant_message_gets_its_card_in_its_own_turn():
    """After a reload: a turn that holds only the tool that wrote the file, and a turn OpenClaw's
    replay left with no assistant item at all (two prompts in a row): each gets its card, placed at
    the end of its own turn, and the rows are grouped again once."""
    tool_only = Timeline(KEY, 1)
    tool_only.apply_batch(
        [
            _chunk("user_message_chunk", "[Working directory: /w]\n\nwrite media"),
            _tool("call_write_1", historical=True),
            _chunk("user_message_chunk", "[Working directory: /w]\n\nsecond"),
            _chunk("agent_message_chunk", "two"),
        ]
    )
    merged = _loaded(("write media", None), ("second", "two"))
    for timeline in (tool_only, merged):
        mirror = list(timeline.rows)
        supplement = TranscriptSupplementEnvelope(
            KEY, 1, (TranscriptTurn("write media", ("/w/x.png",), 1.0), TranscriptTurn("second", (), 4.0))
        )
        apply_changes(mirror, timeline.apply(supplement))
        apply_changes(mirror, timeline.apply(supplement))  # the retry: nothing twice
        assert _cards(timeline) == [["/w/x.png"], []]
        assert mirror == timeline.rows == _fresh_rows(timeline)
        assert _footers(timeline) == ["Took 1 s", "Took 4 s"]
    assert [r.kind for r in merged.rows] == [
        "user", "turn-attachments", "turn-footer", "user", "assistant-text", "turn-footer"
    ]  # fmt: skip


def test_two_older_media_only_turns_in_a_row_split_their_user_group_with_local_row_changes():
    timeline = _loaded(("first", "one"), ("pic a", None), ("pic b", None), ("last", "done"))
    mirror = list(timeline.rows)
    supplement = TranscriptSupplementEnvelope(
        KEY,
        1,
        (
            TranscriptTurn("first", (), 1.0),
            TranscriptTurn("pic a", ("/w/a.png",), 2.0),
            TranscriptTurn("pic b", ("/w/b.png",), 3.0),
            TranscriptTurn("last", (), 4.0),
        ),
    )
    events = timeline.apply(supplement)
    apply_changes(mirror, events)
    assert _cards(timeline) == [[], ["/w/a.png"], ["/w/b.png"], []]
    assert mirror == timeline.rows == _fresh_rows(timeline)
    assert not any(type(e).__name__ == "RowsRemoved" and e.count > 3 for e in events)  # no rebuild


def test_two_prompts_replayed_in_a_row_stay_two_messages():
    """OpenClaw replays each prompt as one id-less chunk behind its working-directory prefix: the
    second opens a message of its own (a chunk without the prefix still continues the first)."""
    timeline = _loaded(("write media", None), ("second", "two"))
    users = [timeline.items[i] for i in timeline.order if timeline.items[i].role == "user"]
    assert [item_text(u) for u in users] == ["write media", "second"]
    continued = Timeline(KEY, 1)
    continued.apply_batch(
        [
            _chunk("user_message_chunk", "[Working directory: /w]\n\nhello"),
            _chunk("user_message_chunk", " there"),
        ]
    )
    (only,) = [continued.items[i] for i in continued.order]
    assert item_text(only) == "hello there"


def test_a_file_named_by_a_media_line_and_by_the_transcript_shows_once_from_the_transcript():
    timeline = _loaded(("make a picture", "Here it is.\nMEDIA: /w/a.png\nMEDIA: /w/b.png"))
    supplement = TranscriptSupplementEnvelope(KEY, 1, (TranscriptTurn("make a picture", ("/w/a.png",), 1.0),))
    timeline.apply(supplement)
    (group,) = [g for g in timeline.grouping.groups if g.kind != "user"]
    shown = [(a.source, a.uri) for a in group_attachments(timeline.items, group)]
    assert shown == [("media-directive", "/w/b.png"), ("media-transcript", "/w/a.png")]


def test_a_generated_image_shows_inline_in_its_turn_and_a_media_line_for_it_makes_no_card():
    from app.renderer.timeline.parts import ImagePart

    timeline = _loaded(("draw a fox", "Here is your fox.\nMEDIA: /w/fox.png"), ("next", "ok"))
    supplement = TranscriptSupplementEnvelope(
        KEY,
        1,
        (TranscriptTurn("draw a fox", (), 3.0, ("/w/fox.png",)), TranscriptTurn("next", (), 1.0)),
    )
    timeline.apply(supplement)
    timeline.apply(supplement)  # a second read adds nothing
    first = next(g for g in timeline.grouping.groups if g.kind != "user")
    images = [p.uri for i in first.item_ids for p in timeline.items[i].parts if isinstance(p, ImagePart)]
    assert images == ["file:///w/fox.png"]
    assert group_attachments(timeline.items, first) == []  # the MEDIA line's card gives way
    assert _footers(timeline) == ["Took 3 s", "Took 1 s"]
