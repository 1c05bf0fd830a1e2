"""What the sidebar and the header show of a session, as pure functions: the title's precedence, and
the header's modes, options, usage and commands from whatever the agent sent."""

from __future__ import annotations

from app.renderer.present.session_header import (
    command_entries,
    compact_count,
    config_entries,
    mode_entries,
    usage_entry,
)
from app.renderer.present.session_titles import session_title


def test_a_title_is_the_rename_then_the_agents_then_the_listed_then_the_first_question():
    key = "agent:main:clawqt-1"
    full = {"name": "Mine", "meta_title": "Agent's", "listed_title": "Listed", "preview": "first question"}
    assert session_title(key, **full) == "Mine"
    assert session_title(key, **{**full, "name": ""}) == "Agent's"
    assert session_title(key, **{**full, "name": "", "meta_title": None}) == "Listed"
    assert session_title(key, preview="x" * 100) == "x" * 80
    assert session_title(key) == "New chat"


def test_a_title_equal_to_the_session_key_says_nothing_and_is_skipped():
    key = "agent:main:clawqt-1"
    assert session_title(key, meta_title=key, listed_title=key, preview="fix the build") == "fix the build"


def test_config_options_are_flattened_with_the_model_picker_first():
    options = [
        {"id": "effort", "name": "Effort", "type": "select", "currentValue": "low",
         "options": [{"value": "low"}, {"value": "high", "name": "High"}]},
        {"id": "model", "category": "model", "currentValue": "a",
         "options": [{"name": "Fast", "options": [{"value": "a", "name": "A"}, {"value": "b"}]}, 7]},
        "not an option",
    ]  # fmt: skip
    entries = config_entries(options)  # type: ignore[arg-type]
    assert [e["id"] for e in entries] == ["model", "effort"]
    assert entries[0]["choices"] == [{"value": "a", "name": "A"}, {"value": "b", "name": "b"}]
    assert entries[1]["choices"][1] == {"value": "high", "name": "High"} and entries[1]["type"] == "select"


def test_usage_modes_and_commands_from_any_input():
    assert usage_entry({"used": 1200, "size": 8000, "cost": {"amount": 0.25, "currency": "USD"}}) == {
        "text": "1,200 / 8,000 \u00b7 0.25 USD",
        "short": "1.2k / 8k",
        "fraction": 0.15,
    }
    assert usage_entry(None) == {} and usage_entry({"used": "many"}) == {
        "text": "",
        "short": "",
        "fraction": 0.0,
    }
    assert [compact_count(n) for n in (950, 1000, 1781, 200_000, 1_500_000, 123_456_789)] == [
        "950", "1k", "1.8k", "200k", "1.5M", "123M"
    ]  # fmt: skip
    assert mode_entries({"availableModes": [{"id": "a"}, 3, {"id": "b", "name": "Build"}]}) == [
        {"id": "a", "name": "a"},
        {"id": "b", "name": "Build"},
    ]
    assert mode_entries({"availableModes": {"id": "x"}}) == []
    assert command_entries([{"name": "status", "input": {"hint": "[verbose]"}}, {"name": ""}, {"x": 1}]) == [
        {"name": "status", "description": "", "hint": "[verbose]"}
    ]


def test_openclaws_working_directory_prefix_is_not_part_of_a_title():
    prefixed = "[Working directory: /home/me/project]\n\nfix the build"
    assert session_title("k", listed_title=prefixed) == "fix the build"
    assert session_title("k", meta_title=None, preview=prefixed) == "fix the build"
    assert session_title("k", listed_title="see [Working directory: x]") == "see [Working directory: x]"
