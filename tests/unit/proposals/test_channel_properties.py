"""Proposal channels under random operation sequences (the invariants hold) and arbitrary bytes (never
a raise, never a proposal)."""

from __future__ import annotations

from typing import get_args

from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.proposals import (
    FinalStatus,
    ValidationStatus,
)
from app.main.proposals.channels import (
    DECISION_SECONDS,
    MAX_TOMBSTONES,
)
from tests.unit.proposals.channel_support import (
    INVALID,
    OPEN_AND_SEND,
    VALID,
    Fixture,
    payload_text,
    request,
)

# --- properties -----------------------------------------------------------------------------------
operations = st.lists(
    st.one_of(
        st.tuples(st.just("issue"), st.sampled_from(["a", "b"]), st.booleans()),
        st.tuples(st.just("arm"), st.booleans()),
        st.tuples(st.just("request"), st.sampled_from(["valid", "other", "invalid", "nosend"])),
        st.tuples(st.just("replay")),
        st.tuples(st.just("claim"), st.integers(0, 5)),
        st.tuples(st.just("finish"), st.integers(0, 5), st.sampled_from(get_args(FinalStatus))),
        st.tuples(
            st.just("lifecycle"),
            st.sampled_from(["supersede", "cancel_turn", "replace_session"]),
            st.sampled_from(["a", "b"]),
        ),
        st.tuples(st.just("unavailable")),
        st.tuples(st.just("wait"), st.sampled_from([1.0, 29.0, 31.0, 200.0, 601.0])),
        st.tuples(st.just("expire")),
    ),
    max_size=60,
)
PAYLOADS = {
    "valid": VALID,
    "other": payload_text(title="other"),
    "invalid": INVALID,
    "nosend": payload_text(OPEN_AND_SEND),
}


@settings(max_examples=400, deadline=None)
@given(operations)
def test_any_sequence_of_operations_keeps_the_invariants(ops):
    f = Fixture()
    channel = None
    last_line = None
    accepted: list[str] = []
    claimed: list[str] = []
    for op in ops:
        kind = op[0]
        if kind == "issue":
            channel = f.issue(op[1], target="term" if op[2] else None)
        elif kind == "arm" and channel:
            f.channels.arm(channel, VALID if op[1] else PAYLOADS["nosend"])
        elif kind in ("request", "replay") and channel:
            line = request(channel, PAYLOADS[op[1]]) if kind == "request" else last_line
            if line is None:
                continue
            last_line = line
            result = f.channels.validate(line)
            assert result.status in get_args(ValidationStatus)
            if result.status == "accepted":
                assert result.proposal_id not in accepted
                accepted.append(result.proposal_id)
        elif kind == "claim" and accepted:
            pid = accepted[op[1] % len(accepted)]
            if f.channels.claim(pid) is not None:
                assert pid not in claimed
                claimed.append(pid)
        elif kind == "finish" and accepted:
            pid = accepted[op[1] % len(accepted)]
            if f.channels.finish(pid, op[2]) and op[2] == "confirmed":
                assert pid in claimed
        elif kind == "lifecycle":
            getattr(f.channels, op[1])(op[2])
        elif kind == "unavailable":
            f.channels.unavailable_all()
        elif kind == "wait":
            f.clock.now += op[1]
        elif kind == "expire":
            f.channels.expire_overdue()
        assert f.channels.tombstone_count() <= MAX_TOMBSTONES
    ended = [pid for pid, _ in f.finals]
    assert len(ended) == len(set(ended))  # each proposal ends at most once
    assert set(ended) <= set(accepted)
    f.clock.now += DECISION_SECONDS
    f.channels.expire_overdue()
    for pid in accepted:
        assert f.channels.state_of(pid) in (*get_args(FinalStatus), "claimed", None)
        assert pid in claimed or f.channels.state_of(pid) != "awaiting"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_raise_and_never_become_a_proposal(line):
    f = Fixture()
    f.armed()
    assert f.channels.validate(line).status != "accepted"
