"""ClawQt against the real `openclaw acp` and gateway, through ClawQt's own service and pipeline."""

from __future__ import annotations

import pytest

from app.renderer.pipeline import HeadlessPipeline

pytestmark = pytest.mark.e2e


async def test_initialize_shows_starting_then_ready(make_service, openclaw):
    service, envelopes = make_service(openclaw.agent_argv())
    info = await service.start()
    states = [e.state for e in envelopes.of_kind("agent_state")]
    assert states[0] == "starting" and states[-1] == "ready"
    assert info.name == "openclaw-acp" and info.supports("loadSession")
    assert info.supports("sessionCapabilities", "list")


async def test_new_session_has_a_gateway_session_key(make_service, openclaw):
    service, _ = make_service(openclaw.agent_argv())
    result = await service.new_session()
    assert result.session_key.startswith("agent:main:clawqt-")
    assert service.machine.acp_ids[result.session_key] != result.session_key  # OpenClaw's own ACP id


async def test_prompt_streams_the_reply_and_the_optimistic_message_stays(make_service, openclaw, fake_model):
    service, envelopes = make_service(openclaw.agent_argv())
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    result = await pipeline.prompt(timeline.session_key, "Say hello please")
    assert result.stop_reason == "end_turn"
    assert envelopes.text(timeline.session_key) == "Hello from the fake model."
    assert len(envelopes.updates("agent_message_chunk")) >= 2  # streamed, not one block
    assert not envelopes.updates("user_message_chunk")  # OpenClaw does not echo live prompts
    user = [i for i in timeline.order if i.startswith("user:")]
    assert len(user) == 1 and timeline.items[user[0]].optimistic  # ...so ours stands for good
    assert any("Say hello please" in str(r.get("messages")) for r in fake_model.requests)
