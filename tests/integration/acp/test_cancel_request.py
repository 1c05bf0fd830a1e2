"""`$/cancel_request` both ways, with the scripted agent as a real subprocess: a permission request the
agent withdraws while the user has not answered is answered -32800 and its card ends (not left waiting);
a request ClawQt gives up on (its deadline passed) is cancelled on the agent's side."""

from __future__ import annotations

import json

import pytest

from app.contract.errors import AgentTimedOut
from tests.conftest import scripted_agent_argv


async def test_a_permission_the_agent_withdraws_is_answered_cancelled_and_its_card_ends(
    make_service, tmp_path
):
    service, envelopes = make_service(scripted_agent_argv(), cwd=str(tmp_path))
    key = (await service.new_session()).session_key
    result = await service.prompt(key, "permission-withdrawn")
    assert result.stop_reason == "end_turn"
    assert "withdrawn: -32800 Request cancelled" in envelopes.text(key)
    [asked] = envelopes.of_kind("permission_request")
    [ended] = envelopes.of_kind("permission_resolved")
    assert ended.request_id == asked.request_id and ended.outcome == "cancelled"
    assert ended.reason == "agent-withdrew"
    assert not service.answer_permission(asked.request_id, "allow")  # nothing left to answer


async def test_a_request_clawqt_gives_up_on_is_cancelled_on_the_agents_side(make_service, tmp_path):
    service, envelopes = make_service(scripted_agent_argv(), cwd=str(tmp_path))
    key = (await service.new_session()).session_key
    service.connection.deadlines["_test/hang"] = 0.3
    with pytest.raises(AgentTimedOut):
        await service.connection.request("_test/hang", {})
    before = len(envelopes.text(key))
    await service.prompt(key, "cancelled-requests")
    report = json.loads(envelopes.text(key)[before:])
    assert len(report["cancelled"]) == 1 and isinstance(report["cancelled"][0], int)
