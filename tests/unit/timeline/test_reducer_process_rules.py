"""The reducer's rules for what happens around a turn's prose (chat-timeline.md, "Renderer: the
reducer"): terminal content and its `_meta`, permissions, cancelled turns, thoughts, malformed updates,
the timeline's key and generation, tool timing; one test per rule, named after it."""

from __future__ import annotations

from app.renderer.timeline.items import MessageSegment
from tests.unit.timeline.helpers import (
    GEN,
    KEY,
    Harness,
    agent,
    cancelled,
    permission,
    resolved,
    text,
    thought,
    tool,
    update,
)


def test_terminal_ids_come_from_terminal_content():
    h = Harness()(tool("x", content=[{"type": "terminal", "terminalId": "T1"}]))
    assert h.item("tool:x").terminal_ids == ("T1",)
    assert h.plain("tool:x")["terminal"]["terminalId"] == "T1"


def test_terminal_meta_convention_info_output_delta_and_exit():
    h = Harness()(
        tool(
            "x", kind="execute", title="make", _meta={"terminal_info": {"terminal_id": "T1", "cwd": "/src"}}
        ),
        tool("x", "tool_call_update", _meta={"terminal_output": {"terminal_id": "T1", "data": "one\n"}}),
        tool(
            "x", "tool_call_update", _meta={"terminal_output_delta": {"terminal_id": "T1", "data": "two\n"}}
        ),
        tool(
            "x",
            "tool_call_update",
            status="completed",
            _meta={"terminal_exit": {"terminal_id": "T1", "exit_code": 2, "signal": None}},
        ),
    )
    terminal = h.item("tool:x").terminal
    assert (terminal.cwd, terminal.output, terminal.exit_code, terminal.signal) == (
        "/src",
        "one\ntwo\n",
        2,
        None,
    )


def test_terminal_output_before_its_card_is_parked_and_applied_when_the_card_appears():
    h = Harness()(
        tool(
            "y",
            "tool_call_update",
            _meta={
                "terminal_output": {"terminal_id": "T7", "data": "early "},
                "terminal_exit": {"terminal_id": "T7", "exit_code": None, "signal": "SIGTERM"},
            },
        ),
    )
    assert h.item("tool:y").terminal is None
    h(tool("z", _meta={"terminal_info": {"terminal_id": "T7"}}))
    terminal = h.item("tool:z").terminal
    assert terminal.output == "early " and terminal.signal == "SIGTERM"


def test_an_unknown_terminal_id_never_drops_the_rest_of_the_update():
    h = Harness()(
        tool(
            "x",
            "tool_call_update",
            status="completed",
            title="still applied",
            content=[{"type": "content", "content": text("body")}],
            _meta={"terminal_output": {"terminal_id": "nobody", "data": "?"}},
        ),
    )
    item = h.item("tool:x")
    assert (item.status, item.title) == ("completed", "still applied")
    assert h.plain("tool:x")["parts"] == [{"kind": "markdown", "text": "body"}]


def test_permission_request_and_resolution():
    h = Harness()(permission("r1", "allow", "deny"))
    assert h.item("permission:r1").status == "pending"
    h(resolved("r1", "deny"))
    assert (h.item("permission:r1").status, h.item("permission:r1").selected_option) == ("selected", "deny")
    h(resolved("r1", None))  # answered once: a later resolution changes nothing
    assert h.item("permission:r1").status == "selected"


def test_cancelled_turn_marks_open_tool_calls_cancelled():
    h = Harness()(tool("a", status="in_progress"), tool("b", status="completed"), cancelled("a", "b"))
    assert (h.item("tool:a").status, h.item("tool:b").status) == ("cancelled", "completed")


def test_thought_chunks_with_the_same_message_id_join_one_thought():
    h = Harness()(thought("a", "m"), thought("b", "m"))
    assert h.ids == ["thought:m"] and h.plain("thought:m")["parts"][0]["text"] == "ab"


def test_id_less_thoughts_coalesce_until_another_item():
    h = Harness()(thought("a"), thought("b"), agent("x"), thought("c"))
    assert h.ids == ["thought:0", "assistant:message:1:0", "thought:2"]


def test_malformed_updates_are_ignored_not_fatal():
    h = Harness()(
        update("agent_message_chunk"),  # no content
        update("tool_call"),  # no id
        update("tool_call", toolCallId=7),
        update("plan", entries="nope"),
        agent({"type": None}, "m"),
    )
    assert "tool:7" not in h.ids
    assert isinstance(h.item("m:0"), MessageSegment)


def test_the_timeline_belongs_to_one_key_and_generation():
    h = Harness()
    assert (h.timeline.session_key, h.timeline.generation) == (KEY, GEN)


def test_a_tool_call_is_timed_from_its_first_live_update_to_the_one_that_finishes_it():
    from dataclasses import replace

    from app.renderer.present.tool_card import tool_duration

    def at(envelope, seconds: float):
        return replace(envelope, received_at=seconds)

    h = Harness()(
        at(tool("t1", title="grep"), 100.0),
        at(tool("t1", "tool_call_update", status="in_progress"), 100.5),
        at(tool("t1", "tool_call_update", status="completed"), 102.25),
        at(tool("t1", "tool_call_update", title="grep again"), 150.0),  # after it finished: no change
        at(tool("t2", title="slow"), 10.0),
        at(tool("t2", "tool_call_update", status="failed"), 135.0),
        at(tool("t3", title="running"), 10.0),
        tool("t4", title="loaded", status="completed", historical=True),
        tool("t5", title="replayed"),  # no arrival time (a trace)
        tool("t5", "tool_call_update", status="completed"),
    )
    items = h.timeline.items
    assert [tool_duration(items[f"tool:t{n}"]) for n in range(1, 6)] == ["2.2 s", "2 min 5 s", "", "", ""]
