"""Routing order, pure: live prompt, then matching load, then active session, then unknown-id load,
else dropped; sessionId rewritten to the key and everything else preserved."""

from __future__ import annotations

from app.main.sessions.routing import ActiveSession, LivePrompt, LoadTransaction, route_update


def _params(session_id: str, kind: str = "agent_message_chunk", **update) -> dict:
    return {"sessionId": session_id, "update": {"sessionUpdate": kind, **update}, "_meta": {"m": 1}}


def test_live_prompt_wins_over_active_session():
    live = LivePrompt("key-a", "acp-a", 3, "/w", "user:1")
    active = ActiveSession("key-b", "acp-a", 5, "/w")
    route = route_update(_params("acp-a"), {"acp-a": live}, None, active)
    assert route.kind == "live"
    assert (route.envelope.session_key, route.envelope.generation, route.envelope.historical) == (
        "key-a",
        3,
        False,
    )


def test_active_session_gets_its_generation_and_historical_flag():
    active = ActiveSession("key-b", "acp-b", 5, "/w", historical=True)
    route = route_update(_params("acp-b"), {}, None, active)
    assert route.kind == "active" and route.envelope.historical and route.envelope.generation == 5
    assert route.envelope.notification == {
        "sessionId": "key-b",
        "update": {"sessionUpdate": "agent_message_chunk"},
        "_meta": {"m": 1},
    }


def test_matching_load_buffers_the_update():
    txn = LoadTransaction("key-c", 7, "acp-c")
    route = route_update(_params("acp-c"), {}, txn, ActiveSession("key-b", "acp-b", 5, "/w"))
    assert route.kind == "load" and route.envelope is None and len(txn.buffer) == 1


def test_new_session_load_with_unknown_id_does_not_steal_active_updates():
    txn = LoadTransaction("key-c", 7, None)
    active = ActiveSession("key-b", "acp-b", 5, "/w")
    assert route_update(_params("acp-b"), {}, txn, active).kind == "active"
    assert route_update(_params("acp-new"), {}, txn, active).kind == "load"
    assert len(txn.buffer) == 1


def test_unknown_session_is_dropped():
    route = route_update(_params("ghost"), {}, None, ActiveSession("k", "acp", 1, "/w"))
    assert route.kind == "dropped" and "ghost" in route.reason


def test_malformed_params_never_raise():
    for params in (
        None,
        42,
        "x",
        [],
        {},
        {"sessionId": 5},
        {"sessionId": "a"},
        {"sessionId": "a", "update": 3},
    ):
        assert route_update(params, {}, None, None).kind == "malformed"


def test_live_prompt_tracks_open_tool_calls():
    live = LivePrompt("k", "acp", 1, "/w", "user:1")
    route_update(_params("acp", "tool_call", toolCallId="t1", status="pending"), {"acp": live}, None, None)
    route_update(_params("acp", "tool_call", toolCallId="t2"), {"acp": live}, None, None)
    route_update(
        _params("acp", "tool_call_update", toolCallId="t1", status="completed"), {"acp": live}, None, None
    )
    route_update(_params("acp", "tool_call_update", toolCallId=None), {"acp": live}, None, None)
    assert live.open_tool_calls == {"t2"}
