"""The inbox's words and quick answers: a permission request's Allow and Deny are the agent's own
once-options (an "always" answer is given on the card, where its scope is shown); long commands cut."""

from __future__ import annotations

from app.renderer.present.inbox_items import (
    REQUEST_CHARS,
    permission_words,
    proposal_words,
    question_words,
    quick_answers,
    settled_words,
)


def test_quick_answers_are_the_once_options_only():
    options = [
        {"optionId": "always", "kind": "allow_always"},
        {"optionId": "yes", "kind": "allow_once"},
        {"optionId": "no", "kind": "reject_once"},
        {"optionId": "never", "kind": "reject_always"},
    ]
    assert quick_answers(options) == {"allow": "yes", "deny": "no"}
    assert quick_answers([{"optionId": "always", "kind": "allow_always"}]) == {}
    assert quick_answers([{"optionId": 7, "kind": "allow_once"}, {"kind": "reject_once"}]) == {}


def test_the_words_say_what_waits_and_cut_a_long_command():
    assert permission_words({"title": "rm -rf build"}, "") == "Asks to run rm -rf build"
    assert permission_words({}, "") == "Asks for your permission"
    long = permission_words({"title": "exec"}, "echo " + "x" * 500)
    assert long.startswith("Asks to run exec: echo x") and long.endswith("…")
    assert len(long) <= len("Asks to run exec: ") + REQUEST_CHARS
    assert permission_words({"title": "exec"}, "ls\n  -la") == "Asks to run exec: ls -la"
    assert question_words("Which branch?") == "Asks: Which branch?"
    assert question_words("") == "Asks you a question"
    assert question_words("msg", "Deploy form") == "Asks: Deploy form"
    assert settled_words(None) == "Finished its reply" and settled_words("boom") == "The turn failed: boom"
    assert proposal_words("make test") == "Proposes to run make test"
    assert proposal_words("") == "Proposes terminal actions"
