"""Proposal channels: identity, acceptance and the seed's check order with its statuses (frame and
version limits, instance, channel, armed, lease, session epoch, digest, schema and target sharing one
budget, the one-use claim), with a moved clock (no sleeping)."""

from __future__ import annotations

import json
import re

import pytest

from app.contract.proposals import (
    MAX_FRAME_BYTES,
    MAX_PAYLOAD_BYTES,
)
from app.main.proposals.channels import (
    DECISION_SECONDS,
    LEASE_SECONDS,
    MAX_RETRIES,
    ProposalChannels,
)
from tests.unit.proposals.channel_support import (
    INVALID,
    OPEN_AND_SEND,
    VALID,
    Fixture,
    payload_text,
    request,
)


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
