"""The reducer's rules (chat-timeline.md, "Renderer: the reducer"), one test per rule, named after it:
ids, segments, parts, tool upserts, metadata and the user's own messages (test_reducer_process_rules.py:
terminals, permissions, cancels, thoughts, malformed input, ownership, timing)."""

from __future__ import annotations

from app.renderer.timeline.parts import Attachment, AttachmentPart
from app.renderer.timeline.serialize import timeline_record
from tests.unit.timeline.helpers import (
    GEN,
    Harness,
    agent,
    permission,
    settled,
    text,
    thought,
    tool,
    update,
    user,
)


def test_item_ids_follow_the_documented_forms():
    h = Harness()(
        agent("a", "m"),
        thought("t", "m"),
        tool("x"),
        update("plan", entries=[]),
        permission("r9"),
    )
    assert h.ids == ["m:0", "thought:m", "tool:x", "plan:current", "permission:r9"]


def test_id_less_chunks_coalesce_into_the_last_open_segment_of_the_same_role():
    h = Harness()(agent("Hel"), agent("lo"))
    assert h.ids == ["assistant:message:0:0"]
    assert h.plain("assistant:message:0:0")["parts"] == [{"kind": "markdown", "text": "Hello"}]


def test_id_less_chunks_split_on_role_change():
    h = Harness()(agent("a"), user("b"), agent("c"))
    assert h.ids == ["assistant:message:0:0", "user:message:1:0", "assistant:message:2:0"]


def test_id_less_chunks_split_after_a_process_item():
    h = Harness()(agent("a"), tool("x"), agent("b"))
    assert h.ids == ["assistant:message:0:0", "tool:x", "assistant:message:2:0"]


def test_process_items_close_all_open_segments_so_the_same_message_id_starts_a_new_segment():
    h = Harness()(agent("a", "m"), tool("x"), agent("b", "m"), thought("t"), agent("c", "m"))
    assert h.ids == ["m:0", "tool:x", "m:1", "thought:3", "m:2"]
    assert [h.item(i).segment_index for i in ("m:0", "m:1", "m:2")] == [0, 1, 2]


def test_plan_and_permission_also_close_open_segments():
    h = Harness()(
        agent("a", "m"), update("plan", entries=[]), agent("b", "m"), permission("r"), agent("c", "m")
    )
    assert h.ids == ["m:0", "plan:current", "m:1", "permission:r", "m:2"]


def test_adjacent_markdown_parts_concatenate():
    h = Harness()(agent("one ", "m"), agent("two", "m"))
    assert h.plain("m:0")["parts"] == [{"kind": "markdown", "text": "one two"}]


def test_user_text_joins_the_first_markdown_part_so_prose_stays_before_attachments():
    link = {"type": "resource_link", "uri": "file:///a/doc.txt", "name": "doc.txt"}
    h = Harness()(user("Look at ", "u"), user(link, "u"), user("this", "u"))
    parts = h.plain("u:0")["parts"]
    assert [p["kind"] for p in parts] == ["markdown", "attachment"]
    assert parts[0]["text"] == "Look at this"


def test_assistant_text_after_an_attachment_starts_a_new_markdown_part():
    link = {"type": "resource_link", "uri": "file:///a/doc.txt"}
    h = Harness()(agent("before", "m"), agent(link, "m"), agent("after", "m"))
    assert [p["kind"] for p in h.plain("m:0")["parts"]] == ["markdown", "attachment", "markdown"]


def test_text_block_becomes_markdown():
    h = Harness()(agent("**bold**", "m"))
    assert h.plain("m:0")["parts"] == [{"kind": "markdown", "text": "**bold**"}]


def test_image_with_safe_uri_is_inline_else_a_data_uri():
    h = Harness()(
        agent({"type": "image", "uri": "https://x.y/a.png", "data": "AAA", "mimeType": "image/png"}, "m"),
        agent({"type": "image", "uri": "javascript:alert(1)", "data": "AAA", "mimeType": "image/png"}, "n"),
    )
    assert h.plain("m:0")["parts"] == [{"kind": "image", "uri": "https://x.y/a.png"}]
    assert h.plain("n:0")["parts"] == [{"kind": "image", "uri": "data:image/png;base64,AAA"}]


def test_user_image_with_uri_becomes_an_attachment():
    h = Harness()(
        user({"type": "image", "uri": "file:///home/u/cat.png", "data": "A", "mimeType": "image/png"}, "u")
    )
    part = h.plain("u:0")["parts"][0]
    assert part["kind"] == "attachment" and part["name"] == "cat.png"


def test_resource_link_becomes_a_pending_attachment_with_name_fallbacks():
    h = Harness()(
        agent({"type": "resource_link", "uri": "file:///a/b/report.pdf", "name": "Report"}, "a"),
        agent({"type": "resource_link", "uri": "file:///a/b/report.pdf", "name": "", "title": "Title"}, "b"),
        agent({"type": "resource_link", "uri": "file:///a/b/report%20v2.pdf"}, "c"),
    )
    names = [h.plain(i)["parts"][0]["name"] for i in ("a:0", "b:0", "c:0")]
    assert names == ["Report", "Title", "report v2.pdf"]
    assert h.plain("a:0")["parts"][0]["status"] == "pending"


def test_an_embedded_resource_shows_its_own_content_never_the_file_its_uri_names():
    h = Harness()(
        agent({"type": "resource", "resource": {"uri": "file:///x/notes.md", "text": "hi"}}, "a"),
        agent({"type": "resource", "resource": {"text": "no uri"}}, "b"),
        agent({"type": "resource", "resource": {"uri": "file:///x/a.bin", "blob": "AAAA"}}, "c"),
        agent({"type": "resource", "resource": {"uri": "file:///x/bare.md"}}, "d"),
        agent({"type": "resource", "resource": {}}, "e"),
    )
    notes = h.plain("a:0")["parts"][0]
    assert (notes["status"], notes["source"], notes["name"]) == ("available", "acp-embedded", "notes.md")
    assert notes["embedded"] == {"text": "hi", "size": 2, "truncated": False}
    assert h.plain("b:0")["parts"][0]["embedded"]["text"] == "no uri"
    assert h.plain("c:0")["parts"][0]["embedded"] == {"text": None, "size": 3, "truncated": False}
    assert h.plain("d:0")["parts"][0]["status"] == "pending"  # no content of its own: the uri is all
    assert h.plain("e:0")["parts"][0]["status"] == "unavailable"


def test_embedded_text_is_kept_up_to_its_cap_and_counted_beyond():
    from app.renderer.timeline.parts import MAX_EMBEDDED_TEXT_CHARS

    huge = "x" * (MAX_EMBEDDED_TEXT_CHARS + 10)
    h = Harness()(agent({"type": "resource", "resource": {"uri": "file:///big.txt", "text": huge}}, "a"))
    embedded = h.plain("a:0")["parts"][0]["embedded"]
    assert len(embedded["text"]) == MAX_EMBEDDED_TEXT_CHARS
    assert (embedded["size"], embedded["truncated"]) == (MAX_EMBEDDED_TEXT_CHARS + 10, True)


def test_unknown_block_type_becomes_an_error_part_never_a_crash():
    h = Harness()(agent({"type": "hologram", "x": 1}, "m"), agent({"type": "audio", "data": "x"}, "n"))
    assert h.plain("m:0")["parts"] == [{"kind": "error", "text": "Unsupported ACP content block: hologram"}]
    assert h.plain("n:0")["parts"][0]["text"] == "Unsupported ACP content block: audio"


def test_tool_upsert_patches_only_present_fields():
    h = Harness()(
        tool(
            "x",
            title="ls -la",
            kind="execute",
            status="pending",
            rawInput={"cmd": "ls"},
            locations=[{"path": "/a"}],
        ),
        tool("x", "tool_call_update", status="completed"),
    )
    item = h.item("tool:x")
    assert (item.title, item.tool_kind, item.status, item.input) == (
        "ls -la",
        "execute",
        "completed",
        {"cmd": "ls"},
    )
    assert item.locations == [{"path": "/a"}]


def test_tool_in_progress_maps_to_running():
    h = Harness()(tool("x", status="in_progress"))
    assert h.item("tool:x").status == "running"


def test_tool_content_replaces_output_parts():
    h = Harness()(
        tool("x", content=[{"type": "content", "content": text("first")}]),
        tool("x", "tool_call_update", content=[{"type": "content", "content": text("second")}]),
    )
    assert h.plain("tool:x")["parts"] == [{"kind": "markdown", "text": "second"}]


def test_tool_missing_title_keeps_the_old_one_else_the_tool_id():
    h = Harness()(tool("x"), tool("y", title="Read a"), tool("y", "tool_call_update", status="completed"))
    assert h.item("tool:x").title == "x"
    assert h.item("tool:y").title == "Read a"


def test_tool_update_for_an_unknown_tool_creates_it():
    h = Harness()(tool("late", "tool_call_update", status="completed", title="t"))
    assert h.ids == ["tool:late"] and h.item("tool:late").status == "completed"


def test_historical_is_sticky():
    h = Harness()(
        tool("x", historical=True, status="pending"), tool("x", "tool_call_update", status="completed")
    )
    assert h.item("tool:x").historical is True
    h(agent("a", "m", historical=True), agent("b", "m"))
    assert h.item("m:0").historical is True


def test_plan_replaces_plan_current():
    h = Harness()(
        update("plan", entries=[{"content": "a", "status": "pending", "priority": "high"}]),
        agent("between", "m"),
        update("plan", entries=[{"content": "b", "status": "completed", "priority": "low"}]),
    )
    assert h.ids == ["plan:current", "m:0"]
    assert h.item("plan:current").entries == [{"content": "b", "status": "completed", "priority": "low"}]


def test_metadata_updates_fill_metadata_not_items():
    h = Harness()(
        update("session_info_update", title="My chat", updatedAt="2026-11-30T00:00:00Z"),
        update("current_mode_update", currentModeId="code"),
        update("available_commands_update", availableCommands=[{"name": "help"}]),
        update("config_option_update", configOptions=[{"id": "model"}]),
        update("usage_update", used=10, size=100, cost={"amount": 0.1, "currency": "USD"}),
    )
    meta = h.timeline.meta
    assert (meta.title, meta.mode, meta.commands, meta.config_options) == (
        "My chat",
        "code",
        [{"name": "help"}],
        [{"id": "model"}],
    )
    assert meta.usage == {"used": 10, "size": 100, "cost": {"amount": 0.1, "currency": "USD"}}
    assert h.ids == []


def test_unknown_update_kinds_are_ignored():
    h = Harness()(update("terminal_update", x=1), update("hologram"), agent("a", "m"))
    assert h.ids == ["m:0"] and h.timeline.ignored == 2


def test_notifications_for_another_session_or_generation_leave_the_timeline_unchanged():
    h = Harness()(agent("mine", "m"))
    before = timeline_record(h.timeline)
    h(agent("theirs", "m", session="other-key"), agent("stale", "m", generation=GEN - 1))
    assert timeline_record(h.timeline) == before
    assert h.timeline.ignored == 2


def test_optimistic_user_segment_is_shown_at_once():
    h = Harness().optimistic("user:abc", "  What is ACP?  ")
    assert h.ids == ["user:abc:0"]
    segment = h.item("user:abc:0")
    assert segment.optimistic and h.plain("user:abc:0")["parts"] == [
        {"kind": "markdown", "text": "What is ACP?"}
    ]
    assert h.row_kinds == ["user"]


def test_an_echo_confirms_the_message_typed_here_but_never_rewrites_it():
    h = Harness().optimistic("user:abc", "what I typed")
    h(user("What the agent ", "user:abc"), user("says I said", "user:abc"))
    assert h.ids == ["user:abc:0"]
    segment = h.item("user:abc:0")
    assert not segment.optimistic and segment.echoed
    assert h.plain("user:abc:0")["parts"] == [{"kind": "markdown", "text": "what I typed"}]


def test_id_less_echo_resolves_to_the_optimistic_segment_and_changes_nothing():
    h = Harness().optimistic("user:abc", "hello")
    h(user("hel"), user("lo! and more"), agent("reply"))
    assert h.ids == ["user:abc:0", "assistant:message:1:0"]
    assert h.item("user:abc:0").echoed
    assert h.plain("user:abc:0")["parts"] == [{"kind": "markdown", "text": "hello"}]


def test_an_echo_adds_no_attachment_to_the_users_message():
    h = Harness().optimistic("user:abc", "plain words")
    h(user({"type": "resource_link", "uri": "file:///etc/passwd", "name": "passwd"}, "user:abc"))
    assert h.plain("user:abc:0")["parts"] == [{"kind": "markdown", "text": "plain words"}]


def test_optimistic_attachments_missing_from_the_echo_are_kept():
    doc = AttachmentPart(Attachment(name="doc.txt", uri="file:///tmp/doc.txt"))
    h = Harness().optimistic("user:abc", "see file", (doc,))
    h(user("see file", "user:abc"))
    parts = h.plain("user:abc:0")["parts"]
    assert [p["kind"] for p in parts] == ["markdown", "attachment"] and parts[1]["name"] == "doc.txt"


def test_failed_prompt_removes_the_optimistic_segment():
    h = Harness().optimistic("user:abc", "never arrived")
    h(settled("user:abc", error="agent exited"))
    assert h.ids == [] and h.timeline.rows == []


def test_failed_prompt_keeps_the_segment_once_echoed():
    h = Harness().optimistic("user:abc", "arrived")
    h(user("arrived", "user:abc"), settled("user:abc", error="agent exited later"))
    assert h.ids == ["user:abc:0"]


def test_failed_prompt_keeps_the_segment_when_the_agent_already_replied():
    h = Harness().optimistic("user:abc", "reached the agent")
    h(agent("partial reply"), settled("user:abc", error="agent exited mid-turn"))
    assert h.ids == ["user:abc:0", "assistant:message:1:0"]


def test_optimistic_segment_stands_for_good_without_an_echo():
    h = Harness().optimistic("user:abc", "OpenClaw never echoes")
    h(agent("reply"), settled("user:abc"))
    assert h.ids == ["user:abc:0", "assistant:message:1:0"]
    assert h.timeline.timings["user:abc"].elapsed_s == 2.0
