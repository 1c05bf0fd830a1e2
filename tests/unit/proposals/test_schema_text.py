"""The proposal payload schema's texts: every class of hidden character refused with its name, line
breaks where they may be, and every reason one sentence naming its field."""

from __future__ import annotations

import re

import pytest

from app.main.proposals.schema import (
    SchemaProblem,
)
from tests.unit.proposals.schema_support import (
    accepted,
    check,
    choice_number,
    payload,
    refused,
    send,
    with_action,
)

# every class of hidden character (app/contract/hidden_characters.py), with the words its reason uses
HIDDEN = [
    ("\t", "a tab (U+0009)"),
    ("\r", "a carriage return (U+000D)"),
    ("\x1b", "an escape (ESC) (U+001B)"),
    ("\x00", "a control character (U+0000)"),
    ("\x07", "a control character (U+0007)"),
    ("\x7f", "a control character (U+007F)"),
    ("\x9b", "a C1 control character (U+009B)"),
    ("\x85", "a C1 control character (U+0085)"),
    ("\u202e", "a bidirectional control (U+202E)"),
    ("\u2066", "a bidirectional control (U+2066)"),
    ("\u2069", "a bidirectional control (U+2069)"),
    ("\u200e", "a bidirectional control (U+200E)"),
    ("\u061c", "a bidirectional control (U+061C)"),
    ("\u200b", "an invisible character (U+200B)"),
    ("\u200d", "an invisible character (U+200D)"),
    ("\u2060", "an invisible character (U+2060)"),
    ("\ufeff", "an invisible character (U+FEFF)"),
    ("\u00ad", "an invisible character (U+00AD)"),
    ("\U000e0041", "an invisible character (U+E0041)"),
    ("\u3164", "an invisible character (U+3164)"),
    ("\u2028", "a line separator (U+2028)"),
    ("\u2029", "a line separator (U+2029)"),
]


@pytest.mark.parametrize(("char", "described"), HIDDEN)
def test_every_class_of_hidden_character_is_refused_in_every_text_with_its_name(char, described):
    assert refused(with_action(send(f"ls{char}rm -rf ~"))).startswith(
        f"choices[0].actions[0].input holds {described} at position 2: "
    )
    assert described in refused(payload({"choice": 1, "title": f"a{char}b", "actions": [send()]}))
    assert described in refused(
        payload({"choice": 1, "title": "T", "rationale": f"a{char}", "actions": [send()]})
    )
    assert described in refused(with_action({"type": "open", "target": "tab", "cwd": f"/tmp{char}"}))
    opened = {"type": "open_and_send", "target": "tab", "input": f"make{char}", "title": "t"}
    assert described in refused(with_action(opened))


@pytest.mark.parametrize(("char", "described"), HIDDEN)
def test_a_payload_refused_only_for_a_hidden_character_comes_with_what_its_card_shows(char, described):
    problem = check(with_action(send(f"ls{char}x")))
    assert isinstance(problem, SchemaProblem) and problem.shown is not None
    assert problem.shown.choices[0].actions[0].input == f"ls{char}x"  # the card writes it out
    broken_too = check(payload({"choice": 1, "title": "T", "actions": [send(f"ls{char}"), {"type": "x"}]}))
    assert isinstance(broken_too, SchemaProblem) and broken_too.shown is None  # another fault: no card
    assert described in broken_too.reason


def test_a_lone_surrogate_is_refused():
    assert "U+D800" in refused(
        '{"schema_version":1,"origin":"autofix","choices":[{"choice":1,"title":"\\ud800",'
        '"actions":[{"type":"send","input":"ls"}]}]}'
    )


def test_line_breaks_are_kept_in_input_and_rationale_but_refused_in_single_line_fields():
    result = accepted(
        payload({"choice": 1, "title": "T", "rationale": "a\nb", "actions": [send("for x in\ny")]})
    )
    assert result.choices[0].actions[0].input == "for x in\ny" and result.choices[0].rationale == "a\nb"
    for text in ("a\nb", "a\tb", "a\u2028b"):
        assert "choices[0].title holds a" in refused(
            payload({"choice": 1, "title": text, "actions": [send()]})
        )
        assert "choices[0].actions[0].cwd holds" in refused(
            with_action({"type": "open", "target": "tab", "cwd": text})
        )


BROKEN = [
    payload(extra=1),
    payload(schema_version=2),
    payload(origin="x"),
    payload(choices=[]),
    payload(choice_number(1), choice_number(1)),
    payload(choice_number(1), recommended_choice=4),
    with_action(send("a\rb")),
    with_action({"type": "open", "target": "tab", "pane": 1}),
    with_action({"type": "open_and_send", "target": "x", "input": "y"}),
]


@pytest.mark.parametrize("value", BROKEN)
def test_every_reason_is_one_sentence_naming_the_field(value):
    reason = refused(value)
    assert reason.endswith(".") and ". " not in reason and "\n" not in reason
    assert re.match(r'^(payload|"?[a-z_]+)', reason), reason
