"""The gateway dies mid-turn: ClawQt shows OpenClaw's interruption, stays usable, and once the gateway
is back restarts OpenClaw's bridge by itself (the old one would keep answering "Gateway not connected"
for tens of seconds), so the next action works."""

from __future__ import annotations

import asyncio

import pytest

from app.contract.errors import HostError
from app.renderer.timeline.pipeline import HeadlessPipeline

pytestmark = [pytest.mark.e2e, pytest.mark.restarts_the_gateway]


async def test_gateway_killed_mid_turn_then_recovery(make_service, openclaw, gate):
    service, envelopes = make_service(openclaw.agent_argv(gate.url))
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "please be slow"))
    await envelopes.wait_for(lambda log: "slow-2" in log.text(), timeout=30)
    openclaw.kill_now()
    gate.shut()  # refused from now on, as a dead gateway is
    restarting = asyncio.create_task(asyncio.to_thread(openclaw.restart))  # behind the shut gate
    outcome: object
    try:
        outcome = await asyncio.wait_for(running, 60)
    except HostError as exc:
        outcome = exc
    await restarting
    text = envelopes.text(timeline.session_key)
    states = [e.state for e in envelopes.of_kind("agent_state")]
    assert "[OpenClaw interruption]" in text, (outcome, text[-300:], states)
    assert isinstance(outcome, HostError)  # the prompt settles with the disconnect, the app stays up
    assert "slow-0" in text  # the partial reply stays
    # back where the old bridge's own retry is far off, as in the field after a longer outage
    await asyncio.to_thread(gate.reopen_in_a_long_gap)
    # ClawQt saw the turn fail for the lost gateway, waited for the gateway, found the old bridge still
    # without it, and restarted the bridge by itself
    await envelopes.wait_for(
        lambda log: any(e.phase == "restarted" for e in log.of_kind("agent_recovery")), timeout=60
    )
    phases = [e.phase for e in envelopes.of_kind("agent_recovery")]
    assert phases == ["restarting", "restarted"], phases
    again = await pipeline.new_session()  # at once: no retry loop of the test's own
    result = await pipeline.prompt(again.session_key, "Say hello please after the restart")
    assert result.stop_reason == "end_turn"
    assert "Hello from the fake model." in envelopes.text(again.session_key)
