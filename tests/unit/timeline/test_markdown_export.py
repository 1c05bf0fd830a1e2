"""A chat as Markdown (export, "copy as Markdown"): each item through the one serializer, tool output
fenced, attachments as links, machine context never in it."""

from __future__ import annotations

from app.contract.envelopes import TerminalOutputEnvelope
from app.contract.hidden_context import wrap
from app.renderer.timeline.markdown_export import fenced, timeline_markdown, turn_markdown
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, permission, resolved, thought, tool, user

FENCED_OUTPUT = "Usage:\n```\nmake test\n```\n"


def _chat() -> Harness:
    link = {"type": "resource_link", "uri": "file:///work/notes (draft).md", "name": "notes (draft).md"}
    return Harness()(
        user("Fix the build" + wrap("terminal capability: secret-token-123"), "u1"),
        user(link, "u1"),
        thought("the makefile is probably wrong"),
        tool(
            "t1",
            title="Read Makefile",
            kind="read",
            status="completed",
            content=[{"type": "content", "content": {"type": "text", "text": FENCED_OUTPUT}}],
        ),
        tool(
            "t2",
            title="make",
            kind="execute",
            status="completed",
            content=[{"type": "terminal", "terminalId": "term-1"}],
        ),
        TerminalOutputEnvelope(
            KEY, GEN, "term-1", "\x1b[31merror\x1b[0m: no rule\r\n", exited=True, exit_code=2
        ),
        permission("p1", "allow"),
        resolved("p1", "allow"),
        agent("Fixed: the **rule** was missing.", "a1"),
    )


def test_the_chat_reads_as_markdown_in_order_with_every_kind_of_item():
    text = timeline_markdown(_chat().timeline, "Build fixes", "Exported from ClawQt")
    assert text.startswith("# Build fixes\n\n_Exported from ClawQt_\n\n## You\n\nFix the build")
    order = ["## You", "> **Thought**", "**Read Makefile**", "**make**", "- permission: selected", "Fixed:"]
    places = [text.index(marker) for marker in order]
    assert places == sorted(places)
    assert "> the makefile is probably wrong" in text
    assert "Fixed: the **rule** was missing." in text  # the agent's Markdown as it wrote it


def test_machine_context_never_reaches_the_export():
    text = timeline_markdown(_chat().timeline, "Build fixes")
    assert "secret-token-123" not in text and "clawqt_hidden_context" not in text


def test_tool_output_is_fenced_so_nothing_inside_ends_the_fence():
    text = timeline_markdown(_chat().timeline, "t")
    assert "````text\n" + FENCED_OUTPUT.rstrip("\n") + "\n````" in text
    assert "```console\nerror: no rule\n```" in text  # the terminal as its screen shows it, no escapes


def test_attachments_are_links():
    text = timeline_markdown(_chat().timeline, "t")
    assert "- [notes (draft).md](<file:///work/notes (draft).md>)" in text


def test_a_turn_copies_as_its_own_markdown():
    h = _chat()
    turn = next(g for g in h.timeline.grouping.groups if g.kind == "assistant")
    copied = turn_markdown(h.timeline.items, turn)
    assert copied.startswith("> **Thought**") and copied.endswith("Fixed: the **rule** was missing.")
    assert copied in timeline_markdown(h.timeline, "t")


def test_a_fence_is_longer_than_any_backtick_run_inside():
    assert fenced("plain") == "```\nplain\n```"
    assert fenced("a ````` b", "text").startswith("``````text\n")


def test_each_turn_says_the_files_it_changed_under_its_answer():
    harness = Harness()(
        user("Fix the build", "u1"), agent("Done.", "a1"), user("Thanks", "u2"), agent("OK", "a2")
    )
    changed = {"u1": [{"name": "Makefile", "created": False, "deleted": False, "added": 2, "removed": 1}]}
    text = timeline_markdown(harness.timeline, "Build", files_of=lambda turn: changed.get(turn, []))
    assert "Done.\n\nFiles changed:\n\n- `Makefile` (modified, +2 \u22121)\n\n## You\n\nThanks" in text
    assert text.count("Files changed") == 1  # the second turn changed nothing
