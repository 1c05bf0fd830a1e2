"""An agent's form read into fields and the user's answer checked before it is sent: every field
kind ACP allows, required fields and defaults, each kind's own check, and the hostile forms (a field
50 levels deep, 10,000 choices, a pattern that backtracks forever) refused or bounded in words."""

from __future__ import annotations

import time

import pytest

from app.main.elicitation.answer import check_answer
from app.main.elicitation.form import MAX_CHOICES, FormRefused, read_form

SCHEMA = {
    "type": "object",
    "title": "Deploy",
    "properties": {
        "name": {
            "type": "string",
            "title": "Service name",
            "minLength": 3,
            "maxLength": 20,
            "pattern": "^[a-z-]+$",
        },
        "email": {"type": "string", "format": "email"},
        "when": {"type": "string", "format": "date"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 9, "default": 2},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "canary": {"type": "boolean", "default": False},
        "region": {
            "type": "string",
            "oneOf": [{"const": "eu", "title": "Europe"}, {"const": "us", "title": "US"}],
        },
        "checks": {
            "type": "array",
            "items": {"enum": ["lint", "test", "scan"]},
            "minItems": 1,
            "maxItems": 2,
        },
    },
    "required": ["name", "region"],
}


def test_every_kind_of_field_is_read_with_its_words_bounds_and_choices():
    form = read_form(SCHEMA, "Where should it go?")
    fields = {f.name: f for f in form.fields}
    assert form.title == "Deploy" and form.description == "Where should it go?"
    assert [f.kind for f in form.fields] == [
        "text",
        "text",
        "text",
        "integer",
        "number",
        "boolean",
        "choice",
        "choices",
    ]
    assert fields["name"].label == "Service name" and fields["name"].required and fields["name"].pattern
    assert fields["email"].text_format == "email" and fields["when"].text_format == "date"
    assert (fields["replicas"].minimum, fields["replicas"].maximum, fields["replicas"].default) == (1, 9, 2)
    assert [(c.value, c.label) for c in fields["region"].choices] == [("eu", "Europe"), ("us", "US")]
    assert [c.value for c in fields["checks"].choices] == ["lint", "test", "scan"]


def test_a_good_answer_goes_as_typed_values_and_each_wrong_one_says_why():
    form = read_form(SCHEMA)
    good = {"name": "api-gw", "email": "a@b.io", "when": "2026-12-24", "replicas": "3", "ratio": "0.5",
            "canary": True, "region": "eu", "checks": ["lint"]}  # fmt: skip
    content, problems = check_answer(form, good)
    assert problems == {}
    assert content == {**good, "replicas": 3, "ratio": 0.5}
    bad = {"name": "A!", "email": "nope", "when": "soon", "replicas": "2.5", "ratio": "2", "region": "mars",
           "checks": ["lint", "test", "scan"]}  # fmt: skip
    _, problems = check_answer(form, bad)
    assert set(problems) == {"name", "email", "when", "replicas", "ratio", "region", "checks"}
    assert problems["replicas"] == "A whole number is needed." and problems["checks"] == "Choose at most 2."
    _, missing = check_answer(form, {"name": "  "})
    assert missing == {"name": "This is needed.", "region": "This is needed."}


def test_a_field_that_is_itself_a_form_refuses_the_whole_form_however_deep():
    deep: dict = {"type": "string"}
    for _ in range(50):
        deep = {"type": "object", "properties": {"inner": deep}}
    with pytest.raises(FormRefused, match="a kind of field a form cannot hold"):
        read_form({"type": "object", "properties": {"nested": deep}})


def test_ten_thousand_choices_are_refused_in_words():
    huge = {"type": "string", "title": "Pick", "enum": [f"v{n}" for n in range(10_000)]}
    with pytest.raises(FormRefused, match=f"10,000 choices; ClawQt shows at most {MAX_CHOICES:,}"):
        read_form({"type": "object", "properties": {"pick": huge}})


def test_a_pattern_that_backtracks_forever_is_given_up_on_not_waited_for():
    form = read_form({"type": "object", "properties": {"x": {"type": "string", "pattern": "^(a|aa)+$"}}})
    started = time.monotonic()
    content, problems = check_answer(form, {"x": "a" * 5000 + "b"})
    assert time.monotonic() - started < 2.0
    assert problems == {} and content == {"x": "a" * 5000 + "b"}  # the agent checks what it asked for
    _, problems = check_answer(form, {"x": "b"})
    assert problems == {"x": "Not in the form the agent asks for."}  # a pattern that answers in time
