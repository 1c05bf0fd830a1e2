"""The protocol doctor on the real OpenClaw (`openclaw acp` against the suite's gateway and its fake
model): the check's three steps pass with their times, and its report is what OpenClaw's `initialize`
said on the wire."""

from __future__ import annotations

import pytest

from app.main.agents.profiles import AgentProfile
from tests.e2e.gateway import Gateway
from tests.integration.doctor.test_doctor_check import _doctor_on_the_wire, _hub, _initialize_answer

pytestmark = pytest.mark.e2e


async def test_openclaw_is_checked_step_by_step_and_reported_as_it_said(openclaw: Gateway, tmp_path):
    hub = _hub(tmp_path, AgentProfile("openclaw", "OpenClaw", openclaw.agent_argv(), "config", "test"))
    doctor, wire = _doctor_on_the_wire(hub)
    report = await doctor.check("openclaw", True, lambda step: None)
    assert [(s.name, s.ok) for s in report.steps] == [
        ("Start and initialize", True),
        ("A new chat", True),
        ("A short message", True),
    ], report.steps
    assert report.steps[0].words.startswith(
        report.offered["agentInfo"].get("title") or report.offered["agentInfo"]["name"]
    )
    answer = _initialize_answer(wire)
    assert report.offered["agentCapabilities"] == answer["agentCapabilities"]
    assert report.offered["protocolVersion"] == answer["protocolVersion"]
    found = {f.feature: f.on for f in report.findings}
    assert found["Opening old chats"] == bool(answer["agentCapabilities"].get("loadSession"))
    prompts = answer["agentCapabilities"].get("promptCapabilities") or {}
    assert found["Pictures in a message"] == bool(prompts.get("image"))
    await hub.shutdown()
