"""An agent's JSON-RPC error reads as one sentence in the agent's own words; the rest is details."""

from __future__ import annotations

from app.main.agents.errors import agent_error, error_details, sentence


def test_a_specific_reason_in_the_data_wins_over_the_generic_message():
    # claude-agent-acp without a login: -32603 "Internal error", the reason in data.details
    said = agent_error("Internal error", {"details": "Query closed before response received"})
    assert said == "Query closed before response received."
    assert "{" not in said and "Internal error" not in said


def test_the_agents_own_message_stands_when_it_says_something():
    assert agent_error("Authentication required", {"authMethods": ["chatgpt"]}) == "Authentication required."
    assert agent_error("Internal error", None) == "Internal error."
    assert agent_error("", "the disk is full") == "The disk is full."
    assert agent_error(None, None) == "The agent gave no reason."


def test_a_sentence_is_one_line_of_readable_length():
    assert sentence("first line\nTraceback (most recent call last): ...") == "First line."
    assert len(sentence("x" * 1000)) == 300 and sentence("x" * 1000).endswith("\u2026")
    assert sentence("Done!") == "Done!"


def test_the_details_keep_everything_for_a_disclosure():
    details = error_details("session/new", -32603, "Internal error", {"details": "Query closed", "n": 1})
    assert details.startswith("session/new answered error -32603: Internal error")
    assert '"details": "Query closed"' in details and '"n": 1' in details
