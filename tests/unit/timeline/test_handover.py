"""A chat up to one of the user's messages as the transcript a new chat starts from: the user's
messages and the answers in order, tool calls in one line, machine context never in it, bounded."""

from __future__ import annotations

import pytest

from app.contract.hidden_context import wrap
from app.renderer.timeline.handover import handover
from tests.unit.timeline.helpers import Harness, agent, tool, user


def _chat() -> Harness:
    return Harness()(
        user("Fix the build" + wrap("terminal capability: secret-token-123"), "u1"),
        tool("t1", title="make test", kind="execute", status="completed"),
        agent("Fixed: the rule was missing.", "a1"),
        user("Now add a test", "u2"),
        agent("Added tests/test_rule.py.", "a2"),
        user("Rename it", "u3"),
        agent("Renamed.", "a3"),
    )


def test_continue_from_a_message_carries_it_and_its_answer_and_nothing_after():
    made = handover(_chat().timeline, "u2", with_its_turn=True, title="Build", agent="Claude")
    text = made.text
    assert made.exchanges == 2 and not made.at_end
    assert "Fix the build" in text and "[tool call: make test (execute, done)]" in text
    assert text.index("Fix the build") < text.index("Fixed: the rule") < text.index("Now add a test")
    assert "Added tests/test_rule.py." in text and "Rename it" not in text and "Renamed." not in text
    assert '"Build"' in text and "Claude:" in text
    assert "secret-token-123" not in text and "clawqt_hidden_context" not in text


def test_edit_and_resend_leaves_the_message_out_and_gives_it_back():
    made = handover(_chat().timeline, "u2", with_its_turn=False, title="Build", agent="Claude")
    assert made.message_text == "Now add a test"
    assert made.exchanges == 1 and "Now add a test" not in made.text and "Fix the build" in made.text


def test_only_continuing_from_the_last_message_leaves_nothing_behind():
    timeline = _chat().timeline
    assert handover(timeline, "u3", with_its_turn=True, title="", agent="").at_end
    assert not handover(timeline, "u3", with_its_turn=False, title="", agent="").at_end


def test_editing_the_first_message_carries_no_transcript():
    made = handover(_chat().timeline, "u1", with_its_turn=False, title="Build", agent="Claude")
    assert made.text == "" and made.exchanges == 0 and made.message_text == "Fix the build"


def test_a_long_chat_keeps_its_newest_exchanges_and_says_how_many_are_left_out():
    made = handover(_chat().timeline, "u3", with_its_turn=True, title="Build", agent="Claude", limit=80)
    assert "Rename it" in made.text and "Fix the build" not in made.text
    assert "(2 earlier exchanges are left out for length.)" in made.text and made.exchanges == 1


def test_a_message_not_in_the_chat_is_refused():
    with pytest.raises(KeyError):
        handover(_chat().timeline, "gone", with_its_turn=True, title="", agent="")
