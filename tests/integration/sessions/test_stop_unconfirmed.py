"""Stop on an agent that ignores `session/cancel` (the scripted agent's `ignore-cancel`, a real
subprocess): after the grace ClawQt ends the turn itself, marked unconfirmed; the chat takes the next
prompt; the agent's late words and late answer are absorbed, shown nowhere and settled once."""

from __future__ import annotations

import asyncio
import time

from tests.agents.stop_prompts import LATE_WORDS
from tests.conftest import scripted_agent_argv

GRACE_S = 0.5


async def test_stop_ignored_by_the_agent_ends_the_turn_after_the_grace_and_absorbs_the_late_answer(
    make_service,
):
    service, envelopes = make_service(scripted_agent_argv())
    service.io.stop_grace.grace_s = GRACE_S
    session = await service.new_session()
    key = session.session_key
    running = asyncio.create_task(service.prompt(key, "ignore-cancel 3"))
    await envelopes.wait_for(lambda log: "working on it" in log.text())
    stopped_at = time.monotonic()
    assert await service.cancel(key)
    result = await asyncio.wait_for(running, 5)
    waited = time.monotonic() - stopped_at
    assert result.stop_reason == "cancelled" and GRACE_S - 0.05 <= waited < 3  # before the agent
    [settled] = envelopes.of_kind("prompt_settled")
    assert (settled.stop_reason, settled.stopped, settled.unconfirmed) == ("cancelled", True, True)
    assert not service.is_live(key)

    answered = await service.prompt(key, "hello")  # the chat goes on, with the agent still busy
    assert answered.stop_reason == "end_turn"
    await envelopes.wait_for(
        lambda log: any(i.code == "prompt-late-answer" for i in log.of_kind("diagnostic")), 10
    )
    assert LATE_WORDS not in envelopes.text()  # its late update was dropped
    settles = [e.client_message_id for e in envelopes.of_kind("prompt_settled")]
    assert len(settles) == len(set(settles)) == 2  # each turn settled once


async def test_an_agent_that_confirms_stop_in_time_ends_as_it_said(make_service):
    service, envelopes = make_service(scripted_agent_argv())
    service.io.stop_grace.grace_s = 3.0
    session = await service.new_session()
    running = asyncio.create_task(service.prompt(session.session_key, "slow"))
    await envelopes.wait_for(lambda log: "tick 1" in log.text())
    assert await service.cancel(session.session_key)
    assert (await asyncio.wait_for(running, 5)).stop_reason == "cancelled"
    [settled] = envelopes.of_kind("prompt_settled")
    assert settled.unconfirmed is False
