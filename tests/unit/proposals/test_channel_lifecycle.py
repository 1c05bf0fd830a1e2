"""Proposal channels over their life: one channel per chat and its tombstones, the user's decision
and its deadline, the lifecycle finals, the wire lines, and every validation and final status of the
seed reached, with a moved clock."""

from __future__ import annotations

from typing import get_args

from app.contract.proposals import (
    FinalStatus,
    ValidationStatus,
)
from app.main.proposals.channels import (
    DECISION_SECONDS,
    LEASE_SECONDS,
    MAX_RETRIES,
    MAX_TOMBSTONES,
    TOMBSTONE_SECONDS,
)
from app.main.proposals.requests import Proposal, Validation, final_wire
from tests.unit.proposals.channel_support import (
    INVALID,
    VALID,
    Fixture,
    payload_text,
    request,
)


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
