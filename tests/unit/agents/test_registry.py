"""The ACP registry's catalog as ClawQt reads it (app/main/agents/registry.py): the bundled copy, and
what a registry file may hold that cannot be used - not JSON, no agents, too big, an agent without a
usable id or distribution, one listed twice, too many, overlong fields - said or left out and counted."""

from __future__ import annotations

import json

import pytest

from app.main.agents.registry import MAX_AGENTS, MAX_REGISTRY_BYTES, bundled_registry, parse_registry


def _registry(*agents) -> bytes:
    return json.dumps({"version": "1.0.0", "agents": list(agents)}).encode()


def _npx(agent_id: str, **extra) -> dict:
    npx = {"package": f"@x/{agent_id}@1.0.0", "args": ["--acp"]}
    about = {"id": agent_id, "name": agent_id.title(), "version": "1.0.0", "description": "An agent."}
    return {**about, "distribution": {"npx": npx}, **extra}


def test_the_bundled_copy_lists_the_well_known_agents():
    agents, skipped = parse_registry(bundled_registry().read_bytes())
    assert skipped == 0
    assert {a.id for a in agents} == {"claude-code-acp", "codex-acp", "gemini", "openclaw"}
    [claude] = [a for a in agents if a.id == "claude-code-acp"]
    assert (claude.installs, claude.package) == ("npx", "@zed-industries/claude-agent-acp@0.23.1")


def test_what_cannot_be_used_is_left_out_and_counted():
    targets = {"linux-x86_64": {"archive": "https://x/z.tgz", "cmd": "./z"}, "x": 1}
    binary = {"id": "zeta", "name": "Zeta", "version": "0.9", "distribution": {"binary": targets}}
    uvx = {"id": "beta", "distribution": {"uvx": {"package": "beta-agent==4.5.6"}}}
    bad = [
        {"id": "Not An Id", "distribution": {"npx": {"package": "p"}}},
        {"id": "no-distribution"},
        {"id": "empty-npx", "distribution": {"npx": {"package": ""}}},
        {"id": "unknown-kind", "distribution": {"docker": {"image": "x"}}},
        "not an object",
        _npx("alpha"),  # twice: the second is left out
    ]
    long = _npx("gamma", description="d" * 10_000, name=["not", "a", "name"])
    agents, skipped = parse_registry(_registry(_npx("alpha"), binary, uvx, long, *bad))
    assert sorted(a.id for a in agents) == ["alpha", "beta", "gamma", "zeta"]
    assert skipped == len(bad)
    by_id = {a.id: a for a in agents}
    assert by_id["zeta"].installs == "binary" and by_id["zeta"].platforms == ("linux-x86_64",)
    assert by_id["beta"].name == "beta" and by_id["beta"].package == "beta-agent==4.5.6"
    assert len(by_id["gamma"].description) == 500 and by_id["gamma"].name == "gamma"
    assert by_id["alpha"].args == ("--acp",)


def test_a_file_that_is_not_a_registry_is_refused_in_words():
    for data, words in (
        (b"{not json", "not JSON"),
        (b"[]", "no list of agents"),
        (json.dumps({"agents": {}}).encode(), "no list of agents"),
        (b" " * (MAX_REGISTRY_BYTES + 1), "larger than 4 MB"),
    ):
        with pytest.raises(ValueError, match=words):
            parse_registry(data)


def test_at_most_max_agents_are_read():
    agents, skipped = parse_registry(_registry(*[_npx(f"a{n}") for n in range(MAX_AGENTS + 20)]))
    assert len(agents) == MAX_AGENTS and skipped == 20
