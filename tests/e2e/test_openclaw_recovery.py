"""The gateway dies mid-turn: ClawQt shows OpenClaw's interruption, stays usable, and recovers once the
gateway is back."""

from __future__ import annotations

import asyncio

import pytest

from app.contract.errors import HostError
from app.renderer.pipeline import HeadlessPipeline

pytestmark = pytest.mark.e2e


async def test_gateway_killed_mid_turn_then_recovery(make_service, openclaw):
    service, envelopes = make_service(openclaw.agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    running = asyncio.create_task(pipeline.prompt(timeline.session_key, "please be slow"))
    await envelopes.wait_for(lambda log: "slow-2" in log.text(), timeout=30)
    openclaw.kill_now()
    outcome: object
    try:
        outcome = await asyncio.wait_for(running, 60)
    except HostError as exc:
        outcome = exc
    text = envelopes.text(timeline.session_key)
    states = [e.state for e in envelopes.of_kind("agent_state")]
    assert "[OpenClaw interruption]" in text, (outcome, text[-300:], states)
    assert isinstance(outcome, HostError)  # the prompt settles with the disconnect, the app stays up
    assert "slow-0" in text  # the partial reply stays
    openclaw.restart()
    await asyncio.sleep(2)
    # usable again: the next action reconnects (a new bridge if the old one died) and a new chat works
    errors = []  # the bridge reconnects by itself within seconds ("gateway not connected" until then)
    for attempt in range(20):
        try:
            again = await pipeline.new_session()
            result = await pipeline.prompt(again.session_key, "Say hello please after the restart")
            break
        except HostError as exc:
            errors.append(f"{attempt}: {exc}")
            if attempt == 19:
                raise AssertionError("\n".join(errors)) from exc
            await asyncio.sleep(2)
    assert result.stop_reason == "end_turn"
    assert "Hello from the fake model." in envelopes.text(again.session_key)
