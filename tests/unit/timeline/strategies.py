"""Hypothesis strategies for timeline inputs: plausible and malformed updates, and renderer actions."""

from __future__ import annotations

from hypothesis import strategies as st

from app.contract.envelopes import (
    PermissionRequestEnvelope,
    PermissionResolvedEnvelope,
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
    ToolCallsCancelledEnvelope,
)

KEY = "k"
GEN = 1

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
texts = st.sampled_from(
    [
        "",
        "hi",
        " there",
        "\n",
        "MEDIA: /tmp/x.png\n",
        "```\n",
        "MEDIA: ./a b\n",
        "Q?",
        "line\nmore",
        "MEDIA: https://e.x/i.png",
    ]
)
content = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, texts),
    st.builds(
        lambda u: {"type": "resource_link", "uri": u, "name": "f"},
        st.sampled_from(["file:///a/b.txt", "https://x.y/z", "/tmp/x.png"]),
    ),
    st.just({"type": "image", "data": "AAAA", "mimeType": "image/png"}),
    st.just({"type": "image", "uri": "file:///p.png", "mimeType": "image/png"}),
    st.just({"type": "resource", "resource": {"text": "x"}}),
    st.just({"type": "audio", "data": "x"}),
    junk,
)
message_ids = st.none() | st.sampled_from(["m1", "m2", "user:opt1", "user:opt2"]) | junk
tool_ids = st.sampled_from(["t1", "t2", "t3"]) | junk
statuses = st.sampled_from(["pending", "in_progress", "completed", "failed", "weird"]) | junk
terminal_meta = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"terminal_info": st.fixed_dictionaries({"terminal_id": st.sampled_from(["T1", "T2"])})}
    ),
    st.fixed_dictionaries(
        {
            "terminal_output": st.fixed_dictionaries(
                {
                    "terminal_id": st.sampled_from(["T1", "T2", "T9"]),
                    "data": st.sampled_from(["ab", "\x1b[31mred\x1b[0m\n"]),
                }
            )
        }
    ),
    st.fixed_dictionaries(
        {
            "terminal_exit": st.fixed_dictionaries(
                {"terminal_id": st.sampled_from(["T1", "T2"]), "exit_code": st.integers(0, 2) | junk}
            )
        }
    ),
    junk,
)


def _update(kind: str, **fields: object) -> dict:
    return {"sessionUpdate": kind, **{k: v for k, v in fields.items() if v is not None}}


updates = st.one_of(
    st.builds(lambda c, m: _update("agent_message_chunk", content=c, messageId=m), content, message_ids),
    st.builds(lambda c, m: _update("user_message_chunk", content=c, messageId=m), content, message_ids),
    st.builds(lambda c, m: _update("agent_thought_chunk", content=c, messageId=m), content, message_ids),
    st.builds(
        lambda i, s, t, meta: _update("tool_call", toolCallId=i, status=s, title=t, _meta=meta),
        tool_ids,
        statuses,
        st.none() | st.text(max_size=5),
        terminal_meta,
    ),
    st.builds(
        lambda i, s, c, meta: _update("tool_call_update", toolCallId=i, status=s, content=c, _meta=meta),
        tool_ids,
        statuses,
        st.none()
        | st.lists(
            st.builds(lambda c: {"type": "content", "content": c}, content)
            | st.just([{"type": "terminal", "terminalId": "T1"}]),
            max_size=2,
        ),
        terminal_meta,
    ),
    st.builds(
        lambda e: _update("plan", entries=e),
        st.lists(
            st.fixed_dictionaries(
                {"content": st.text(max_size=5), "status": st.sampled_from(["pending", "completed"])}
            ),
            max_size=3,
        )
        | junk,
    ),
    st.builds(lambda t: _update("session_info_update", title=t), st.none() | st.text(max_size=5)),
    st.just(_update("usage_update", used=5, size=10)),
    st.builds(
        lambda k: {"sessionUpdate": k, "x": 1}, st.sampled_from(["future_kind", "terminal_update"]) | junk
    ),
    junk,
)


def envelope_for(update: object, historical: bool, session: str = KEY, generation: int = GEN):
    return SessionUpdateEnvelope(session, generation, historical, {"sessionId": session, "update": update})


update_envelopes = st.builds(
    envelope_for,
    updates,
    st.booleans(),
    st.sampled_from([KEY, KEY, KEY, "other"]),
    st.sampled_from([GEN, GEN, GEN, 2]),
)
side_envelopes = st.one_of(
    st.builds(
        lambda r: PermissionRequestEnvelope(
            KEY, GEN, r, {"toolCallId": "t1"}, ({"optionId": "a", "name": "A", "kind": "allow_once"},)
        ),
        st.sampled_from(["r1", "r2"]),
    ),
    st.builds(
        lambda r, o: PermissionResolvedEnvelope(KEY, GEN, r, o, "a" if o == "selected" else None, "x"),
        st.sampled_from(["r1", "r2", "r3"]),
        st.sampled_from(["selected", "cancelled"]),
    ),
    st.builds(
        lambda m, err: PromptSettledEnvelope(KEY, GEN, m, None if err else "end_turn", err, 1.5),
        st.sampled_from(["user:opt1", "user:opt2", "nope"]),
        st.none() | st.just("failed"),
    ),
    st.builds(
        lambda ids: ToolCallsCancelledEnvelope(KEY, GEN, tuple(ids)),
        st.lists(st.sampled_from(["t1", "t2", "t3"]), max_size=2),
    ),
)
envelopes = st.one_of(update_envelopes, update_envelopes, side_envelopes)
optimistic = st.builds(lambda m, t: ("optimistic", m, t), st.sampled_from(["user:opt1", "user:opt2"]), texts)
operations = st.lists(st.one_of(envelopes, envelopes, envelopes, optimistic), max_size=40)
