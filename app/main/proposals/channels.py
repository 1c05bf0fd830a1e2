"""Proposal channels: which request may become a card, decided in the seed's order, and how each
accepted proposal ends exactly once.

Ownership: `ProposalChannels` owns this instance's channels (`v1.<instance>.<nonce>`, one per prompt, one
active per chat: two chats, of one agent or two, propose at once), their arming, the retry budgets, the
tombstones of ended channels, and every accepted proposal until its final status. The service
(`service.py`) calls it on the event loop thread. Listeners (`subscribe_final`) hear each final once:
the endpoint writes line 2, the card updates.

Authority: a request becomes a proposal only through `validate`, in this order (the first failing check
answers): version and frame limits -> instance (`helper_mismatch`) -> channel known, else its tombstone's
status or `unknown_channel` -> armed (`not_armed`) -> lease (`expired`, retryable) -> session epoch and
prompt identity (`stale`) -> digest (`digest_mismatch`) -> the one-use claim -> schema (`invalid_schema`)
-> target injection (a `send` with no terminal captured at prompt time: `rejected`, retryable) ->
`accepted`. Arming: a permission for the canonical command arms the payload's SHA-256 for a lease; a
channel no permission ever armed is armed by its message itself (an agent whose shell runs commands
without asking) and takes one request with any payload while its prompt is current; once a permission
armed it, only a permission does (`not_armed` when the lease or digest is spent). Digest, schema and
target failures share `MAX_RETRIES` retries per channel; the next failure answers `rejected` and ends
it. A proposal is dispatched only after `claim` took it from awaiting (once; never after its deadline).

`validate` is synchronous, so its check-and-claim is atomic on the loop thread; `arm` takes the asking
chat's key, so another chat's permission cannot arm this chat's channel; `turn_is_current` (from the
service) tells the epoch check a session moved on before its lifecycle call arrived; oversized frames
answer before the channel is known, so they use no channel's budget.

Pure: no Qt, no I/O, no tasks; the clock is a parameter so tests move time instead of sleeping."""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from app.contract.proposals import (
    CHANNEL_RE,
    FinalStatus,
    ValidationStatus,
)
from app.main.proposals.requests import (
    ID_BYTES,
    Proposal,
    Refusal,
    Validation,
    parse_request,
    payload_digest,
    refuse,
    with_refused_card,
)
from app.main.proposals.schema import SchemaProblem, validate_payload

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0  # an armed channel takes a request this long after its permission
MAX_RETRIES = 2  # digest, schema and target failures per channel; the next one ends it as rejected
MAX_TOMBSTONES = 4
TOMBSTONE_SECONDS = 180.0
DECISION_SECONDS = 600.0  # the user's time to confirm or cancel a card; then `timed_out`
MAX_FINISHED_KEPT = 64  # finals remembered for `state_of` (a late click on a card asks why)

ProposalState = Literal["awaiting", "claimed"] | FinalStatus
FinalListener = Callable[["Proposal", FinalStatus], None]


@dataclass
class _Channel:
    channel: str
    session_key: str
    generation: int
    turn_id: str
    send_target: str | None
    send_target_title: str
    digest: bytes | None = None  # armed by a permission when set
    armed_at: float = 0.0
    permitted: bool = False  # a permission armed it once: from then on only a permission arms it
    failures: int = 0
    consumed: bool = False


@dataclass
class _Tombstone:
    status: ValidationStatus  # what a later request on the channel is answered
    reason: str
    at: float


@dataclass
class _Record:
    proposal: Proposal
    state: Literal["awaiting", "claimed"] = "awaiting"


class ProposalChannels:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        turn_is_current: Callable[[str, int, str], bool] | None = None,
    ) -> None:
        self._clock = clock
        self._turn_is_current = turn_is_current or (lambda _key, _generation, _turn: True)
        self._instance = secrets.token_hex(ID_BYTES)
        self._active: dict[str, _Channel] = {}  # session key -> its chat's channel
        self._tombstones: OrderedDict[str, _Tombstone] = OrderedDict()
        self._proposals: dict[str, _Record] = {}
        self._finished: OrderedDict[str, FinalStatus] = OrderedDict()
        self._listeners: list[FinalListener] = []

    @property
    def instance(self) -> str:
        """32 lowercase hex, new per app start: the endpoint's socket name and every channel carry it."""
        return self._instance

    # --- the prompt and the permission ------------------------------------------------------------
    def issue(
        self,
        session_key: str,
        generation: int,
        turn_id: str,
        send_target: str | None,
        send_target_title: str = "",
    ) -> str:
        """A new channel for a prompt the user sent in this chat. This chat's previous channel and its
        waiting cards end as `superseded`; other chats keep theirs."""
        self.supersede(session_key)
        channel = f"v1.{self._instance}.{secrets.token_hex(ID_BYTES)}"
        self._active[session_key] = _Channel(
            channel, session_key, generation, turn_id, send_target, send_target_title
        )
        return channel

    def arm(self, channel: str, payload_json: str, session_key: str | None = None) -> bool:
        """The agent was allowed to run the canonical command for `channel` with `payload_json`: take a
        request with exactly that payload for `LEASE_SECONDS`. False (nothing armed) when the channel is
        not an active one of this instance, was used, belongs to another chat than `session_key`, or its
        prompt is no longer current: the permission path then cancels silently."""
        now = self._clock()
        self._prune(now)
        active = self._named(channel)
        if active is None or active.consumed:
            return False
        if session_key is not None and session_key != active.session_key:
            return False
        if not self._turn_is_current(active.session_key, active.generation, active.turn_id):
            self._end_channel(
                active.session_key, "stale", "the prompt this channel belonged to is no longer current"
            )
            return False
        active.digest = payload_digest(payload_json)
        active.armed_at = now
        active.permitted = True
        return True

    def active_channel(self, session_key: str) -> str | None:
        """The channel of this chat's current prompt, when it is unused."""
        active = self._active.get(session_key)
        if active is None or active.consumed:
            return None
        return active.channel

    def _named(self, channel: str) -> _Channel | None:
        return next((c for c in self._active.values() if c.channel == channel), None)

    # --- the request ------------------------------------------------------------------------------
    def validate(self, request_line: bytes) -> Validation:
        """Line 1 for one request (`{"version":1,"channel":C,"payload":J}`, its newline optional)."""
        now = self._clock()
        self._prune(now)
        try:
            return self._validate(request_line, now)
        except Refusal as refusal:
            return refusal.validation

    def _validate(self, request_line: bytes, now: float) -> Validation:
        channel_name, payload_json = parse_request(request_line)
        if not CHANNEL_RE.fullmatch(channel_name):
            raise refuse("unknown_channel", "channel is not of the form v1.<32 hex>.<32 hex>.")
        if channel_name.split(".")[1] != self._instance:
            raise refuse("helper_mismatch", "channel belongs to another ClawQt instance than this one.")
        channel = self._known(channel_name)
        try:
            return self._validate_known(channel, payload_json, now)
        except Refusal as refusal:
            refusal.validation = replace(refusal.validation, session_key=channel.session_key)
            raise

    def _validate_known(self, channel: _Channel, payload_json: str, now: float) -> Validation:
        direct = channel.digest is None and not channel.permitted  # armed by the message itself
        if channel.digest is None and not direct:
            raise refuse("not_armed", "channel was not armed: run exactly the command from the context.")
        if not direct and now > channel.armed_at + LEASE_SECONDS:
            channel.digest = None
            raise refuse(
                "expired",
                f"channel's permission lease of {LEASE_SECONDS:g} seconds passed; ask again to run it.",
                retryable=True,
            )
        if not self._turn_is_current(channel.session_key, channel.generation, channel.turn_id):
            self._end_channel(
                channel.session_key, "stale", "the prompt this channel belonged to is no longer current"
            )
            raise refuse("stale", "channel's prompt is no longer current in its chat.")
        if channel.digest is not None and not hmac.compare_digest(
            payload_digest(payload_json), channel.digest
        ):
            raise self._failure(
                channel, "digest_mismatch", "payload differs from the one the permission allowed."
            )
        channel.consumed = True  # the one-use claim: synchronous, so nothing runs between check and claim
        checked = validate_payload(payload_json)
        if isinstance(checked, SchemaProblem):
            refusal = self._failure(channel, "invalid_schema", checked.reason)
            refusal.validation = with_refused_card(refusal.validation, channel, checked)
            raise refusal
        if checked.sends and channel.send_target is None:
            choice, action = checked.sends[0]
            raise self._failure(
                channel,
                "rejected",
                f"choices[{choice}].actions[{action}] is a send, but no terminal was open when the prompt "
                "was sent; propose open_and_send instead.",
            )
        proposal = Proposal(
            proposal_id=secrets.token_hex(ID_BYTES),
            channel=channel.channel,
            session_key=channel.session_key,
            generation=channel.generation,
            turn_id=channel.turn_id,
            origin=checked.origin,
            choices=checked.choices,
            recommended=checked.recommended,
            send_target=channel.send_target,
            send_target_title=channel.send_target_title,
            created_at=now,
            decision_deadline=now + DECISION_SECONDS,
        )
        channel.digest = None
        self._proposals[proposal.proposal_id] = _Record(proposal)
        return Validation("accepted", proposal=proposal)

    def _known(self, channel_name: str) -> _Channel:
        """The active channel named, or the refusal its tombstone (or its absence) gives."""
        active = self._named(channel_name)
        if active is not None:
            if active.consumed:
                raise refuse("already_consumed", "channel was already used for a proposal.")
            return active
        tombstone = self._tombstones.get(channel_name)
        if tombstone is not None:
            raise refuse(tombstone.status, f"channel ended: {tombstone.reason}.")
        raise refuse("unknown_channel", "channel is not known to this ClawQt instance (or ended long ago).")

    def _failure(self, channel: _Channel, status: ValidationStatus, reason: str) -> Refusal:
        """A digest, schema or target failure: retryable within the budget, else the channel ends."""
        channel.failures += 1
        channel.consumed = False
        if status != "digest_mismatch":
            channel.digest = None  # a corrected payload has another digest: it needs a new permission
        if channel.failures > MAX_RETRIES:
            self._end_channel(channel.session_key, "rejected", f"it failed {channel.failures} times")
            return refuse(
                "rejected", f"{reason.rstrip('.')}; the channel's {MAX_RETRIES} retries are used up."
            )
        return refuse(status, reason, retryable=True)

    # --- the user's decision ----------------------------------------------------------------------
    def claim(self, proposal_id: str) -> Proposal | None:
        """Take an awaiting proposal for dispatch, once. None when it is not awaiting (claimed, ended,
        unknown) or its decision deadline passed (it then ends as `timed_out`). The claimant calls
        `finish` (`confirmed` once dispatched)."""
        record = self._proposals.get(proposal_id)
        if record is None or record.state != "awaiting":
            return None
        if self._clock() >= record.proposal.decision_deadline:
            self._end(record, "timed_out")
            return None
        record.state = "claimed"
        return record.proposal

    def finish(self, proposal_id: str, final: FinalStatus) -> bool:
        """End a proposal with `final` (the user cancelled; a claimed one was dispatched or could not be).
        False when it already ended, or `confirmed` for one that was never claimed."""
        record = self._proposals.get(proposal_id)
        if record is None or (final == "confirmed" and record.state != "claimed"):
            return False
        self._end(record, final)
        return True

    def state_of(self, proposal_id: str) -> ProposalState | None:
        record = self._proposals.get(proposal_id)
        return record.state if record is not None else self._finished.get(proposal_id)

    def proposal(self, proposal_id: str) -> Proposal | None:
        record = self._proposals.get(proposal_id)
        return record.proposal if record is not None else None

    def awaiting(self, session_key: str | None = None) -> list[Proposal]:
        """Proposals waiting for the user (of one chat, or all), oldest first."""
        return [
            record.proposal
            for record in self._proposals.values()
            if record.state == "awaiting" and session_key in (None, record.proposal.session_key)
        ]

    # --- the lifecycle ----------------------------------------------------------------------------
    def supersede(self, session_key: str) -> None:
        """A new prompt in this chat: its channel and waiting cards end as `superseded`."""
        self._end_session(session_key, "superseded", "a newer prompt in its chat replaced it", "superseded")

    def cancel_turn(self, session_key: str) -> None:
        """The user stopped this chat's turn: its channel is stale, its waiting cards `cancelled`."""
        self._end_session(session_key, "stale", "the user stopped its prompt", "cancelled")

    def replace_session(self, session_key: str) -> None:
        """A new or loaded session replaced this chat's: channel stale, waiting cards `session_replaced`."""
        self._end_session(session_key, "stale", "its session was replaced", "session_replaced")

    def unavailable_all(self) -> None:
        """The agent exited or the endpoint is gone: every channel and waiting card ends `unavailable`."""
        for session_key in list(self._active):
            self._end_channel(session_key, "unavailable", "the agent or ClawQt's endpoint became unavailable")
        for record in [r for r in self._proposals.values() if r.state == "awaiting"]:
            self._end(record, "unavailable")

    def unavailable_session(self, session_key: str) -> None:
        """The agent of this chat exited (another agent's chats keep their cards)."""
        self._end_session(session_key, "unavailable", "its agent became unavailable", "unavailable")

    def expire_overdue(self, now: float | None = None) -> list[str]:
        """End every awaiting proposal whose decision deadline passed as `timed_out`; their ids."""
        now = self._clock() if now is None else now
        self._prune(now)
        overdue = [
            record
            for record in self._proposals.values()
            if record.state == "awaiting" and now >= record.proposal.decision_deadline
        ]
        for record in overdue:
            self._end(record, "timed_out")
        return [record.proposal.proposal_id for record in overdue]

    def next_deadline(self) -> float | None:
        """The earliest decision deadline of an awaiting proposal (when to call `expire_overdue`)."""
        deadlines = [r.proposal.decision_deadline for r in self._proposals.values() if r.state == "awaiting"]
        return min(deadlines, default=None)

    def subscribe_final(self, listener: FinalListener) -> Callable[[], None]:
        """`listener(proposal, final)` once per proposal, after the state changed; returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def tombstone_count(self) -> int:
        self._prune(self._clock())
        return len(self._tombstones)

    # --- bookkeeping ------------------------------------------------------------------------------
    def _end_session(
        self, session_key: str, channel_status: ValidationStatus, reason: str, final: FinalStatus
    ) -> None:
        self._end_channel(session_key, channel_status, reason)
        for record in [r for r in self._proposals.values() if r.state == "awaiting"]:
            if record.proposal.session_key == session_key:
                self._end(record, final)

    def _end_channel(self, session_key: str, status: ValidationStatus, reason: str) -> None:
        """The chat's channel becomes a tombstone; a used one answers `already_consumed` from then on."""
        channel = self._active.pop(session_key, None)
        if channel is None:
            return
        if channel.consumed:
            status, reason = "already_consumed", "it was already used for a proposal"
        now = self._clock()
        self._tombstones[channel.channel] = _Tombstone(status, reason, now)
        self._prune(now)

    def _prune(self, now: float) -> None:
        while self._tombstones and now - next(iter(self._tombstones.values())).at >= TOMBSTONE_SECONDS:
            self._tombstones.popitem(last=False)
        while len(self._tombstones) > MAX_TOMBSTONES:
            self._tombstones.popitem(last=False)

    def _end(self, record: _Record, final: FinalStatus) -> None:
        proposal = record.proposal
        del self._proposals[proposal.proposal_id]
        self._finished[proposal.proposal_id] = final
        while len(self._finished) > MAX_FINISHED_KEPT:
            self._finished.popitem(last=False)
        for listener in list(self._listeners):
            try:
                listener(proposal, final)
            except Exception:  # one broken listener must not keep the others from their final line
                log.exception("a proposal final listener failed")
