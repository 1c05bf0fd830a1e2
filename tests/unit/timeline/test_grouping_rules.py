"""Render-time grouping (chat-timeline.md, "Renderer: grouping"), one test per rule."""

from __future__ import annotations

from app.contract.envelopes import PromptSettledEnvelope
from app.renderer.present.presenter import footer_entry
from app.renderer.timeline.rows import RowKey, RowsChanged
from app.renderer.timeline.turn_view import copy_text, group_attachments
from tests.unit.timeline.helpers import (
    GEN,
    KEY,
    Harness,
    agent,
    permission,
    settled,
    thought,
    tool,
    update,
    user,
)


def _groups(h: Harness) -> list[tuple[str, list[str]]]:
    return [(g.kind, list(g.item_ids)) for g in h.timeline.grouping.groups]


def test_a_user_segment_starts_a_user_group_and_consecutive_ones_extend_it():
    h = Harness()(user("a", "u1"), user("b", "u2"), agent("r"))
    assert _groups(h) == [("user", ["u1:0", "u2:0"]), ("assistant", ["assistant:message:2:0"])]


def test_everything_between_user_groups_is_one_assistant_turn():
    h = Harness()(
        user("q", "u1"), agent("a", "m"), tool("x"), thought("t"), agent("b", "m"), user("q2", "u2")
    )
    assert _groups(h) == [
        ("user", ["u1:0"]),
        ("assistant", ["m:0", "tool:x", "thought:3", "m:1"]),
        ("user", ["u2:0"]),
    ]


def test_assistant_items_before_the_first_user_item_still_make_a_visible_turn():
    h = Harness()(agent("welcome"), user("q", "u"))
    assert _groups(h)[0] == ("assistant", ["assistant:message:0:0"])
    assert h.row_kinds[:2] == ["assistant-text", "turn-footer"]


def test_grouping_never_looks_at_message_or_tool_call_ids():
    a = Harness()(user("q", "u1"), agent("a", "same"), tool("same"), agent("b", "same"))
    b = Harness()(user("q", "zz"), agent("a", "m1"), tool("t9"), agent("b", "m2"))
    assert [len(i) for _, i in _groups(a)] == [len(i) for _, i in _groups(b)]
    assert a.row_kinds == b.row_kinds


def test_attachments_are_lifted_after_all_prose_and_process_items():
    link = {"type": "resource_link", "uri": "file:///w/out.txt", "name": "out.txt"}
    h = Harness()(user("q", "u"), agent(link, "m"), agent("prose after the link", "m"), tool("x"))
    assert h.row_kinds == ["user", "assistant-text", "tool", "turn-attachments", "turn-footer"]
    group = h.timeline.grouping.groups[1]
    assert [a.name for a in group_attachments(h.timeline.items, group)] == ["out.txt"]


def test_attachments_from_tool_output_and_thoughts_are_lifted_too():
    link = {"type": "content", "content": {"type": "resource_link", "uri": "file:///w/log.txt"}}
    h = Harness()(user("q", "u"), tool("x", content=[link]))
    assert h.row_kinds == ["user", "tool", "turn-attachments", "turn-footer"]


def test_a_segment_left_empty_by_lifting_disappears():
    link = {"type": "resource_link", "uri": "file:///w/only.txt"}
    h = Harness()(user("q", "u"), agent(link, "m"))
    assert h.row_kinds == ["user", "turn-attachments", "turn-footer"]


def test_user_group_prose_then_its_attachments():
    link = {"type": "resource_link", "uri": "file:///w/a.png"}
    h = Harness()(user(link, "u"), user("caption", "u"))
    assert h.row_kinds == ["user", "user-attachments"]


def test_two_or_more_consecutive_tool_calls_form_a_tool_group():
    h = Harness()(user("q", "u"), tool("a"), agent("between"), tool("b"), tool("c"), tool("d"))
    kinds = h.row_kinds
    assert kinds == ["user", "tool", "assistant-text", "tool-group", "turn-footer"]
    assert h.timeline.rows[3].item_ids == ("tool:b", "tool:c", "tool:d")


def test_first_and_last_of_turn_flags():
    h = Harness()(user("q", "u"), agent("a"), tool("x"), permission("r"))
    rows = [r for r in h.timeline.rows if r.group.kind == "assistant"]
    assert [(r.first, r.last) for r in rows] == [(True, False), (False, False), (False, False), (False, True)]
    assert h.timeline.rows[0].first and h.timeline.rows[0].last


def test_unchanged_items_keep_their_identity():
    h = Harness()(user("q", "u"), agent("a", "m"), tool("x"))
    before = {i: h.timeline.items[i] for i in h.ids}
    versions = {i: it.version for i, it in before.items()}
    h(tool("x", "tool_call_update", status="completed"))
    assert all(h.timeline.items[i] is before[i] for i in before)
    assert h.item("m:0").version == versions["m:0"] and h.item("tool:x").version == versions["tool:x"] + 1


def test_streaming_a_chunk_changes_exactly_one_row():
    h = Harness()(user("q", "u"), agent("a", "m"), tool("x"), agent("b", "n"))
    changes = h.timeline.apply(agent("more", "n"))
    assert len(changes) == 1 and changes[0].start == 3 and changes[0].rows[0].key == RowKey("block", "n:0")


def test_copy_text_is_assistant_prose_joined_by_blank_lines_without_tool_output():
    h = Harness()(
        user("q", "u"),
        agent("First part.", "m"),
        thought("private"),
        tool("x", content=[{"type": "content", "content": {"type": "text", "text": "TOOL OUTPUT"}}]),
        agent("Second part.\nMEDIA: /tmp/pic.png", "m"),
    )
    group = h.timeline.grouping.groups[1]
    assert copy_text(h.timeline.items, group) == "First part.\n\nSecond part."


def test_media_directive_lines_become_marked_attachments_and_leave_the_prose():
    h = Harness()(user("q", "u"), agent("Here it is:\nMEDIA: /tmp/chart.png\n", "m"))
    group = h.timeline.grouping.groups[1]
    attachments = group_attachments(h.timeline.items, group)
    assert [(a.name, a.source) for a in attachments] == [("chart.png", "media-directive")]
    assert h.row_kinds == ["user", "assistant-text", "turn-attachments", "turn-footer"]


def test_a_native_resource_with_the_same_identity_wins_over_media():
    link = {"type": "resource_link", "uri": "file:///tmp/chart.png", "name": "chart.png"}
    h = Harness()(user("q", "u"), agent("MEDIA: /tmp/chart.png\n", "m"), agent(link, "n"))
    group = h.timeline.grouping.groups[1]
    assert [a.source for a in group_attachments(h.timeline.items, group)] == ["acp-resource"]


def test_settling_a_prompt_refreshes_its_whole_turn_and_ends_the_live_item():
    """Nothing in the turn streams any more and its footer's clock becomes "Took N s": every row of the
    answering turn changes (in one event), and no row of the question or of earlier turns."""
    h = Harness()(agent("earlier"))
    h.optimistic("user:1", "q")
    h(agent("answer"), update("tool_call", toolCallId="t", title="ls"))
    assert h.timeline.live_item == "tool:t"
    changes = h.timeline.apply(settled("user:1"))
    assert len(changes) == 1 and [r.kind for r in changes[0].rows] == [
        "assistant-text",
        "tool",
        "turn-footer",
    ]
    assert h.timeline.rows[changes[0].start].key == RowKey("block", "assistant:message:2:0")
    assert h.timeline.live_item is None


def test_removing_a_failed_optimistic_message_restores_the_previous_rows():
    h = Harness()(agent("before"), update("plan", entries=[]))
    before = list(h.timeline.rows)
    h.optimistic("user:1", "q")
    assert [k for k, _ in _groups(h)] == ["assistant", "user"]
    h(settled("user:1", error="failed"))
    assert [k for k, _ in _groups(h)] == ["assistant"]
    assert h.timeline.rows == before == h.mirror


def test_removing_a_user_segment_between_turns_merges_them():
    """Grouping handles removal anywhere (the reducer only removes trailing messages today)."""
    h = Harness()(agent("before"), user("q", "u"), update("plan", entries=[]))
    h.removed("u:0")
    assert [k for k, _ in _groups(h)] == ["assistant"]
    assert h.row_kinds == ["assistant-text", "plan", "turn-footer"] and h.mirror == h.timeline.rows


def test_a_turn_stopped_before_any_reply_keeps_a_footer_only_turn_that_says_so():
    h = Harness()
    h.optimistic("user:1", "q")
    h(settled("user:1", stop="cancelled", elapsed=3.0))
    assert _groups(h) == [("user", ["user:1:0"]), ("assistant", ["stopped:user:1"])]
    assert h.row_kinds == ["user", "turn-footer"]  # the marker itself draws nothing
    footer = footer_entry(h.timeline, h.timeline.grouping.groups[1], now=0.0)
    assert footer == {"timing": "Stopped after 3 s", "messageId": "user:1"}


def test_a_turn_stopped_mid_reply_says_stopped_and_adds_no_marker():
    h = Harness()
    h.optimistic("user:1", "q")
    h(agent("half an answer"), settled("user:1", stop="cancelled", elapsed=2.0))
    assert [k for k, _ in _groups(h)] == ["user", "assistant"] and "stopped:user:1" not in h.ids
    assert footer_entry(h.timeline, h.timeline.grouping.groups[1], now=0.0)["timing"] == "Stopped after 2 s"


def test_a_turn_the_user_stopped_says_stopped_even_when_the_agent_answers_end_turn():
    h = Harness()
    h.optimistic("user:1", "q")
    settled_after_stop = PromptSettledEnvelope(KEY, GEN, "user:1", "end_turn", None, 1.0, stopped=True)
    h(agent("partial"), settled_after_stop)
    assert footer_entry(h.timeline, h.timeline.grouping.groups[1], now=0.0)["timing"] == "Stopped after 1 s"


def test_a_failed_or_finished_turn_gets_no_stopped_marker():
    h = Harness()
    h.optimistic("user:1", "q")
    h(settled("user:1", stop="end_turn"))
    assert h.ids == ["user:1:0"]


def test_rows_added_to_an_earlier_turn_move_every_later_row_and_each_is_found_where_it_is():
    """An earlier turn's tool gains an attachment (a row of lifted attachments appears in its middle),
    a user message between turns goes: every row is then found at its index, and a change to a later
    row is reported at its new place (rows are found through their group: no index of all rows)."""
    link = {"type": "content", "content": {"type": "resource_link", "uri": "file:///w/log.txt"}}
    h = Harness()(user("q1", "u1"), tool("x"), agent("first answer", "m1"))
    h(user("q2", "u2"), agent("second answer", "m2"), user("q3", "u3"), agent("third", "m3"))
    rows_before = len(h.timeline.rows)
    h(tool("x", "tool_call_update", content=[link]))  # the first turn now lifts an attachment
    grouping = h.timeline.grouping
    assert len(h.timeline.rows) == rows_before + 1 and "turn-attachments" in h.row_kinds
    assert [grouping.position(row.key) for row in h.timeline.rows] == list(range(len(h.timeline.rows)))
    h(agent(" grows", "m3"))  # the last answer changes: reported where it is now
    assert h.mirror == h.timeline.rows
    h.removed("u2:0")  # and a user message in the middle goes
    assert h.mirror == h.timeline.rows
    assert [grouping.position(row.key) for row in h.timeline.rows] == list(range(len(h.timeline.rows)))
    assert grouping.position(RowKey("footer", "nowhere")) is None


def test_a_turns_attachments_row_is_reported_changed_each_time_its_attachments_change():
    """A -> B -> A: each change of a tool's lifted attachments reports the attachments row (what the
    grouping last placed is what the next change is held against)."""

    def link(name: str) -> dict:
        return {"type": "content", "content": {"type": "resource_link", "uri": f"file:///w/{name}"}}

    h = Harness()(user("q", "u"), tool("x", content=[link("a.txt")]))
    at = h.row_kinds.index("turn-attachments")
    reported = []
    for name in ("b.txt", "a.txt", "a.txt"):
        changes = h.timeline.apply(tool("x", "tool_call_update", content=[link(name)]))
        reported.append(any(isinstance(c, RowsChanged) and c.start == at for c in changes))
    assert reported == [True, True, False]  # changed, changed back, the same again
