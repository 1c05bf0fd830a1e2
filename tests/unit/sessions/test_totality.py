"""Property tests: nothing an agent can send makes the pure main-side parts raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.main.agents.stderr_buffer import StderrBuffer
from app.main.sessions.routing import ActiveSession, LivePrompt, LoadTransaction, route_update

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
session_ids = st.sampled_from(["acp-live", "acp-active", "acp-load", "ghost"])
updates = st.fixed_dictionaries(
    {"sessionUpdate": st.sampled_from(["tool_call", "tool_call_update", "agent_message_chunk", "x"])},
    optional={"toolCallId": json_values, "status": json_values, "content": json_values},
)
params = st.one_of(
    json_values,
    st.fixed_dictionaries({"sessionId": session_ids | json_values, "update": updates | json_values}),
)


@settings(max_examples=400, deadline=None)
@given(params, st.booleans())
def test_route_update_never_raises_and_always_decides(value, with_load):
    live = LivePrompt("k-live", "acp-live", 1, "/w", "user:1")
    txn = LoadTransaction("k-load", 3, "acp-load") if with_load else None
    route = route_update(value, {"acp-live": live}, txn, ActiveSession("k-active", "acp-active", 2, "/w"))
    assert route.kind in {"live", "load", "active", "dropped", "malformed"}
    if route.envelope is not None:
        assert route.envelope.notification["sessionId"] in {"k-live", "k-active"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=3000), max_size=20))
def test_stderr_buffer_takes_any_bytes_and_stays_bounded(chunks):
    buffer = StderrBuffer(None, max_lines=5)
    for chunk in chunks:
        buffer.feed(chunk)
    buffer.finish()
    assert buffer.tail(100).count("\n") <= 4
    assert buffer.total_bytes == sum(len(c) for c in chunks)
