"""ClawQt against the real `openclaw acp` and gateway, through ClawQt's own service and pipeline."""

from __future__ import annotations

import pytest

from tests.e2e.shared_clawqt import SHARED

pytestmark = pytest.mark.e2e


async def test_initialize_shows_starting_then_ready(make_service, openclaw):
    service, envelopes = make_service(openclaw.agent_argv())
    info = await service.start()
    states = [e.state for e in envelopes.of_kind("agent_state")]
    assert states[0] == "starting" and states[-1] == "ready"
    assert info.name == "openclaw-acp" and info.supports("loadSession")
    assert info.supports("sessionCapabilities", "list")


@SHARED
async def test_new_session_has_a_gateway_session_key(clawqt):
    service = clawqt.service
    result = await service.new_session()
    assert result.session_key.startswith("agent:main:clawqt-")
    assert service.machine.acp_ids[result.session_key] != result.session_key  # OpenClaw's own ACP id


@SHARED
async def test_prompt_streams_the_reply_and_the_optimistic_message_stays(clawqt, fake_model):
    envelopes = clawqt.envelopes
    pipeline = clawqt.pipeline()
    timeline = await pipeline.new_session()
    key = timeline.session_key
    result = await pipeline.prompt(key, "Say hello please")
    assert result.stop_reason == "end_turn"
    assert envelopes.text(key) == "Hello from the fake model."
    chunks = [e for e in envelopes.updates("agent_message_chunk") if e.session_key == key]
    assert len(chunks) >= 2  # streamed, not one block
    assert not [e for e in envelopes.updates("user_message_chunk") if e.session_key == key]  # no echo
    user = [i for i in timeline.order if i.startswith("user:")]
    assert len(user) == 1 and timeline.items[user[0]].optimistic  # ...so ours stands for good
    assert any("Say hello please" in str(r.get("messages")) for r in fake_model.requests)
