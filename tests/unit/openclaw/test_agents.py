"""OpenClaw's own agents as targets of a new chat: the Gateway's `agents.list` read into what the picker
offers (the default first, system agents and ids not of OpenClaw's form left out, hidden characters in
names written out), and the session key a new chat proposes for one of them."""

from __future__ import annotations

import pytest

from app.contract.agents import AgentTarget, target_of
from app.contract.errors import HostError
from app.main.openclaw.agents import MAX_TARGETS, new_session_key, parse_agents, service_targets


def test_the_default_agent_comes_first_then_by_name_system_agents_and_odd_ids_left_out():
    payload = {
        "defaultId": "main",
        "mainKey": "main",
        "scope": "per-sender",
        "agents": [
            {"id": "work", "identity": {"name": "Work", "emoji": "🛠"}},
            {"id": "main"},
            {"id": "audit", "name": "Auditor", "kind": "system"},
            {"id": "Bad Id"},
            {"id": "../etc"},
            {"id": "alpha", "name": "Alpha\u202eevil"},
            "not an entry",
        ],
    }
    assert parse_agents(payload) == [
        AgentTarget("main", "main", "", True),
        AgentTarget("alpha", "Alpha<U+202E>evil", "", False),
        AgentTarget("work", "Work", "🛠", False),
    ]


@pytest.mark.parametrize("payload", [None, [], {"agents": "x"}, {"agents": [{"id": 3}]}, {}])
def test_anything_odd_from_the_gateway_offers_no_agent(payload):
    assert parse_agents(payload) == []


def test_at_most_64_agents_are_offered():
    payload = {"defaultId": "a0", "agents": [{"id": f"a{n}"} for n in range(500)]}
    assert len(parse_agents(payload)) == MAX_TARGETS


def test_a_new_chat_names_its_agent_in_the_key_and_a_target_not_of_openclaws_form_is_refused():
    assert new_session_key().startswith("agent:main:clawqt-")
    key = new_session_key("work-2")
    assert key.startswith("agent:work-2:clawqt-") and target_of(key) == "work-2"
    for bad in ("Work", "a:b", "../x", "x" * 65, " main"):
        with pytest.raises(HostError):
            new_session_key(bad)
    assert target_of("3f1c-uuid") == "" and target_of("agent:main:cron:x") == "main"


async def test_an_agent_that_is_not_openclaw_has_no_agents_behind_it():
    class Service:
        transcripts = None

    assert await service_targets(Service()) == []

    class Reader:
        async def call(self, method, params):
            assert (method, params) == ("agents.list", {})
            return {"defaultId": "main", "agents": [{"id": "main"}, {"id": "work"}]}

    class Supplements:
        reader = Reader()

    class OpenClaw:
        transcripts = Supplements()

    assert [t.target_id for t in await service_targets(OpenClaw())] == ["main", "work"]
