"""The proposal payload schema over generated payloads: every well-formed one is read back exactly;
a field added anywhere is refused, named."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.main.proposals.schema import (
    DIRECTIONS,
    MAX_CHOICE_NUMBER,
    MAX_CHOICES,
)
from tests.unit.proposals.schema_support import accepted, refused

# --- properties -----------------------------------------------------------------------------------
safe_text = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp"),
        blacklist_characters="\u115f\u1160\u3164\uffa0\u034f",
    ),
    min_size=1,
    max_size=30,
).filter(str.strip)
send_actions = st.builds(lambda text: {"type": "send", "input": text}, safe_text)
open_actions = st.fixed_dictionaries(
    {"type": st.just("open"), "target": st.sampled_from(["tab", "panel"])},
    optional={
        "cwd": safe_text,
        "title": safe_text,
        "direction": st.sampled_from(DIRECTIONS),
        "profile": safe_text,
    },
)
open_and_send_actions = st.fixed_dictionaries(
    {"type": st.just("open_and_send"), "target": st.sampled_from(["tab", "panel"]), "input": safe_text},
    optional={"delegate": st.just(False), "cwd": safe_text, "title": safe_text},
)
actions = st.one_of(send_actions, open_actions, open_and_send_actions)


@st.composite
def valid_payloads(draw) -> dict[str, Any]:
    numbers = draw(st.lists(st.integers(1, MAX_CHOICE_NUMBER), min_size=1, max_size=MAX_CHOICES, unique=True))
    choices = [
        {
            "choice": number,
            "title": draw(safe_text),
            "actions": draw(st.lists(actions, min_size=1, max_size=3)),
        }
        | ({"rationale": draw(safe_text)} if draw(st.booleans()) else {})
        for number in numbers
    ]
    value = {"schema_version": 1, "origin": "terminal_agent", "choices": choices}
    if draw(st.booleans()):
        value["recommended_choice"] = draw(st.sampled_from(numbers))
    return value


@settings(max_examples=300, deadline=None)
@given(valid_payloads())
def test_any_well_formed_payload_is_accepted_and_read_back_exactly(value):
    result = accepted(value)
    assert result.recommended == value.get("recommended_choice")
    for read, given_choice in zip(result.choices, value["choices"], strict=True):
        assert (read.choice, read.title, read.rationale) == (
            given_choice["choice"],
            given_choice["title"],
            given_choice.get("rationale", ""),
        )
        for action, given_action in zip(read.actions, given_choice["actions"], strict=True):
            assert action.type == given_action["type"]
            for key, expected in given_action.items():
                if key != "type":
                    assert getattr(action, key) == expected


@settings(max_examples=300, deadline=None)
@given(valid_payloads(), st.data(), st.text(min_size=1, max_size=12))
def test_a_field_added_to_any_object_is_refused_and_named(value, data, key):
    known = {
        "schema_version",
        "origin",
        "recommended_choice",
        "choices",
        "choice",
        "title",
        "rationale",
        "actions",
        "type",
        "input",
        "target",
        "cwd",
        "direction",
        "profile",
        "delegate",
    }
    if key in known:
        return
    mutated = copy.deepcopy(value)
    objects = [mutated] + mutated["choices"] + [a for c in mutated["choices"] for a in c["actions"]]
    data.draw(st.sampled_from(objects))[key] = 1
    text = json.dumps(mutated, ensure_ascii=False)
    reason = refused(text)
    assert "not a known field" in reason or "not allowed" in reason
    assert (key[:40] if key.isidentifier() else json.dumps(key[:40], ensure_ascii=True)[1:-1]) in reason
