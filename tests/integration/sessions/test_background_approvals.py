"""The chat service with the scripted agent: a permission asked by a turn that keeps running in a chat
the user left waits for the user (seed 003's routing rule) instead of being answered `cancelled`."""

from __future__ import annotations

import asyncio

from tests.conftest import scripted_agent_argv


async def test_a_permission_asked_after_switching_away_waits_and_its_answer_reaches_the_agent(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    first = await service.new_session()
    running = asyncio.create_task(service.prompt(first.session_key, "permission-later 0.5"))
    await envelopes.wait_for(lambda log: log.text(first.session_key))
    second = await service.new_session()  # the user is in another chat when the agent asks
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    assert request.session_key == first.session_key and service.active_session_key == second.session_key
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not running.done() and not envelopes.of_kind("permission_resolved")  # it waits
    assert service.pending_permissions == 1
    shown = await service.activate_session(first.session_key)  # back: the same turn, no reload
    assert shown.resumed_live and service.pending_permissions == 1
    assert service.answer_permission(request.request_id, "allow")
    result = await running
    assert result.stop_reason == "end_turn" and "outcome: allow" in envelopes.text(first.session_key)
    assert envelopes.of_kind("permission_resolved")[-1].reason == "answered"


async def test_a_waiting_permission_is_answered_from_another_chat_too(make_service):
    """Answering needs no switch: the request is the live prompt's, whichever chat is shown."""
    service, envelopes = make_service(scripted_agent_argv())
    first = await service.new_session()
    running = asyncio.create_task(service.prompt(first.session_key, "permission"))
    request = (await envelopes.wait_for(lambda log: log.of_kind("permission_request")))[0]
    await service.new_session()
    assert service.pending_permissions == 1  # the switch cancelled nothing
    assert service.answer_permission(request.request_id, "deny")
    await running
    assert "outcome: deny" in envelopes.text(first.session_key)
