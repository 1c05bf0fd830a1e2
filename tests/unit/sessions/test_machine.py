"""The session state machine alone (no agent, no I/O): every rule about sessions, told message by
message, as the chat service and `clawqt replay` both tell it."""

from __future__ import annotations

from app.main.replay.feed import TraceIgnored, feed_trace
from app.main.sessions.machine import SessionMachine
from app.main.sessions.routing import REPLAY_CHUNK


def _new(machine: SessionMachine, token: int, acp_id: str, key: str | None = None, **result) -> object:
    params = {"cwd": "/w", "mcpServers": []}
    if key:
        params["_meta"] = {"sessionKey": key}
    machine.on_send({"id": token, "method": "session/new", "params": params})
    return machine.on_recv({"id": token, "result": {"sessionId": acp_id, **result}}).committed


def _prompt(machine: SessionMachine, token: int, acp_id: str, message_id: str, now: float = 0.0):
    params = {
        "sessionId": acp_id,
        "prompt": [{"type": "text", "text": "hi"}],
        "_meta": {"messageId": message_id},
    }
    return machine.on_send({"id": token, "method": "session/prompt", "params": params}, now)


def _update(acp_id: str, kind: str = "agent_message_chunk", **fields) -> dict:
    update = {"sessionUpdate": kind, "content": {"type": "text", "text": "x"}, **fields}
    return {"method": "session/update", "params": {"sessionId": acp_id, "update": update}}


def _permission(token: int, acp_id: str) -> dict:
    options = [{"optionId": "yes", "name": "Yes", "kind": "allow_once"}]
    params = {"sessionId": acp_id, "toolCall": {"toolCallId": "t"}, "options": options}
    return {"id": token, "method": "session/request_permission", "params": params}


def test_each_load_issues_a_new_generation_and_a_failed_one_commits_nothing():
    machine = SessionMachine()
    first = _new(machine, 1, "acp-a")
    assert (first.session_key, first.generation, first.created) == ("acp-a", 1, True)
    machine.on_send({"id": 2, "method": "session/load", "params": {"sessionId": "acp-b", "cwd": "/w"}})
    step = machine.on_recv({"id": 2, "error": {"code": -1, "message": "no such session"}})
    assert step.committed is None and machine.loading is None
    assert machine.active.key == "acp-a" and machine.active.generation == 1  # untouched
    assert _new(machine, 3, "acp-c").generation == 3  # generation 2 was burnt by the failed load


def test_the_session_key_comes_from_the_answer_then_the_request_then_the_acp_id():
    machine = SessionMachine()
    assert _new(machine, 1, "acp-1", key="proposed").session_key == "proposed"
    answered = _new(machine, 2, "acp-2", key="proposed-2", _meta={"sessionKey": "agent:main:x"})
    assert answered.session_key == "agent:main:x" and machine.acp_ids["agent:main:x"] == "acp-2"
    assert _new(machine, 3, "acp-3").session_key == "acp-3"


def test_a_load_hands_over_its_updates_and_counts_other_sessions_ones():
    machine = SessionMachine()
    machine.on_send({"id": 1, "method": "session/load", "params": {"sessionId": "s", "cwd": "/w"}})
    assert machine.on_recv(_update("s")).envelopes == []  # buffered until the answer
    machine.on_recv(_update("s"))
    step = machine.on_recv({"id": 1, "result": {}})
    assert [e.historical for e in step.committed.updates] == [True, True]
    assert step.committed.updates[0].notification["sessionId"] == "s"


def test_a_long_replay_goes_on_ahead_in_chunks_and_never_more_than_one_chunk_is_held():
    """A 2,000-turn history is ~40,000 updates: held decoded until the answer they cost the load's peak
    memory several times what the timeline keeps; sent on every REPLAY_CHUNK they are freed as they go."""
    machine = SessionMachine()
    machine.on_send({"id": 1, "method": "session/load", "params": {"sessionId": "s", "cwd": "/w"}})
    chunks = []
    for n in range(2 * REPLAY_CHUNK + 5):
        update = _update("s")
        update["params"]["update"]["content"]["text"] = str(n)
        chunks.extend(machine.on_recv(update).envelopes)
        assert len(machine.loading.buffer) < REPLAY_CHUNK
    step = machine.on_recv({"id": 1, "result": {}})
    assert [c.kind for c in chunks] == ["replay", "replay"]
    assert all(c.session_key == "s" and c.generation == step.committed.generation for c in chunks)
    texts = [e.notification["update"]["content"]["text"] for c in chunks for e in c.updates]
    texts += [e.notification["update"]["content"]["text"] for e in step.committed.updates]
    assert texts == [str(n) for n in range(2 * REPLAY_CHUNK + 5)]  # nothing lost, nothing reordered
    assert step.committed.replayed == 2 * REPLAY_CHUNK and step.committed.has_history
    assert all(e.historical for c in chunks for e in c.updates)


def test_a_new_sessions_updates_before_its_answer_stay_with_the_result():
    """Before `session/new` is answered its ACP id is unknown: what arrives is kept for the result, which
    decides which of it is the session's."""
    machine = SessionMachine()
    machine.on_send({"id": 1, "method": "session/new", "params": {"cwd": "/w", "mcpServers": []}})
    for _ in range(REPLAY_CHUNK + 1):
        assert machine.on_recv(_update("acp-new")).envelopes == []
    result = machine.on_recv({"id": 1, "result": {"sessionId": "acp-new"}}).committed
    assert len(result.updates) == REPLAY_CHUNK + 1 and result.replayed == 0


def test_updates_of_a_session_not_shown_and_not_live_are_ignored():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    step = machine.on_recv(_update("someone-else"))
    assert step.envelopes == [] and [i.code for i in step.ignored] == ["update-dropped"]
    assert [i.code for i in machine.on_recv({"method": "session/update", "params": 3}).ignored] == [
        "update-malformed"
    ]


def test_a_prompt_is_live_until_its_answer_and_keeps_its_updates_after_a_switch():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    sent = _prompt(machine, 2, "acp-a", "user:m1", now=10.0)
    assert [(e.kind, e.client_message_id) for e in sent.envelopes] == [("prompt_sent", "user:m1")]
    _new(machine, 3, "acp-b")  # the user opens another chat mid-turn
    routed = machine.on_recv(_update("acp-a")).envelopes[0]
    assert (routed.session_key, routed.generation, routed.historical) == ("acp-a", 1, False)
    settled = machine.on_recv({"id": 2, "result": {"stopReason": "end_turn"}}, now=12.5).envelopes
    assert [(e.kind, e.stop_reason, e.elapsed_s) for e in settled] == [("prompt_settled", "end_turn", 2.5)]
    assert not machine.live


def test_showing_a_live_session_again_keeps_its_generation():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    _new(machine, 3, "acp-b")
    result, _ = machine.show_live("acp-a")
    assert (result.session_key, result.generation, result.resumed_live) == ("acp-a", 1, True)
    assert machine.show_live("acp-b") is None  # not live: that one needs a load


def test_permissions_that_match_no_live_prompt_are_refused():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    assert machine.on_recv(_permission(10, "acp-a")).refusal == "no-live-prompt"
    machine.on_send({"id": 3, "method": "session/load", "params": {"sessionId": "acp-b", "cwd": "/w"}})
    assert machine.on_recv(_permission(11, "acp-b")).refusal == "load-running"  # nobody could see it
    machine.on_recv({"id": 3, "result": {}})
    assert machine.on_recv(_permission(12, "acp-b")).refusal == "no-live-prompt"
    assert machine.on_recv(_permission(13, "nobody")).refusal == "no-live-prompt"


def test_a_live_prompt_s_permission_waits_while_another_session_is_shown():
    """Seed 003's routing rule: a request of a retained live prompt is accepted whichever session is
    shown; it used to be answered `cancelled` at once ("session-not-active")."""
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    machine.on_send({"id": 3, "method": "session/new", "params": {"cwd": "/w"}})
    during_load = machine.on_recv(_permission(11, "acp-a"))  # the user is opening another chat
    machine.on_recv({"id": 3, "result": {"sessionId": "acp-b"}})
    asked = machine.on_recv(_permission(12, "acp-a"))  # and is in it now
    for step in (during_load, asked):
        assert step.refusal is None and step.answers == []
        assert [(e.kind, e.session_key, e.generation) for e in step.envelopes] == [
            ("permission_request", "acp-a", 1)
        ]
    assert len(machine.permissions) == 2
    assert machine.answer_permission("rpc-12", "yes").answers == [(12, "yes")]  # answered from afar too


def test_switching_sessions_cancels_no_permission_a_live_prompt_asked():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    machine.on_recv(_permission(5, "acp-a"))  # asked while shown
    switched = machine.on_send({"id": 3, "method": "session/new", "params": {"cwd": "/w"}})
    assert switched.answers == [] and switched.envelopes == []
    machine.on_recv({"id": 3, "result": {"sessionId": "acp-b"}})
    _, back = machine.show_live("acp-a")
    assert back.answers == [] and back.envelopes == [] and len(machine.permissions) == 1
    step = machine.answer_permission("rpc-5", "yes")
    assert step.answers == [(5, "yes")] and step.envelopes[0].reason == "answered"


def test_a_waiting_permission_ends_with_its_prompt():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    _new(machine, 3, "acp-b")
    machine.on_recv(_permission(5, "acp-a"))
    settled = machine.on_recv({"id": 2, "error": {"code": -1, "message": "boom"}})
    assert settled.answers == [(5, None)]
    first = settled.envelopes[0]
    assert (first.kind, first.reason) == ("permission_resolved", "prompt-settled")
    assert len(machine.permissions) == 0


def test_closing_a_chat_not_shown_cancels_the_permission_waiting_in_it():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    _new(machine, 3, "acp-b")
    machine.on_recv(_permission(5, "acp-a"))
    machine.on_send({"id": 4, "method": "session/close", "params": {"sessionId": "acp-a"}})
    closed = machine.on_recv({"id": 4, "result": {}})
    assert closed.answers == [(5, None)] and closed.envelopes[0].reason == "session-closed"
    assert machine.active.key == "acp-b"


def test_an_answer_must_be_one_of_the_options_and_counts_once():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    machine.on_recv(_permission(7, "acp-a"))
    assert machine.answer_permission("rpc-7", "maybe").answers == []
    step = machine.answer_permission("rpc-7", "yes")
    assert step.answers == [(7, "yes")] and step.envelopes[0].reason == "answered"
    assert machine.answer_permission("rpc-7", "yes").answers == []


def test_cancel_answers_pending_permissions_and_the_cancelled_turn_marks_open_tools():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    machine.on_recv(_update("acp-a", "tool_call", toolCallId="t1", status="in_progress"))
    machine.on_recv(_permission(5, "acp-a"))
    cancelled = machine.on_send({"method": "session/cancel", "params": {"sessionId": "acp-a"}})
    assert cancelled.answers == [(5, None)] and cancelled.envelopes[0].reason == "cancelled"
    # the client's own wire answer to that request is expected, not an error
    assert machine.on_send({"id": 5, "result": {"outcome": {"outcome": "cancelled"}}}).ignored == []
    settled = machine.on_recv({"id": 2, "result": {"stopReason": "cancelled"}}).envelopes
    assert [e.kind for e in settled] == ["tool_calls_cancelled", "prompt_settled"]
    assert settled[0].tool_call_ids == ("t1",)


def test_the_agent_exiting_ends_its_sessions_and_cancels_what_waits():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    _prompt(machine, 2, "acp-a", "user:m1")
    machine.on_recv(_update("acp-a", "tool_call", toolCallId="t1", status="pending"))
    machine.on_recv(_permission(3, "acp-a"))
    step = machine.agent_exited()
    assert [e.kind for e in step.envelopes] == ["permission_resolved", "tool_calls_cancelled"]
    assert machine.active is None and machine.last_active_key == "acp-a" and not machine.acp_ids


def test_closing_the_shown_session_leaves_none_shown():
    machine = SessionMachine()
    _new(machine, 1, "acp-a")
    machine.on_send({"id": 2, "method": "session/close", "params": {"sessionId": "acp-a"}})
    machine.on_recv({"id": 2, "result": {}})
    assert machine.active is None and "acp-a" not in machine.acp_ids


def test_replay_applies_the_same_permission_rule_as_the_live_app():
    """A permission asked by a background turn waits in the live app: the replayed timeline shows it
    asked and then answered as the trace answered it; a request no live prompt owns is refused in both."""
    messages = [
        ("send", {"id": 1, "method": "session/new", "params": {"cwd": "/w"}}),
        ("recv", {"id": 1, "result": {"sessionId": "acp-a"}}),
        ("send", _prompt_message(2, "acp-a")),
        ("send", {"id": 3, "method": "session/new", "params": {"cwd": "/w"}}),
        ("recv", {"id": 3, "result": {"sessionId": "acp-b"}}),
        ("recv", _permission(9, "acp-a")),
        ("send", {"id": 9, "result": {"outcome": {"outcome": "selected", "optionId": "yes"}}}),
        ("recv", _permission(10, "acp-b")),
        ("send", {"id": 10, "result": {"outcome": {"outcome": "cancelled"}}}),
    ]
    outputs = list(feed_trace({"t": 0, "dir": d, "msg": m} for d, m in messages))
    asked = [o for o in outputs if getattr(o, "kind", "") in ("permission_request", "permission_resolved")]
    assert [(o.kind, o.session_key) for o in asked] == [
        ("permission_request", "acp-a"),
        ("permission_resolved", "acp-a"),
    ]
    assert asked[1].option_id == "yes"
    assert [o for o in outputs if isinstance(o, TraceIgnored)] == [
        TraceIgnored("acp-b"),  # acp-b's request: no live prompt, refused
        TraceIgnored("acp-b"),  # and its answer, to a request nobody was asked
    ]


def _prompt_message(token: int, acp_id: str) -> dict:
    params = {"sessionId": acp_id, "prompt": [{"type": "text", "text": "hi"}]}
    return {"id": token, "method": "session/prompt", "params": params}
