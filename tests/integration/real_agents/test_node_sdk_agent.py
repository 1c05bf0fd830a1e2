"""ClawQt's client side against an independent ACP implementation: the agent in tests/agents/node_agent,
written on the npm package `@agentclientprotocol/sdk` 2.4.0 and run with the machine's Node.

Everything goes through ChatService (the host API the renderer uses). The SDK is installed once into
`<repo>/.cache/node-acp-agent/` by a session fixture (tests/node_support.py); when Node/npm is missing
or the install fails, every test here FAILS with instructions instead of skipping.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.node_support import NodeAgent, NodeAgentSetupError, ensure_node_agent
from tests.real_agents_support import installed_or_fail

pytestmark = pytest.mark.node

log = logging.getLogger(__name__)

AGENT_NAME = "node-sdk-test-agent"


@pytest.fixture(scope="session")
def node_agent() -> NodeAgent:
    """The installed Node test agent (installed on first use, then reused from .cache/)."""
    agent = installed_or_fail("Node ACP SDK test agent", ensure_node_agent, NodeAgentSetupError)
    log.info(
        "node agent %s (node %s): %s in %.3f s",
        agent.argv,
        agent.node_version,
        "installed" if agent.installed_now else "cached",
        agent.setup_seconds,
    )
    return agent


@pytest.fixture
def node_service(make_service, node_agent):
    """A ChatService running the Node agent, and its envelope log."""
    return make_service(node_agent.argv)


def _tool_updates(envelopes, tool_call_id: str) -> list[dict]:
    found = []
    for envelope in envelopes.of_kind("session_update"):
        update = envelope.notification["update"]
        if update.get("toolCallId") == tool_call_id:
            found.append(update)
    return found


async def test_initialize_reports_the_node_agent(node_service):
    service, envelopes = node_service
    info = await service.start()
    assert info.name == AGENT_NAME
    assert info.version == "0.1.0"
    assert info.protocol_version == 1
    assert not info.supports("loadSession")
    assert envelopes.of_kind("agent_state")[-1].state == "ready"


async def test_new_session_returns_a_fresh_key(node_service):
    service, _ = node_service
    first = await service.new_session()
    second = await service.new_session()
    assert first.created and second.created
    assert first.session_key.startswith("node-")
    assert second.session_key.startswith("node-")
    assert first.session_key != second.session_key
    assert service.active_session_key == second.session_key
    assert second.generation > first.generation


async def test_prompt_streams_the_reply_in_pieces(node_service):
    service, envelopes = node_service
    session = await service.new_session()
    result = await service.prompt(session.session_key, "hello from clawqt")
    assert result.stop_reason == "end_turn"
    assert result.session_key == session.session_key
    assert envelopes.text(session.session_key) == "node says: hello from clawqt"
    chunks = envelopes.updates("agent_message_chunk")
    assert len(chunks) > 1
    assert all(not e.historical and e.generation == session.generation for e in chunks)
    assert all(e.notification["sessionId"] == session.session_key for e in chunks)
    settled = envelopes.of_kind("prompt_settled")
    assert [(e.stop_reason, e.error) for e in settled] == [("end_turn", None)]
    assert settled[0].client_message_id == result.client_message_id


async def test_second_prompt_in_the_same_session(node_service):
    service, envelopes = node_service
    session = await service.new_session()
    await service.prompt(session.session_key, "one")
    result = await service.prompt(session.session_key, "two")
    assert result.stop_reason == "end_turn"
    assert envelopes.text(session.session_key) == "node says: onenode says: two"


@pytest.mark.parametrize(
    ("option_id", "word", "status"),
    [("allow_once", "allowed", "completed"), ("reject_once", "rejected", "failed")],
    ids=["allow", "deny"],
)
async def test_permission_answer_reaches_the_agent(node_service, option_id, word, status):
    service, envelopes = node_service
    session = await service.new_session()
    turn = asyncio.create_task(service.prompt(session.session_key, "permission"))
    requests = await envelopes.wait_for(lambda log: log.of_kind("permission_request"))
    request = requests[0]
    assert request.session_key == session.session_key
    assert request.generation == session.generation
    assert {o["optionId"] for o in request.options} == {"allow_once", "reject_once"}
    assert {o["kind"] for o in request.options} == {"allow_once", "reject_once"}
    tool_call_id = request.tool_call["toolCallId"]
    assert request.tool_call.get("kind") == "execute"
    # the tool_call card arrived (in order) before the request
    first = _tool_updates(envelopes, tool_call_id)[0]
    assert first["sessionUpdate"] == "tool_call"
    assert (first["kind"], first["status"]) == ("execute", "pending")
    assert not turn.done()
    assert service.pending_permissions == 1

    assert service.answer_permission(request.request_id, option_id) is True
    assert service.answer_permission(request.request_id, option_id) is False  # answered once only
    result = await asyncio.wait_for(turn, 10)

    assert result.stop_reason == "end_turn"
    assert envelopes.text(session.session_key) == word
    updates = _tool_updates(envelopes, tool_call_id)
    assert updates[-1]["sessionUpdate"] == "tool_call_update"
    assert updates[-1]["status"] == status
    resolved = envelopes.of_kind("permission_resolved")
    assert [(e.request_id, e.outcome, e.option_id, e.reason) for e in resolved] == [
        (request.request_id, "selected", option_id, "answered")
    ]
    assert envelopes.of_kind("tool_calls_cancelled") == []
    assert service.pending_permissions == 0


async def test_a_question_the_official_sdk_asks_is_answered_with_typed_values(node_service):
    """`elicitation/create` as the TypeScript SDK builds it (its own schema types): the form is drawn
    from it and the checked answer reaches the agent."""
    service, envelopes = node_service
    session = await service.new_session()
    turn = asyncio.create_task(service.prompt(session.session_key, "question"))
    asked = (await envelopes.wait_for(lambda log: log.of_kind("question_asked")))[0]
    assert [(f.name, f.kind, f.required) for f in asked.form.fields] == [
        ("colour", "choice", True), ("count", "integer", False), ("loud", "boolean", False),
    ]  # fmt: skip
    assert asked.form.description == "Pick a colour for the build badge"
    assert service.answer_question(asked.request_id, "accept", {"count": "2"}) == {
        "colour": "This is needed."
    }
    answer = {"colour": "blue", "count": "2", "loud": True}
    assert service.answer_question(asked.request_id, "accept", answer) == {}
    assert (await asyncio.wait_for(turn, 10)).stop_reason == "end_turn"
    said = envelopes.text(session.session_key)
    assert said == 'answer: {"action":"accept","content":{"colour":"blue","count":2,"loud":true}}'


async def test_cancel_while_permission_is_pending(node_service):
    service, envelopes = node_service
    session = await service.new_session()
    turn = asyncio.create_task(service.prompt(session.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    assert await service.cancel(session.session_key) is True
    result = await asyncio.wait_for(turn, 10)

    assert result.stop_reason == "cancelled"
    assert envelopes.text(session.session_key) == "cancelled"
    resolved = envelopes.of_kind("permission_resolved")
    assert [(e.request_id, e.outcome, e.reason) for e in resolved] == [
        (request.request_id, "cancelled", "cancelled")
    ]
    tool_call_id = request.tool_call["toolCallId"]
    assert _tool_updates(envelopes, tool_call_id)[-1]["status"] == "failed"
    assert service.answer_permission(request.request_id, "allow_once") is False


async def test_cancel_mid_stream_keeps_the_partial_text(node_service):
    service, envelopes = node_service
    session = await service.new_session()
    key = session.session_key
    turn = asyncio.create_task(service.prompt(key, "go slow please"))
    await envelopes.wait_for(lambda log: log.text(key).count("tick ") >= 3)
    assert not turn.done()

    assert await service.cancel(key) is True
    result = await asyncio.wait_for(turn, 30)
    # not cancelled, it would have streamed on for 10 s and ended its turn
    assert result.stop_reason == "cancelled"
    partial = envelopes.text(key)
    assert partial.startswith("tick 0 tick 1 tick 2 ")
    ticks = partial.count("tick ")
    assert 3 <= ticks < 100
    settled = envelopes.of_kind("prompt_settled")
    assert [(e.stop_reason, e.error) for e in settled] == [("cancelled", None)]
    assert not service.is_live(key)

    # nothing more streams in after the turn settled, and the session still works
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert envelopes.text(key) == partial
    again = await service.prompt(key, "after cancel")
    assert again.stop_reason == "end_turn"
    assert envelopes.text(key) == partial + "node says: after cancel"


async def test_cancel_without_a_live_turn_is_refused(node_service):
    service, _ = node_service
    session = await service.new_session()
    assert await service.cancel(session.session_key) is False
