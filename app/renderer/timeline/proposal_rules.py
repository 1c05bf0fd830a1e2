"""The reducer's rules for terminal-action proposal cards. Part of `Timeline` (reducer.py); each rule
pinned in tests/unit/timeline/test_proposal_rules.py.

- A `ProposalEnvelope` (the main side's word on a card) creates the card `proposal:<proposal id>` at the
  end of the timeline the first time its id is seen (that session and generation only: the end is the
  live turn, so grouping puts it in that turn); later envelopes set its state and reason whatever their
  generation (the card keeps the one it was made in, also after a reload shows it again). A card that
  left `awaiting` never changes again: the first final state is the answer.
- A tool call that runs the proposal CLI (`tool_call_invocation`) draws nothing: its card shows the
  proposal. Its status is still kept, so its result ends the turn's tool bookkeeping like any tool's.
- In REPLAYED history such a call is where its card goes: the card still kept from this run
  (`KeptProposals`, matched by channel) takes that place with its live state; a call of an earlier run
  (another instance in its channel) becomes an `expired` card read from the payload it carries (loosely:
  unknown fields ignored, texts and counts cut to the schema's limits; unreadable -> a card saying so),
  one per channel (a retried invocation replaces the card's content). A call of this run whose
  proposal is no longer kept (or never got a card: refused when validated) shows nothing.
- A proposal is live state, not history: `TimelineStore` keeps the newest envelope of each (bounded)
  and gives them to the timeline a reload builds (`expect_proposals`); those no replayed call placed go
  after the turn they belong to (the user message `turn_id`), else at the end.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, get_args

from app.contract.proposals import (
    ActionType,
    ParsedInvocation,
    ProposalAction,
    ProposalChoice,
    ProposalEnvelope,
    tool_call_invocation,
)
from app.renderer.timeline.items import MessageSegment, ProposalItem, ToolCall
from app.renderer.timeline.state import TimelineState

# what a card rebuilt from history shows at most (the schema's limits: a valid payload is never cut)
MAX_CHOICES = 3
MAX_ACTIONS = 3  # per choice
MAX_TITLE_CHARS = 200
MAX_RATIONALE_CHARS = 2_000
MAX_INPUT_CHARS = 8_000
MAX_CWD_CHARS = 4_096
KEPT_PROPOSALS = 64  # live proposals the store keeps across chat switches (the newest, every chat)
KEPT_INSTANCES = 16  # app runs whose channels were seen live (their replayed calls are this run's)
_ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
_PLACE_FIELDS = ("target", "direction", "profile")  # where an open goes, as the payload said
_CUT = "\u2026"


def channel_instance(channel: str) -> str:
    """The app run a well-formed channel `v1.<instance>.<nonce>` belongs to."""
    parts = channel.split(".")
    return parts[1] if len(parts) == 3 else ""


class ProposalRules(TimelineState):
    def _init_proposals(self) -> None:
        self.proposal_channels: dict[str, str] = {}  # channel -> the card it made
        self.live_channels: list[str] = []  # channels of the CLI calls seen live, oldest first
        self.live_instances: set[str] = set()  # the app runs those channels belong to
        self.kept_proposals: dict[str, ProposalEnvelope] = {}  # by channel: cards a reload shows again
        self._kept_unmatched: list[ProposalEnvelope] = []  # kept ones whose channel is unknown
        self.run_instances: set[str] = set()  # app runs whose replayed calls are not "earlier"

    # --- live envelopes --------------------------------------------------------------------------------
    def _proposal(self, envelope: ProposalEnvelope) -> None:
        if envelope.session_key != self.session_key:
            self.ignored += 1
            return
        card = self.items.get(f"proposal:{envelope.proposal_id}")
        if isinstance(card, ProposalItem):
            self._update_card(card, envelope)
        elif card is None and envelope.generation == self.generation:
            self.close_segments()
            self.append(self._card_of(envelope, envelope.channel or self._unclaimed_live_channel()))
        else:
            self.ignored += 1

    def _card_of(self, envelope: ProposalEnvelope, channel: str) -> ProposalItem:
        if channel:
            self.proposal_channels[channel] = f"proposal:{envelope.proposal_id}"
        return ProposalItem(
            id=f"proposal:{envelope.proposal_id}",
            proposal_id=envelope.proposal_id,
            channel=channel,
            turn_id=envelope.turn_id,
            origin=envelope.origin,
            choices=tuple(envelope.choices),
            recommended=envelope.recommended,
            state=envelope.state,
            reason=envelope.reason,
            send_target_title=envelope.send_target_title,
        )

    def _update_card(self, card: ProposalItem, envelope: ProposalEnvelope) -> None:
        if card.state != "awaiting":
            return  # the first final state is the answer
        card.state = envelope.state
        card.reason = envelope.reason
        card.send_target_title = envelope.send_target_title or card.send_target_title
        self.touch(card)

    def _unclaimed_live_channel(self) -> str:
        """The channel of the newest CLI call seen live that no card names yet (the call whose request
        made this card), for an envelope that does not say its channel."""
        for channel in reversed(self.live_channels):
            if channel not in self.proposal_channels:
                return channel
        return ""

    # --- tool calls that run the CLI -------------------------------------------------------------------
    def _recognise_proposal_call(self, tool: ToolCall, update: Any) -> ParsedInvocation | None:
        """Mark a tool call that runs the proposal CLI (it then draws nothing); the invocation when the
        update just said what it runs."""
        if "rawInput" not in update and "title" not in update:
            return None
        invocation = tool_call_invocation({"rawInput": tool.input, "title": tool.title})
        if tool.input is None and tool.title == tool.tool_call_id:
            invocation = None  # only the id so far: the title is ours, not the agent's
        tool.proposal_call = invocation is not None
        return invocation

    def _proposal_call_placed(self, tool: ToolCall, invocation: ParsedInvocation) -> None:
        """After the call's item is in place: remember a live call's channel, or put the card of a
        replayed one right after it."""
        channel = invocation.channel
        if not tool.historical:
            if channel not in self.live_channels:
                self.live_channels.append(channel)
            self.live_instances.add(channel_instance(channel))
            return
        kept = self.kept_proposals.get(channel)
        if kept is not None:
            if f"proposal:{kept.proposal_id}" not in self.items:
                self.close_segments()
                self.append(self._card_of(kept, channel))
            return
        if channel_instance(channel) in self.run_instances:
            return  # this run's call whose proposal is not kept (or was refused): nothing to show
        self.close_segments()
        card_id = f"proposal:channel:{channel}"
        card = self.items.get(card_id)
        read = read_payload(invocation.payload_json)
        if isinstance(card, ProposalItem):
            _fill_expired(card, read)
            self.touch(card)
            return
        card = ProposalItem(id=card_id, channel=channel, state="expired", historical=True)
        _fill_expired(card, read)
        self.append(card)

    # --- a reload of a chat whose proposals are still live -----------------------------------------------
    def expect_proposals(self, kept: Iterable[ProposalEnvelope], run_instances: Iterable[str]) -> None:
        """Before a load's batch: the cards this run still holds for the session, and the app runs whose
        calls are this run's (not expired)."""
        self.run_instances = set(run_instances)
        self.kept_proposals = {}
        self._kept_unmatched = []
        for envelope in kept:
            if envelope.channel:
                self.kept_proposals[envelope.channel] = envelope
                self.run_instances.add(channel_instance(envelope.channel))
            else:
                self._kept_unmatched.append(envelope)

    def _place_kept_proposals(self) -> None:
        """End of a load's batch (grouping runs after): kept cards no replayed call placed go after the
        turn of their user message, else at the end."""
        waiting = [*self._kept_unmatched, *self.kept_proposals.values()]
        for envelope in waiting:
            if f"proposal:{envelope.proposal_id}" in self.items:
                continue
            card = self._card_of(envelope, envelope.channel)
            self.items[card.id] = card
            self.order.insert(self._end_of_turn(envelope.turn_id), card.id)
        self._kept_unmatched = []

    def _end_of_turn(self, turn_id: str) -> int:
        """The position after the last item answering user message `turn_id` (the end when unknown)."""
        asked = False
        for index, item_id in enumerate(self.order):
            item = self.items[item_id]
            message = item.message_id if isinstance(item, MessageSegment) and item.role == "user" else None
            if asked and message is not None and message != turn_id:
                return index
            asked = asked or message == turn_id
        return len(self.order)


class KeptProposals:
    """The store's memory of live proposals across chat switches: the newest envelope of each proposal
    (at most KEPT_PROPOSALS, the oldest dropped first) and the app runs seen live."""

    def __init__(self) -> None:
        self._envelopes: OrderedDict[str, ProposalEnvelope] = OrderedDict()
        self._instances: OrderedDict[str, None] = OrderedDict()

    def note(self, envelope: ProposalEnvelope) -> None:
        known = self._envelopes.get(envelope.proposal_id)
        if known is not None and known.session_key != envelope.session_key:
            return  # a proposal belongs to one chat
        if known is not None and known.state != "awaiting":
            return  # the first final state is the answer
        if known is not None and not envelope.channel and known.channel:
            envelope = _with_channel(envelope, known.channel)
        self._envelopes[envelope.proposal_id] = envelope
        self._envelopes.move_to_end(envelope.proposal_id)
        while len(self._envelopes) > KEPT_PROPOSALS:
            self._envelopes.popitem(last=False)
        if envelope.channel:
            self.note_instances([channel_instance(envelope.channel)])

    def note_channel(self, proposal_id: str, channel: str) -> None:
        """A timeline learnt which channel a proposal came through (its envelope did not say)."""
        known = self._envelopes.get(proposal_id)
        if known is not None and not known.channel and channel:
            self._envelopes[proposal_id] = _with_channel(known, channel)

    def note_instances(self, instances: Iterable[str]) -> None:
        for instance in instances:
            if instance:
                self._instances[instance] = None
                self._instances.move_to_end(instance)
        while len(self._instances) > KEPT_INSTANCES:
            self._instances.popitem(last=False)

    def of(self, session_key: str) -> list[ProposalEnvelope]:
        return [e for e in self._envelopes.values() if e.session_key == session_key]

    @property
    def instances(self) -> list[str]:
        return list(self._instances)

    def forget(self, session_key: str) -> None:
        for proposal_id in [p for p, e in self._envelopes.items() if e.session_key == session_key]:
            del self._envelopes[proposal_id]


def _with_channel(envelope: ProposalEnvelope, channel: str) -> ProposalEnvelope:
    return replace(envelope, channel=channel)


# --- the payload of a replayed invocation ----------------------------------------------------------------
class Unreadable(Exception):
    pass


def read_payload(payload_json: str) -> tuple[tuple[ProposalChoice, ...], int | None, bool] | None:
    """(choices, recommended, shortened) from a payload as an earlier run's invocation carried it, read
    loosely (it can no longer run, so it is only shown): unknown fields are ignored, texts and counts
    past the schema's limits cut (`shortened`); None when nothing readable is left."""
    try:
        payload = json.loads(payload_json)
        if not isinstance(payload, dict) or not isinstance(payload.get("choices"), list):
            raise Unreadable
        entries = payload["choices"]
        shortened = len(entries) > MAX_CHOICES
        choices: list[ProposalChoice] = []
        for position, entry in enumerate(entries[:MAX_CHOICES]):
            choice, cut = _read_choice(entry, position)
            choices.append(choice)
            shortened = shortened or cut
    except (ValueError, RecursionError, Unreadable):
        return None
    numbers = {c.choice for c in choices}
    recommended = payload.get("recommended_choice")
    if type(recommended) is not int or recommended not in numbers:
        recommended = None
    return tuple(choices), recommended, shortened


def _read_choice(entry: Any, position: int) -> tuple[ProposalChoice, bool]:
    if not isinstance(entry, dict) or not isinstance(entry.get("actions"), list) or not entry["actions"]:
        raise Unreadable
    title, cut_title = _text(entry.get("title"), MAX_TITLE_CHARS, required=True)
    rationale, cut_rationale = _text(entry.get("rationale", ""), MAX_RATIONALE_CHARS)
    actions = [_read_action(a) for a in entry["actions"][:MAX_ACTIONS]]
    number = entry.get("choice")
    choice = ProposalChoice(
        number if type(number) is int else position + 1, title, rationale, tuple(a for a, _ in actions)
    )
    cut = cut_title or cut_rationale or len(entry["actions"]) > MAX_ACTIONS or any(c for _, c in actions)
    return choice, cut


def _read_action(entry: Any) -> tuple[ProposalAction, bool]:
    if not isinstance(entry, dict) or entry.get("type") not in _ACTION_TYPES:
        raise Unreadable
    kind = entry["type"]
    text, cut_input = _text(entry.get("input"), MAX_INPUT_CHARS, required=kind != "open")
    cwd = entry.get("cwd")
    cwd, cut_cwd = _text(cwd, MAX_CWD_CHARS) if isinstance(cwd, str) else (None, False)
    title = entry.get("title")
    title, cut_title = _text(title, MAX_TITLE_CHARS) if isinstance(title, str) else (None, False)
    where = {name: entry[name] for name in _PLACE_FIELDS if _short_text(entry.get(name))}
    action = ProposalAction(kind, text, cwd=cwd, title=title, **where)
    return action, cut_input or cut_cwd or cut_title


def _short_text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TITLE_CHARS


def _text(value: Any, limit: int, *, required: bool = False) -> tuple[str, bool]:
    if value is None and not required:
        return "", False
    if not isinstance(value, str) or (required and not value.strip()):
        raise Unreadable
    return (value, False) if len(value) <= limit else (value[: limit - 1] + _CUT, True)


def _fill_expired(
    card: ProposalItem, read: tuple[tuple[ProposalChoice, ...], int | None, bool] | None
) -> None:
    if read is None:
        card.choices, card.recommended, card.readable, card.shortened = (), None, False, False
        return
    card.choices, card.recommended, card.shortened = read
    card.readable = True
