"""Tool card rules: the description above a terminal (seed 004), `tool_call_content_chunk` and the tool's
`error` field (ACP, as ClawX reads them), and a tool group that stays open until its turn ends."""

from __future__ import annotations

from app.renderer.present.presenter import Presenter
from app.renderer.present.tool_card import tool_entry, tool_summary
from app.renderer.timeline.tool_rules import MAX_TOOL_PARTS
from tests.unit.timeline.helpers import Harness, settled, text, tool


def _content(value: str) -> dict:
    return {"type": "content", "content": text(value)}


def test_a_terminals_description_stays_above_it():
    """Seed 004: the description is a content block sent BEFORE the terminal; the card keeps it."""
    h = Harness()(
        tool(
            "t",
            kind="execute",
            title="ls",
            content=[_content("List the files"), {"type": "terminal", "terminalId": "T"}],
            _meta={"terminal_info": {"terminal_id": "T", "cwd": "/w"}},
        )
    )
    entry = tool_entry(h.item("tool:t"))
    assert entry["terminal"] is not None and entry["description"] == "List the files"


def test_a_console_blocks_surrounding_text_is_its_description():
    """Without the terminal capability: the text around the ```console block stays, the block is the
    screen; a coloured text output that is itself the screen has no description."""
    body = "Build the project\n```console\n$ make\nok\n```\n"
    h = Harness()(tool("c", kind="execute", title="make", content=[_content(body)]))
    entry = tool_entry(h.item("tool:c"))
    assert entry["console"] is not None and entry["description"] == "Build the project"
    h(tool("e", kind="execute", title="pytest", content=[_content("\x1b[31m1 failed\x1b[0m")]))
    entry = tool_entry(h.item("tool:e"))
    assert entry["console"] is not None and entry["description"] == ""
    h(tool("p", kind="read", title="read", content=[_content("plain output")]))
    assert tool_entry(h.item("tool:p"))["description"] == ""  # no screen: the text is the output


def test_a_tool_content_chunk_appends_one_item_and_may_create_the_call():
    """`tool_call_content_chunk {toolCallId, content}` appends one content item (never replaces); for
    an unknown call it creates a running card; a content that is not an object is an error part."""
    h = Harness()(tool("t", title="fetch", content=[_content("one")]))
    h(tool("t", "tool_call_content_chunk", content=_content("two")))
    h(tool("t", "tool_call_content_chunk", content=7))
    parts = h.plain("tool:t")["parts"]
    assert [p.get("text") for p in parts[:2]] == ["one", "two"]
    assert parts[2]["kind"] == "error" and "Unsupported ACP tool content chunk" in parts[2]["text"]
    assert "one\n\ntwo" in tool_entry(h.item("tool:t"))["output"]

    h(tool("new", "tool_call_content_chunk", content={"type": "terminal", "terminalId": "T9"}))
    new = h.item("tool:new")
    assert new.status == "running" and new.title == "new" and new.terminal_ids == ("T9",)
    assert h.ids == ["tool:t", "tool:new"]


def test_tool_content_chunks_past_the_cap_are_counted_not_kept():
    h = Harness()(tool("t", title="flood"))
    for n in range(MAX_TOOL_PARTS + 5):
        h.timeline.apply(tool("t", "tool_call_content_chunk", content=_content(f"{n}")))
    item = h.item("tool:t")
    assert len(item.output_parts) == MAX_TOOL_PARTS and item.parts_dropped == 5
    assert tool_entry(item)["output"].endswith("(5 more content items not shown)")


def test_the_tools_error_field_is_kept_and_shown_on_the_card():
    """ClawX keeps `error` (a string) until another arrives; an update without one keeps it."""
    h = Harness()(tool("t", title="fetch", status="in_progress"))
    assert tool_entry(h.item("tool:t"))["error"] == ""
    h(tool("t", "tool_call_update", status="failed", error="Rate limited"))
    h(tool("t", "tool_call_update", title="fetch docs"))
    entry = tool_entry(h.item("tool:t"))
    assert entry["error"] == "Rate limited" and entry["status"] == "failed"
    assert h.plain("tool:t")["error"] == "Rate limited"
    h(tool("t", "tool_call_update", error={"message": "\x1b[1mgone\x1b[0m"}))
    assert tool_entry(h.item("tool:t"))["error"] == "gone"


def test_a_tool_group_knows_its_turn_is_running_until_the_prompt_settles():
    """A group of finished tools stays open while its turn runs (ClawX collapses a group only once the
    turn is done): the summary says `turnLive` until the prompt settles, and the settled turn's rows
    are rebuilt, not served from the cache."""
    h = Harness().optimistic("m1", "go")
    h(tool("a", title="a", status="completed"), tool("b", title="b", status="completed"))
    presenter = Presenter()
    [row] = [r for r in h.timeline.rows if r.kind == "tool-group"]
    summary = presenter.payload(h.timeline, row, 0.0)["summary"]
    assert summary["finished"] and summary["turnLive"]
    h(settled("m1"))
    [row] = [r for r in h.timeline.rows if r.kind == "tool-group"]
    summary = presenter.payload(h.timeline, row, 0.0)["summary"]
    assert summary["finished"] and not summary["turnLive"]


def test_a_tool_group_says_what_it_did_in_words_and_while_its_turn_runs_which_call_runs():
    def call(kind: str, status: str = "completed", title: str = "t") -> dict:
        return {"toolKind": kind, "status": status, "title": title, "historical": False}

    done = [call("read"), call("search"), call("read"), call("execute"), call("mcp_custom")]
    assert tool_summary(done)["words"] == "Read 2 files, searched 1 pattern, ran 1 command, used 1 tool"
    assert tool_summary([call("edit"), call("edit")])["words"] == "Edited 2 files"
    live = [call("read"), call("search", "running", 'Search "hello"')]
    assert tool_summary(live, turn_live=True)["words"] == 'Running \u00b7 Search "hello"'
    assert tool_summary(live)["words"] == "Read 1 file, searched 1 pattern"  # a turn that ended says what ran
