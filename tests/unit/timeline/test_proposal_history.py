"""Proposal cards in replayed history (an earlier run's expired card read from its payload, this run's
kept card with its live state) and the store keeping a card across chat switches and reloads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.contract.envelopes import LoadResult
from app.renderer.present.proposal_card import proposal_entry
from app.renderer.timeline.items import ProposalItem
from app.renderer.timeline.proposal_rules import KEPT_PROPOSALS, MAX_INPUT_CHARS, KeptProposals
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import apply_changes
from app.renderer.timeline.store import TimelineStore
from tests.unit.timeline.helpers import GEN, KEY, agent, settled, tool, user
from tests.unit.timeline.proposal_helpers import (
    CHOICES,
    EARLIER_RUN,
    PAYLOAD,
    THIS_RUN,
    channel,
    cli_call,
    envelope,
)


# --- replayed history -------------------------------------------------------------------------------------
def replay(*envelopes: Any, kept: tuple = (), run_instances: tuple = ()) -> Timeline:
    timeline = Timeline(KEY, GEN)
    timeline.expect_proposals(kept, run_instances)
    mirror: list = []
    apply_changes(mirror, timeline.apply_batch(envelopes))
    assert mirror == timeline.rows
    return timeline


def history(tool_id: str = "cli", channel_: str | None = None, payload: Any = PAYLOAD) -> list:
    return [
        user("what now?", "m1", historical=True),
        agent("Let me propose", "a1", historical=True),
        cli_call(tool_id, channel_ or channel(instance=EARLIER_RUN), historical=True, payload=payload),
        tool(tool_id, "tool_call_update", status="completed", historical=True),
        agent("Done", "a2", historical=True),
    ]


def test_a_replayed_cli_call_of_an_earlier_run_becomes_an_expired_card_read_from_its_payload():
    timeline = replay(*history())
    card_id = f"proposal:channel:{channel(instance=EARLIER_RUN)}"
    assert list(timeline.order) == ["m1:0", "a1:0", "tool:cli", card_id, "a2:0"]
    card = timeline.items[card_id]
    assert (card.state, card.readable, card.proposal_id, card.recommended) == ("expired", True, "", 2)
    assert card.choices == CHOICES
    assert [r.kind for r in timeline.rows] == [
        "user",
        "assistant-text",
        "proposal",
        "assistant-text",
        "turn-footer",
    ]
    entry = proposal_entry(card)
    assert entry["stateText"] == "Expired: this proposal is from an earlier run"
    assert entry["awaiting"] is False  # a rebuilt card never dispatches


def test_an_unreadable_replayed_payload_makes_a_card_saying_so():
    for broken in ('{"choices": 3}', '{"choices":[{"title":"x","actions":[{"type":"rm"}]}]}', "[1,2"):
        timeline = replay(*history(payload=broken))
        card = timeline.items[f"proposal:channel:{channel(instance=EARLIER_RUN)}"]
        assert (card.readable, card.choices) == (False, ())
        assert (
            proposal_entry(card)["stateText"] == "This proposal could not be read (it is from an earlier run)"
        )


def test_a_replayed_payload_is_read_loosely_and_cut_to_the_schemas_limits():
    payload = {
        "choices": [
            {
                "title": f"c{i}",
                "extra": 1,
                "actions": [{"type": "send", "input": "x" * (MAX_INPUT_CHARS + 5)}],
            }
            for i in range(5)
        ],
        "unknown": True,
    }
    card = next(i for i in replay(*history(payload=payload)).items.values() if isinstance(i, ProposalItem))
    assert [c.choice for c in card.choices] == [1, 2, 3]  # numbered by position when unnumbered
    assert len(card.choices[0].actions[0].input) == MAX_INPUT_CHARS and card.shortened
    assert card.recommended is None


def test_a_retried_invocation_in_the_same_channel_makes_one_card_with_the_last_payload():
    retried = {**PAYLOAD, "choices": PAYLOAD["choices"][:1], "recommended_choice": 1}
    timeline = replay(*history("t1"), *history("t2", payload=retried)[2:])
    cards = [i for i in timeline.items.values() if isinstance(i, ProposalItem)]
    assert len(cards) == 1 and [c.title for c in cards[0].choices] == ["List"]


def test_a_replayed_cli_call_of_this_run_takes_its_kept_card_with_its_live_state():
    kept = envelope(state="awaiting", channel_=channel())
    timeline = replay(*history(channel_=channel()), kept=(kept,))
    assert list(timeline.order) == ["m1:0", "a1:0", "tool:cli", "proposal:p1", "a2:0"]
    assert proposal_entry(timeline.items["proposal:p1"])["awaiting"] is True


def test_a_replayed_cli_call_of_this_run_without_a_kept_card_shows_nothing():
    timeline = replay(*history(channel_=channel()), run_instances=(THIS_RUN,))
    assert [r.kind for r in timeline.rows] == ["user", "assistant-text", "assistant-text", "turn-footer"]


def test_a_kept_card_no_replayed_call_names_goes_after_the_turn_of_its_user_message():
    kept = envelope(state="awaiting", channel_=channel())
    timeline = replay(
        user("q", "m1", historical=True),
        agent("a", "a1", historical=True),
        user("q2", "m2", historical=True),
        agent("b", "a2", historical=True),
        kept=(kept,),
    )
    assert list(timeline.order) == ["m1:0", "a1:0", "proposal:p1", "m2:0", "a2:0"]
    elsewhere = replay(agent("only the agent", "a9", historical=True), kept=(replace(kept, turn_id="gone"),))
    assert list(elsewhere.order) == ["a9:0", "proposal:p1"]


# --- the store: a card is live state, not history ---------------------------------------------------------
def test_the_store_keeps_a_card_across_a_chat_switch_and_a_reload_puts_it_where_its_call_was():
    store = TimelineStore()
    timeline, _ = store.load(LoadResult(KEY, 1, "/w", ()))
    timeline.add_optimistic("m1", "what now?")
    for update in (cli_call("cli", channel()), tool("cli", "tool_call_update", status="completed")):
        store.apply(replace(update, generation=1))
    store.apply(envelope(generation=1))  # no channel said: the newest live CLI call's
    store.apply(settled("m1"))
    store.apply(replace(settled("m1"), generation=1))
    store.load(LoadResult("key-2", 1, "/w", ()))
    store.keep_only("key-2")  # the user switched chats: KEY's timeline is dropped
    assert KEY not in store.timelines
    replayed = tuple(replace(u, generation=2) for u in history(channel_=channel()))
    back, _ = store.load(LoadResult(KEY, 2, "/w", replayed))
    assert list(back.order) == ["m1:0", "a1:0", "tool:cli", "proposal:p1", "a2:0"]
    assert back.items["proposal:p1"].state == "awaiting"
    store.apply(envelope(state="confirmed", generation=1))
    assert back.items["proposal:p1"].state == "confirmed"


def test_the_store_keeps_a_bounded_number_of_cards_and_forgets_a_closed_chats():
    kept = KeptProposals()
    for i in range(KEPT_PROPOSALS + 5):
        kept.note(envelope(f"p{i}"))
    ids = [e.proposal_id for e in kept.of(KEY)]
    assert len(ids) == KEPT_PROPOSALS and ids[0] == "p5"
    store = TimelineStore()
    store.apply(envelope())
    store.forget(KEY)
    assert store.proposals.of(KEY) == []
