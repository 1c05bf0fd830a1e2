"""The proposal payload schema: one test per rule of its shape and fields, each named after it."""

from __future__ import annotations

import pytest

from app.contract.proposals import MAX_PAYLOAD_BYTES, ProposalAction, compact_payload
from app.main.proposals.schema import (
    DIRECTIONS,
    MAX_ACTIONS,
    MAX_CHOICE_NUMBER,
    MAX_CHOICES,
    MAX_CWD_CHARS,
    MAX_INPUT_CHARS,
    MAX_PROFILE_CHARS,
    MAX_RATIONALE_CHARS,
    MAX_TITLE_CHARS,
    ValidatedPayload,
    validate_payload,
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


def test_a_valid_payload_is_read_with_its_choices_in_order():
    result = accepted(
        payload(
            {"choice": 2, "title": "Second", "rationale": "why", "actions": [send("make")]},
            {"choice": 1, "title": "First", "actions": [send("ls"), send("pwd")]},
            recommended_choice=1,
        )
    )
    assert result.origin == "terminal_agent" and result.recommended == 1
    assert [(c.choice, c.title, c.rationale) for c in result.choices] == [
        (2, "Second", "why"),
        (1, "First", ""),
    ]
    assert result.choices[1].actions == (
        ProposalAction("send", input="ls"),
        ProposalAction("send", input="pwd"),
    )
    assert result.sends == ((0, 0), (1, 0), (1, 1))


def test_open_and_open_and_send_are_read_with_every_field():
    opened = {
        "type": "open",
        "target": "tab",
        "cwd": "/srv",
        "title": "Logs",
        "direction": "down",
        "profile": "p",
    }
    both = {"type": "open_and_send", "target": "panel", "input": "top", "delegate": False}
    result = accepted(payload({"choice": 1, "title": "T", "actions": [opened, both]}))
    assert result.choices[0].actions == (
        ProposalAction("open", target="tab", cwd="/srv", title="Logs", direction="down", profile="p"),
        ProposalAction("open_and_send", input="top", target="panel"),
    )
    assert result.sends == ()  # open_and_send types into the terminal it opens: no captured target needed


def test_the_payload_may_be_8_kib_and_not_one_byte_more():
    base = compact_payload(payload({"choice": 1, "title": "T", "rationale": "", "actions": [send("x")]}))
    pad = MAX_PAYLOAD_BYTES - len(base.encode())
    filler = "\u00e9" * (pad // 2) + "y" * (pad % 2)  # two bytes a character: within the 8000 characters
    exact = base.replace('"input":"x"', '"input":"x' + filler + '"')
    assert len(exact.encode()) == MAX_PAYLOAD_BYTES
    assert isinstance(validate_payload(exact), ValidatedPayload)
    over = exact.replace('"input":"x', '"input":"xy')
    assert "8193 bytes" in refused(over) and "8192" in refused(over)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "payload is not valid JSON"),
        ("", "payload is not valid JSON"),
        ("[1]", "payload must be a JSON object"),
        ('"text"', "payload must be a JSON object"),
        ('{"schema_version":1,"schema_version":1}', 'field "schema_version" twice'),
        ('{"schema_version":NaN}', "NaN"),
        ('{"schema_version":Infinity}', "Infinity"),
        ('{"schema_version":1' + "0" * 5000 + "}", "payload is not valid JSON"),
    ],
)
def test_a_payload_must_be_one_json_object_without_repeated_fields_or_constants(text, fragment):
    assert fragment in refused(text)


def test_a_deeply_nested_payload_is_refused_without_raising():
    assert "nested too deeply" in refused('{"choices":' + "[" * 4000 + "]" * 4000 + "}")


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda p: p.update(extra=1), "extra is not a known field"),
        (lambda p: p["choices"][0].update(note="x"), "choices[0].note is not a known field"),
        (
            lambda p: p["choices"][0]["actions"][0].update(sudo=True),
            "choices[0].actions[0].sudo is not a known",
        ),
        (lambda p: p.update({"two words": 1}), '"two words" is not a known field'),
    ],
)
def test_unknown_fields_are_refused_at_every_level(mutate, field):
    value = payload()
    mutate(value)
    assert field in refused(value)


@pytest.mark.parametrize(
    "key",
    [
        "session",
        "session_id",
        "sessionId",
        "window",
        "tab",
        "tab_id",
        "pane",
        "paneId",
        "terminal",
        "terminal_id",
        "parent",
        "helper",
    ],
)
@pytest.mark.parametrize("level", ["top", "choice", "action"])
def test_a_field_naming_a_session_window_tab_or_pane_is_refused(key, level):
    value = payload()
    where = {"top": value, "choice": value["choices"][0], "action": value["choices"][0]["actions"][0]}[level]
    where[key] = "pane-7"
    reason = refused(value)
    assert key in reason and "never names a session, window, tab or pane" in reason


@pytest.mark.parametrize(
    ("action", "field"),
    [
        (
            {"type": "send", "input": "ls", "target": "tab"},
            "choices[0].actions[0].target is not a known field",
        ),
        ({"type": "send", "input": "ls", "cwd": "/"}, "choices[0].actions[0].cwd is not a known field"),
        (
            {"type": "open", "target": "tab", "input": "ls"},
            "choices[0].actions[0].input is not a known field",
        ),
        (
            {"type": "open", "target": "tab", "delegate": False},
            "choices[0].actions[0].delegate is not a known",
        ),
    ],
)
def test_a_field_of_another_action_type_is_unknown(action, field):
    assert field in refused(with_action(action))


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda p: p.pop("schema_version"), "schema_version is missing"),
        (lambda p: p.pop("origin"), "origin is missing"),
        (lambda p: p.pop("choices"), "choices is missing"),
        (lambda p: p["choices"][0].pop("choice"), "choices[0].choice is missing"),
        (lambda p: p["choices"][0].pop("title"), "choices[0].title is missing"),
        (lambda p: p["choices"][0].pop("actions"), "choices[0].actions is missing"),
        (lambda p: p["choices"][0]["actions"][0].pop("input"), "choices[0].actions[0].input is missing"),
    ],
)
def test_required_fields_are_named_when_missing(mutate, field):
    value = payload()
    mutate(value)
    assert field in refused(value)


def test_an_open_needs_a_target_and_an_open_and_send_also_an_input():
    assert "choices[0].actions[0].target is missing" in refused(with_action({"type": "open"}))
    assert "actions[0].input is missing" in refused(with_action({"type": "open_and_send", "target": "tab"}))


@pytest.mark.parametrize("version", [0, 2, "1", True, 1.0, None])
def test_schema_version_must_be_exactly_1(version):
    assert refused(payload(schema_version=version)) == "schema_version must be 1."
    assert isinstance(check(payload(schema_version=1)), ValidatedPayload)


@pytest.mark.parametrize("origin", ["user", "", None, ["autofix"], "Terminal_Agent"])
def test_origin_must_be_terminal_agent_or_autofix(origin):
    assert refused(payload(origin=origin)) == "origin must be one of terminal_agent, autofix."


def test_there_are_one_to_three_choices():
    assert accepted(payload(*[choice_number(n) for n in range(1, MAX_CHOICES + 1)]))
    for count in (0, MAX_CHOICES + 1):
        value = payload()
        value["choices"] = [choice_number(n) for n in range(1, count + 1)]
        assert refused(value) == "choices must be a list of 1 to 3 entries."
    assert refused(payload(choices={"choice": 1})) == "choices must be a list of 1 to 3 entries."


def test_each_choice_has_one_to_three_actions():
    assert accepted(payload({"choice": 1, "title": "T", "actions": [send()] * MAX_ACTIONS}))
    for actions in ([], [send()] * (MAX_ACTIONS + 1)):
        assert refused(payload({"choice": 1, "title": "T", "actions": actions})) == (
            "choices[0].actions must be a list of 1 to 3 entries."
        )


@pytest.mark.parametrize("kind", ["run", "", None, "SEND", "open_tab"])
def test_an_action_type_is_send_open_or_open_and_send(kind):
    assert refused(with_action({"type": kind, "input": "ls"})) == (
        "choices[0].actions[0].type must be one of send, open, open_and_send."
    )
    assert refused(payload({"choice": 1, "title": "T", "actions": ["ls"]})) == (
        "choices[0].actions[0] must be a JSON object."
    )


@pytest.mark.parametrize("number", [0, -1, MAX_CHOICE_NUMBER + 1, True, 1.5, "1", None])
def test_a_choice_number_is_an_integer_from_1_to_99(number):
    assert refused(payload(choice_number(1) | {"choice": number})) == (
        "choices[0].choice must be an integer from 1 to 99."
    )
    assert accepted(payload(choice_number(MAX_CHOICE_NUMBER)))


def test_choice_numbers_are_unique():
    reason = refused(payload(choice_number(2), choice_number(2)))
    assert reason == "choices[1].choice repeats the number 2: choice numbers are unique."


def test_the_recommended_choice_is_one_of_the_choice_numbers():
    assert accepted(payload(choice_number(1), choice_number(3), recommended_choice=3)).recommended == 3
    assert accepted(payload(choice_number(1))).recommended is None
    assert accepted(payload(choice_number(1), recommended_choice=None)).recommended is None
    for wrong in (2, 0, True, "1", 1.0):
        assert refused(payload(choice_number(1), recommended_choice=wrong)) == (
            "recommended_choice must be the number of one of the choices."
        )


def test_a_choice_title_is_required_not_blank_and_at_most_200_characters():
    assert accepted(payload({"choice": 1, "title": "t" * MAX_TITLE_CHARS, "actions": [send()]}))
    long = refused(payload({"choice": 1, "title": "t" * (MAX_TITLE_CHARS + 1), "actions": [send()]}))
    assert long == "choices[0].title is 201 characters, more than the 200 allowed."
    assert refused(payload({"choice": 1, "title": " \t", "actions": [send()]})) == (
        "choices[0].title must not be empty."
    )
    assert (
        refused(payload({"choice": 1, "title": 5, "actions": [send()]}))
        == "choices[0].title must be a string."
    )


def test_a_rationale_is_optional_and_at_most_2000_characters():
    ok = accepted(
        payload({"choice": 1, "title": "T", "rationale": "r" * MAX_RATIONALE_CHARS, "actions": [send()]})
    )
    assert ok.choices[0].rationale == "r" * MAX_RATIONALE_CHARS
    assert accepted(payload({"choice": 1, "title": "T", "rationale": "", "actions": [send()]}))
    reason = refused(payload({"choice": 1, "title": "T", "rationale": "r" * 2001, "actions": [send()]}))
    assert reason == "choices[0].rationale is 2001 characters, more than the 2000 allowed."


def test_an_input_is_not_blank_and_at_most_8000_characters():
    assert accepted(with_action(send("x" * MAX_INPUT_CHARS)))
    assert refused(with_action(send("x" * (MAX_INPUT_CHARS + 1)))) == (
        "choices[0].actions[0].input is 8001 characters, more than the 8000 allowed."
    )
    assert refused(with_action(send("   "))) == "choices[0].actions[0].input must not be empty."
    assert (
        refused(with_action({"type": "send", "input": ["ls"]}))
        == "choices[0].actions[0].input must be a string."
    )


@pytest.mark.parametrize(
    ("field", "most"), [("cwd", MAX_CWD_CHARS), ("title", MAX_TITLE_CHARS), ("profile", MAX_PROFILE_CHARS)]
)
def test_the_cwd_title_and_profile_of_an_open_are_bounded_and_not_blank(field, most):
    assert accepted(with_action({"type": "open", "target": "tab", field: "a" * most}))
    assert accepted(with_action({"type": "open", "target": "tab", field: None}))
    assert refused(with_action({"type": "open", "target": "tab", field: "a" * (most + 1)})) == (
        f"choices[0].actions[0].{field} is {most + 1} characters, more than the {most} allowed."
    )
    assert refused(with_action({"type": "open", "target": "tab", field: ""})) == (
        f"choices[0].actions[0].{field} must not be empty."
    )


@pytest.mark.parametrize("target", ["window", "pane", "", None, "TAB"])
def test_an_open_target_is_tab_or_panel(target):
    assert refused(with_action({"type": "open", "target": target})) == (
        "choices[0].actions[0].target must be one of tab, panel."
    )


def test_a_direction_is_one_of_the_known_directions():
    for direction in DIRECTIONS:
        assert accepted(with_action({"type": "open", "target": "panel", "direction": direction}))
    assert refused(with_action({"type": "open", "target": "panel", "direction": "diagonal"})) == (
        "choices[0].actions[0].direction must be one of right, left, up, down, auto."
    )


def test_delegate_is_false_or_absent_because_clawqt_has_no_delegate_agent():
    base = {"type": "open_and_send", "target": "tab", "input": "claude"}
    assert accepted(with_action(base | {"delegate": False}))
    assert accepted(with_action(base))
    assert "no delegate agent" in refused(with_action(base | {"delegate": True}))
    assert (
        refused(with_action(base | {"delegate": "yes"}))
        == "choices[0].actions[0].delegate must be true or false."
    )


def test_an_autofix_proposal_is_exactly_one_choice_with_one_send():
    assert accepted(payload(origin="autofix")).origin == "autofix"
    rule = "choices of an autofix proposal must be exactly one choice with one send action."
    assert refused(payload(choice_number(1), choice_number(2), origin="autofix")) == rule
    assert (
        refused(payload({"choice": 1, "title": "T", "actions": [send(), send()]}, origin="autofix")) == rule
    )
    opened = {"choice": 1, "title": "T", "actions": [{"type": "open", "target": "tab"}]}
    assert refused(payload(opened, origin="autofix")) == rule
