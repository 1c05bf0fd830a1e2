"""The sidebar's search field: title words, and `agent:` naming the agents whose chats are listed."""

from __future__ import annotations

from app.renderer.present.session_query import SessionQuery, parse_query

NAMES = {"claude": "Claude", "codex": "Codex", "demo": "Demo agent", "my-2": "Claude (work)"}


def test_agent_prefix_picks_agents_by_id_or_name_and_the_rest_is_the_title():
    query = parse_query("agent:claude  Fix Tests")
    assert query == SessionQuery("fix tests", "claude")
    assert query.agents(NAMES) == {"claude", "my-2"}  # "Claude (work)" starts with it too
    assert parse_query("AGENT:Demo").agents(NAMES) == {"demo"}
    assert parse_query("agent:zzz x").agents(NAMES) == set()  # names none: no chat matches
    assert parse_query("fix agent:co").agents(NAMES) == {"codex"}  # anywhere in the query


def test_no_agent_word_or_an_empty_one_keeps_every_agent():
    assert parse_query("tests").agents(NAMES) is None
    assert parse_query("agent: tests") == SessionQuery("tests", None)  # still typing its name
    assert parse_query("") == SessionQuery("", None)
