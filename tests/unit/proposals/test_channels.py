"""Proposal channels: the seed's check order and statuses, budgets, lease, tombstones, the one-use claim,
the decision deadline and the lifecycle finals, with a moved clock (no sleeping). Every validation and
final status of the seed is reached; random operation sequences keep the invariants."""

from __future__ import annotations

import json
import re
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.contract.proposals import (
    MAX_FRAME_BYTES,
    MAX_PAYLOAD_BYTES,
    FinalStatus,
    ValidationStatus,
    compact_payload,
)
from app.main.proposals.channels import (
    DECISION_SECONDS,
    LEASE_SECONDS,
    MAX_RETRIES,
    MAX_TOMBSTONES,
    TOMBSTONE_SECONDS,
    ProposalChannels,
)
from app.main.proposals.requests import Proposal, Validation, final_wire

SEND = {"type": "send", "input": "make test"}
OPEN_AND_SEND = {"type": "open_and_send", "target": "tab", "input": "make test"}


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def payload_text(*actions: dict[str, Any], title: str = "Run the tests") -> str:
    return compact_payload(
        {
            "schema_version": 1,
            "origin": "terminal_agent",
            "recommended_choice": 1,
            "choices": [{"choice": 1, "title": title, "actions": list(actions) or [SEND]}],
        }
    )


VALID = payload_text()
INVALID = compact_payload({"schema_version": 1, "origin": "terminal_agent", "choices": [], "pane": "%3"})


def request(channel: str, payload: str = VALID, **extra: Any) -> bytes:
    return json.dumps({"version": 1, "channel": channel, "payload": payload, **extra}).encode() + b"\n"


class Fixture:
    """Channels with a moved clock, the finals heard, and a chat whose prompt is current unless told."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.stale: set[tuple[str, int, str]] = set()
        self.channels = ProposalChannels(self.clock, lambda *turn: turn not in self.stale)
        self.finals: list[tuple[str, FinalStatus]] = []
        self.channels.subscribe_final(
            lambda proposal, final: self.finals.append((proposal.proposal_id, final))
        )

    def issue(self, key: str = "chat-a", turn: str = "t1", target: str | None = "term-1") -> str:
        return self.channels.issue(key, 1, turn, target, "bash" if target else "")

    def armed(self, key: str = "chat-a", payload: str = VALID, target: str | None = "term-1") -> str:
        channel = self.issue(key, target=target)
        assert self.channels.arm(channel, payload, key)
        return channel

    def accept(self, key: str = "chat-a", payload: str = VALID) -> Proposal:
        channel = self.armed(key, payload)
        result = self.channels.validate(request(channel, payload))
        assert result.status == "accepted", result
        assert result.proposal is not None
        return result.proposal

    def status(self, line: bytes) -> tuple[ValidationStatus, bool]:
        result = self.channels.validate(line)
        return result.status, result.retryable


@pytest.fixture
def f() -> Fixture:
    return Fixture()


# --- identity -------------------------------------------------------------------------------------
def test_a_channel_is_v1_instance_nonce_in_lowercase_hex_and_new_per_prompt(f):
    channels = {f.issue(turn=f"t{n}") for n in range(20)}
    assert len(channels) == 20
    for channel in channels:
        assert re.fullmatch(rf"v1\.{f.channels.instance}\.[0-9a-f]{{32}}", channel)


def test_the_instance_is_new_per_app_start():
    assert re.fullmatch(r"[0-9a-f]{32}", ProposalChannels().instance)
    assert len({ProposalChannels().instance for _ in range(20)}) == 20


def test_proposal_ids_are_random_128_bit_hex_and_unique(f):
    ids = {f.accept(key=f"chat-{n}").proposal_id for n in range(30)}
    assert len(ids) == 30 and all(re.fullmatch(r"[0-9a-f]{32}", pid) for pid in ids)


# --- accepted -------------------------------------------------------------------------------------
def test_an_armed_channel_accepts_its_payload_with_the_target_captured_at_prompt_time(f):
    channel = f.issue("chat-a", target="term-7")
    assert f.channels.arm(channel, VALID, "chat-a")
    result = f.channels.validate(request(channel))
    assert result.wire() == {
        "phase": "validation",
        "status": "accepted",
        "proposal_id": result.proposal_id,
        "retryable": False,
    }
    proposal = result.proposal
    assert proposal is not None and proposal.channel == channel
    assert (proposal.session_key, proposal.generation, proposal.turn_id) == ("chat-a", 1, "t1")
    assert (proposal.send_target, proposal.send_target_title) == ("term-7", "bash")
    assert proposal.choices[0].actions[0].input == "make test" and proposal.recommended == 1
    assert proposal.decision_deadline == f.clock.now + DECISION_SECONDS
    assert (
        f.channels.awaiting("chat-a") == [proposal]
        and f.channels.state_of(proposal.proposal_id) == "awaiting"
    )
    envelope = proposal.envelope("awaiting")
    assert (envelope.proposal_id, envelope.send_target, envelope.state) == (
        proposal.proposal_id,
        "term-7",
        "awaiting",
    )


# --- 1. version and frame limits ------------------------------------------------------------------
def padded_request(channel: str, frame_bytes: int) -> bytes:
    """A request for VALID whose frame (no newline) is exactly `frame_bytes`: the payload written with
    every character as a \\u escape (legal JSON, 6 bytes each) and spaces after the last field."""
    escaped = "".join(f"\\u{ord(char):04x}" for char in VALID)
    head = f'{{"version":1,"channel":"{channel}","payload":"{escaped}"'
    padding = frame_bytes - len(head) - 1
    assert padding >= 0
    return (head + " " * padding + "}").encode()


def test_a_frame_of_exactly_the_limit_is_accepted_and_one_byte_more_is_refused(f):
    channel = f.armed()
    over = f.channels.validate(padded_request(channel, MAX_FRAME_BYTES + 1))
    assert (over.status, over.retryable) == ("invalid_schema", True)
    assert f"{MAX_FRAME_BYTES + 1} bytes" in over.reason
    exact = padded_request(channel, MAX_FRAME_BYTES)
    assert len(exact) == MAX_FRAME_BYTES
    assert f.status(exact + b"\n") == ("accepted", False)


def test_the_newline_and_a_carriage_return_are_not_counted_in_the_frame(f):
    assert f.status(padded_request(f.armed(), MAX_FRAME_BYTES) + b"\r\n") == ("accepted", False)
    assert f.status(padded_request(f.armed(), MAX_FRAME_BYTES)) == ("accepted", False)


def test_a_payload_over_8_kib_is_invalid_schema_and_retryable(f):
    channel = f.armed()
    big = payload_text({"type": "send", "input": "é" * 4200})
    assert len(big.encode()) > MAX_PAYLOAD_BYTES
    result = f.channels.validate(request(channel, big))
    assert (result.status, result.retryable) == ("invalid_schema", True)
    assert result.reason.startswith("payload is") and str(MAX_PAYLOAD_BYTES) in result.reason
    assert f.status(request(channel)) == ("accepted", False)  # the budget was not touched


@pytest.mark.parametrize(
    "line",
    [
        b"not json\n",
        b"\xff\xfe\n",
        b"[1,2]\n",
        b"{}\n",
        b'{"version":1,"channel":"x"}\n',
        b'{"version":1,"channel":"x","payload":"{}","extra":1}\n',
        b'{"version":1,"version":1,"channel":"x","payload":"{}"}\n',
        b'{"version":1,"channel":"x","payload":{"schema_version":1}}\n',
        b'{"version":NaN,"channel":"x","payload":"{}"}\n',
        b'{"version":1,\n"channel":"x","payload":"{}"}\n',
        b"[" * 5000 + b"]" * 5000 + b"\n",
    ],
)
def test_a_request_is_one_line_holding_exactly_version_channel_and_payload(f, line):
    assert f.status(line) == ("invalid_schema", False)


@pytest.mark.parametrize("version", [0, 2, True, "1", 1.0])
def test_the_request_version_must_be_1(f, version):
    line = json.dumps({"version": version, "channel": f.armed(), "payload": VALID}).encode()
    result = f.channels.validate(line)
    assert (result.status, result.reason) == ("invalid_schema", "version must be 1.")


# --- 2. instance, 3. channel ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "channel", ["", "v1", "v2.{i}.{n}", "v1.{i}.{n}.x", "V1.{i}.{n}", "v1.{I}.{n}", "v1.{i}.{n}\n", 7, None]
)
def test_a_malformed_channel_is_unknown_channel(f, channel):
    nonce = "0" * 32
    if isinstance(channel, str):
        channel = channel.format(i=f.channels.instance, I=f.channels.instance.upper(), n=nonce)
    assert f.status(request(channel)) == ("unknown_channel", False)


def test_another_instances_channel_is_a_helper_mismatch(f):
    other = Fixture()
    channel = other.armed()
    assert f.status(request(channel)) == ("helper_mismatch", False)
    assert other.status(request(channel)) == ("accepted", False)


def test_a_channel_this_instance_never_issued_is_unknown_channel(f):
    f.armed()
    assert f.status(request(f"v1.{f.channels.instance}.{'a' * 32}")) == ("unknown_channel", False)


# --- 4. armed, 5. lease ---------------------------------------------------------------------------
def test_a_channel_no_permission_armed_is_armed_by_its_message_and_takes_one_request(f):
    channel = f.issue()  # an agent whose shell runs the command without asking
    other = payload_text(title="Any payload: no permission bound one")
    result = f.channels.validate(request(channel, other))
    assert result.status == "accepted" and result.proposal.choices[0].title.startswith("Any payload")
    assert f.status(request(channel, other)) == ("already_consumed", False)


def test_a_direct_request_still_needs_its_prompt_to_be_current_and_a_valid_payload(f):
    channel = f.issue()
    refused = f.channels.validate(request(channel, INVALID))
    assert (refused.status, refused.retryable, refused.session_key) == ("invalid_schema", True, "chat-a")
    assert f.status(request(channel)) == ("accepted", False)  # corrected, still no permission needed
    stale = f.issue("chat-b")
    f.stale.add(("chat-b", 1, "t1"))
    assert f.status(request(stale)) == ("stale", False)


def test_once_a_permission_armed_a_channel_only_a_permission_arms_it_again(f):
    channel = f.armed()
    f.clock.now += LEASE_SECONDS + 1
    assert f.status(request(channel)) == ("expired", True)
    result = f.channels.validate(request(channel))
    assert (result.status, result.retryable) == ("not_armed", False)
    assert "not armed" in result.reason


def test_the_lease_holds_30_seconds_after_arming(f):
    channel = f.armed()
    f.clock.now += LEASE_SECONDS
    assert f.status(request(channel)) == ("accepted", False)


def test_past_the_30_s_lease_a_request_is_expired_retryable_and_a_new_permission_arms_again(f):
    channel = f.armed()
    f.clock.now += LEASE_SECONDS + 0.001
    result = f.channels.validate(request(channel))
    assert (result.status, result.retryable) == ("expired", True) and "30 seconds" in result.reason
    assert f.status(request(channel)) == ("not_armed", False)  # back to issued
    assert f.channels.arm(channel, VALID, "chat-a")
    assert f.status(request(channel)) == ("accepted", False)


# --- 6. session epoch and prompt identity ---------------------------------------------------------
def test_a_prompt_that_is_no_longer_current_makes_its_channel_stale(f):
    channel = f.armed()
    f.stale.add(("chat-a", 1, "t1"))
    assert f.status(request(channel)) == ("stale", False)
    f.stale.clear()
    assert f.status(request(channel)) == ("stale", False)  # ended: its tombstone answers


def test_arming_a_channel_whose_prompt_moved_on_fails_and_ends_it(f):
    channel = f.issue()
    f.stale.add(("chat-a", 1, "t1"))
    assert not f.channels.arm(channel, VALID, "chat-a")
    assert f.status(request(channel)) == ("stale", False)


# --- 7. digest, 9. schema, 10. target: one budget -------------------------------------------------
def test_a_digest_mismatch_is_retryable_twice_then_rejected(f):
    channel = f.armed()
    other = payload_text(title="Something else")
    for _ in range(MAX_RETRIES):
        result = f.channels.validate(request(channel, other))
        assert (result.status, result.retryable) == ("digest_mismatch", True)
        assert "differs from the one the permission allowed" in result.reason
    final = f.channels.validate(request(channel, other))
    assert (final.status, final.retryable) == ("rejected", False) and "retries are used up" in final.reason
    assert f.status(request(channel)) == ("rejected", False)  # the permitted payload comes too late
    assert not f.channels.arm(channel, VALID, "chat-a")


def test_a_digest_mismatch_keeps_the_lease_for_the_permitted_payload(f):
    channel = f.armed()
    assert f.status(request(channel, payload_text(title="other"))) == ("digest_mismatch", True)
    assert f.status(request(channel)) == ("accepted", False)


def test_an_invalid_schema_is_retryable_and_the_corrected_payload_needs_a_new_permission(f):
    channel = f.armed(payload=INVALID)
    result = f.channels.validate(request(channel, INVALID))
    assert (result.status, result.retryable) == ("invalid_schema", True)
    assert result.reason == "pane is not allowed: a proposal never names a session, window, tab or pane."
    assert f.status(request(channel, INVALID)) == ("not_armed", False)
    assert f.channels.arm(channel, VALID, "chat-a")
    assert f.status(request(channel)) == ("accepted", False)


def test_digest_and_schema_failures_share_one_budget_of_two_retries(f):
    channel = f.armed(payload=INVALID)
    assert f.status(request(channel, VALID)) == ("digest_mismatch", True)
    assert f.status(request(channel, INVALID)) == ("invalid_schema", True)
    assert f.channels.arm(channel, INVALID, "chat-a")
    result = f.channels.validate(request(channel, INVALID))
    assert (result.status, result.retryable) == ("rejected", False)
    assert result.reason.startswith("pane is not allowed") and "2 retries are used up" in result.reason


def test_a_send_with_no_terminal_captured_at_prompt_time_is_rejected_and_retryable(f):
    channel = f.armed(target=None)
    result = f.channels.validate(request(channel))
    assert (result.status, result.retryable) == ("rejected", True)
    assert result.reason.startswith("choices[0].actions[0] is a send, but no terminal was open")
    corrected = payload_text(OPEN_AND_SEND)
    assert f.channels.arm(channel, corrected, "chat-a")
    accepted = f.channels.validate(request(channel, corrected))
    assert accepted.status == "accepted" and accepted.proposal.send_target is None


# --- 8. the one-use claim: replay -----------------------------------------------------------------
def test_a_replay_of_an_accepted_request_is_already_consumed(f):
    channel = f.armed()
    assert f.status(request(channel)) == ("accepted", False)
    assert f.status(request(channel)) == ("already_consumed", False)
    assert not f.channels.arm(channel, VALID, "chat-a")  # a used channel is never armed again
    f.issue("chat-a", turn="t2")  # the used channel becomes a tombstone and still says so
    assert f.status(request(channel)) == ("already_consumed", False)


# --- one channel per chat, tombstones --------------------------------------------------------------
def test_a_newer_prompt_supersedes_only_its_own_chats_channel(f):
    first = f.armed("chat-a")
    second = f.issue("chat-b")  # another chat (of this agent or another) leaves chat-a's channel alone
    assert f.channels.arm(second, VALID, "chat-b")
    assert f.status(request(second)) == ("accepted", False)
    assert f.status(request(first)) == ("accepted", False)
    third = f.issue("chat-b", turn="t2")
    newer = f.issue("chat-a", turn="t2")
    assert f.status(request(first)) == ("already_consumed", False)
    assert f.channels.active_channel("chat-a") == newer and f.channels.active_channel("chat-b") == third


def test_two_chats_propose_at_once_and_stop_in_one_leaves_the_other(f):
    a, b = f.issue("chat-a"), f.issue("chat-b")
    card_a = f.channels.validate(request(a)).proposal
    f.channels.cancel_turn("chat-b")
    assert f.status(request(b)) == ("stale", False)
    assert [p.proposal_id for p in f.channels.awaiting()] == [card_a.proposal_id]
    f.channels.unavailable_session("chat-a")
    assert f.channels.awaiting() == []


def test_arm_refuses_another_chats_channel_and_an_unknown_one(f):
    channel = f.issue("chat-a")
    assert not f.channels.arm(channel, VALID, "chat-b")
    assert not f.channels.arm(f"v1.{f.channels.instance}.{'b' * 32}", VALID)
    assert f.status(request(channel, payload_text(title="chat-a's own"))) == ("accepted", False)


def test_at_most_4_tombstones_are_kept_and_the_oldest_is_forgotten(f):
    ended = [f.issue(turn=f"t{n}") for n in range(MAX_TOMBSTONES + 1)]
    f.issue(turn="last")
    assert f.channels.tombstone_count() == MAX_TOMBSTONES
    assert f.status(request(ended[0])) == ("unknown_channel", False)
    for channel in ended[1:]:
        assert f.status(request(channel)) == ("superseded", False)


def test_tombstones_are_forgotten_after_3_minutes(f):
    ended = f.issue()
    f.issue(turn="t2")
    f.clock.now += TOMBSTONE_SECONDS - 0.001
    assert f.status(request(ended)) == ("superseded", False)
    f.clock.now += 0.001
    assert f.status(request(ended)) == ("unknown_channel", False)
    assert f.channels.tombstone_count() == 0


# --- the user's decision --------------------------------------------------------------------------
def test_claim_takes_an_awaiting_proposal_once(f):
    proposal = f.accept()
    assert f.channels.claim(proposal.proposal_id) == proposal
    assert f.channels.claim(proposal.proposal_id) is None
    assert f.channels.state_of(proposal.proposal_id) == "claimed" and f.channels.awaiting() == []
    assert f.channels.finish(proposal.proposal_id, "confirmed")
    assert f.channels.claim(proposal.proposal_id) is None
    assert f.channels.claim("0" * 32) is None
    assert f.finals == [(proposal.proposal_id, "confirmed")]


def test_confirmed_is_refused_for_a_proposal_nobody_claimed(f):
    proposal = f.accept()
    assert not f.channels.finish(proposal.proposal_id, "confirmed")
    assert f.channels.state_of(proposal.proposal_id) == "awaiting" and f.finals == []
    assert f.channels.finish(proposal.proposal_id, "cancelled")  # the user's Cancel needs no claim
    assert f.finals == [(proposal.proposal_id, "cancelled")]


def test_a_claim_after_the_10_minute_deadline_does_nothing_and_ends_timed_out(f):
    proposal = f.accept()
    f.clock.now += DECISION_SECONDS
    assert f.channels.claim(proposal.proposal_id) is None
    assert f.finals == [(proposal.proposal_id, "timed_out")]
    assert not f.channels.finish(proposal.proposal_id, "confirmed")


def test_expire_overdue_times_out_awaiting_cards_at_their_deadline(f):
    first = f.accept("chat-a")
    f.clock.now += 60
    second = f.accept("chat-b")
    assert f.channels.next_deadline() == first.decision_deadline
    assert f.channels.expire_overdue(first.decision_deadline - 0.001) == []
    assert f.channels.expire_overdue(first.decision_deadline) == [first.proposal_id]
    assert f.channels.next_deadline() == second.decision_deadline
    f.clock.now = second.decision_deadline
    assert f.channels.expire_overdue() == [second.proposal_id]
    assert f.finals == [(first.proposal_id, "timed_out"), (second.proposal_id, "timed_out")]
    assert f.channels.next_deadline() is None


# --- the lifecycle --------------------------------------------------------------------------------
def test_a_new_prompt_supersedes_its_chats_waiting_card_but_not_another_chats(f):
    mine = f.accept("chat-a")
    theirs = f.accept("chat-b")
    f.issue("chat-a", turn="t2")
    assert f.finals == [(mine.proposal_id, "superseded")]
    assert f.channels.awaiting() == [theirs]


def test_stop_cancels_the_chats_waiting_card_and_its_channel_answers_stale(f):
    proposal = f.accept("chat-a")
    f.issue("chat-a", turn="t2")
    channel = f.armed("chat-a")
    f.finals.clear()
    other = f.accept("chat-b")  # chat-a's channel stays: one per chat
    f.channels.cancel_turn("chat-b")
    assert f.finals == [(other.proposal_id, "cancelled")]
    assert f.channels.state_of(proposal.proposal_id) == "superseded"
    assert f.status(request(channel)) == ("accepted", False)
    stopped = f.armed("chat-c")
    f.channels.cancel_turn("chat-c")
    assert f.status(request(stopped)) == ("stale", False)


def test_a_replaced_session_ends_its_waiting_card_as_session_replaced(f):
    proposal = f.accept("chat-a")
    channel = f.issue("chat-b")
    f.channels.replace_session("chat-a")
    f.channels.replace_session("chat-b")
    assert f.finals == [(proposal.proposal_id, "session_replaced")]
    assert f.status(request(channel)) == ("stale", False)


def test_unavailable_ends_every_waiting_card_and_the_channel(f):
    first = f.accept("chat-a")
    second = f.accept("chat-b")
    channel = f.armed("chat-c")
    f.channels.unavailable_all()
    assert sorted(f.finals) == sorted(
        [(first.proposal_id, "unavailable"), (second.proposal_id, "unavailable")]
    )
    assert f.status(request(channel)) == ("unavailable", False)


def test_a_claimed_proposal_is_left_to_its_claimant_by_the_lifecycle(f):
    proposal = f.accept("chat-a")
    assert f.channels.claim(proposal.proposal_id)
    f.channels.supersede("chat-a")
    f.channels.unavailable_all()
    assert f.channels.expire_overdue(f.clock.now + DECISION_SECONDS) == []
    assert f.finals == [] and f.channels.state_of(proposal.proposal_id) == "claimed"
    assert f.channels.finish(proposal.proposal_id, "confirmed")
    assert f.finals == [(proposal.proposal_id, "confirmed")]


def test_each_proposal_ends_once_and_every_listener_hears_it_even_after_one_fails(f):
    heard: list[FinalStatus] = []

    def broken(_proposal: Proposal, _final: FinalStatus) -> None:
        raise RuntimeError("listener bug")

    f.channels.subscribe_final(broken)
    unsubscribe = f.channels.subscribe_final(lambda _p, final: heard.append(final))
    proposal = f.accept()
    assert f.channels.finish(proposal.proposal_id, "cancelled")
    assert not f.channels.finish(proposal.proposal_id, "cancelled")
    f.channels.supersede("chat-a")
    f.channels.unavailable_all()
    assert heard == ["cancelled"] and f.finals == [(proposal.proposal_id, "cancelled")]
    unsubscribe()
    f.channels.finish(f.accept().proposal_id, "cancelled")
    assert heard == ["cancelled"]


def test_the_wire_lines_carry_phase_status_id_reason_and_retryable():
    refusal = Validation("expired", True, "lease passed.")
    assert refusal.wire() == {
        "phase": "validation",
        "status": "expired",
        "reason": "lease passed.",
        "retryable": True,
    }
    assert final_wire("ab" * 16, "confirmed") == {
        "phase": "final",
        "status": "confirmed",
        "proposal_id": "ab" * 16,
    }


# --- every status of the seed ---------------------------------------------------------------------
def test_every_validation_and_final_status_of_the_seed_is_reached():
    seen: set[str] = set()
    finals: set[str] = set()
    f = Fixture()
    f.channels.subscribe_final(lambda _p, final: finals.add(final))

    def run(line: bytes) -> Validation:
        result = f.channels.validate(line)
        seen.add(result.status)
        return result

    run(request(f"v1.{f.channels.instance}.{'c' * 32}"))  # unknown_channel
    run(request(Fixture().armed()))  # helper_mismatch
    channel = f.armed()
    f.clock.now += LEASE_SECONDS + 1
    run(request(channel))  # expired
    run(request(channel))  # not_armed: a permission armed it, only a permission arms it again
    superseded = f.armed()
    f.issue(turn="t2")
    run(request(superseded))  # superseded
    stale = f.armed()
    f.channels.replace_session("chat-a")
    run(request(stale))  # stale
    digest = f.armed()
    for _ in range(MAX_RETRIES + 1):
        run(request(digest, INVALID))  # digest_mismatch, then rejected
    schema = f.armed(payload=INVALID)
    run(request(schema, INVALID))  # invalid_schema
    used = f.armed()
    accepted = run(request(used))  # accepted
    run(request(used))  # already_consumed
    f.channels.claim(accepted.proposal_id)
    f.channels.finish(accepted.proposal_id, "confirmed")
    f.channels.finish(f.accept().proposal_id, "cancelled")
    f.accept("chat-a")
    f.issue("chat-a", turn="t9")  # superseded
    f.accept("chat-b")
    f.channels.replace_session("chat-b")  # session_replaced
    f.accept("chat-c")
    f.clock.now += DECISION_SECONDS
    f.channels.expire_overdue()  # timed_out
    f.accept("chat-d")
    f.channels.cancel_turn("chat-d")  # cancelled (Stop)
    f.accept("chat-f")
    f.channels.unavailable_all()  # unavailable (final)
    gone = f.armed("chat-g")
    f.channels.unavailable_all()
    run(request(gone))  # unavailable (validation)
    assert seen == set(get_args(ValidationStatus))
    assert finals == set(get_args(FinalStatus))


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
