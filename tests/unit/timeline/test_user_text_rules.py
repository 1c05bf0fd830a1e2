"""OpenClaw's `[Working directory: <cwd>]\n\n` prefix on the user's text it sends back is not shown: only
at the very start of text that came from the agent, never elsewhere, never in text typed here."""

from __future__ import annotations

from app.renderer.timeline.questions import question_directory
from app.renderer.timeline.turn_view import strip_cwd_prefix, user_text
from tests.unit.timeline.helpers import Harness, agent, user


def test_the_prefix_is_stripped_only_at_the_start():
    assert strip_cwd_prefix("[Working directory: /w]\n\nhello") == "hello"
    assert strip_cwd_prefix("[Working directory: /a]b]\r\n\r\nhello") == "hello"  # the line's last ]
    assert strip_cwd_prefix("[Working directory: /w]") == ""  # an empty prompt
    kept = "hello\n[Working directory: /w]\n\nstill here"
    assert strip_cwd_prefix(kept) == kept
    assert strip_cwd_prefix(" [Working directory: /w]\n\nx") == " [Working directory: /w]\n\nx"
    assert strip_cwd_prefix("[Working directory: /w] and more") == "[Working directory: /w] and more"
    assert strip_cwd_prefix("[Working directory: /w\n]\n\nx") == "[Working directory: /w\n]\n\nx"


def test_replayed_user_text_shows_without_the_prefix_in_rows_and_questions():
    h = Harness()(
        user("[Working directory: /home/me/w]\n\nfix the build", historical=True),
        agent("done", historical=True),
        user("[Working directory: /home/me/w]\n\nand the tests", historical=True),
    )
    groups = [g for g in h.timeline.grouping.groups if g.kind == "user"]
    assert [user_text(h.timeline.items, g) for g in groups] == ["fix the build", "and the tests"]
    titles = [q.title for q in question_directory(h.timeline.items, h.timeline.grouping).entries]
    assert titles == ["fix the build", "and the tests"]


def test_text_typed_here_keeps_a_leading_prefix_also_after_the_agent_echoes_it():
    h = Harness().optimistic("m1", "[Working directory: mine]\n\nliteral")
    [group] = [g for g in h.timeline.grouping.groups if g.kind == "user"]
    assert user_text(h.timeline.items, group) == "[Working directory: mine]\n\nliteral"
    h(user("[Working directory: /w]\n\nliteral"))  # the echo changes nothing typed here
    [group] = [g for g in h.timeline.grouping.groups if g.kind == "user"]
    assert user_text(h.timeline.items, group) == "[Working directory: mine]\n\nliteral"


def test_earlier_prompts_count_back_from_the_newest_and_skip_prompts_without_text():
    from app.renderer.timeline.turn_view import earlier_prompt

    h = Harness()(
        user("one", "u1"),
        agent("a", "a1"),
        user({"type": "resource_link", "uri": "file:///tmp/x.png", "name": "x.png"}, "u2"),
        agent("b", "a2"),
        user("three", "u3"),
    )
    groups = h.timeline.grouping.groups
    assert [earlier_prompt(h.timeline.items, groups, n) for n in range(4)] == ["three", "one", "", ""]
