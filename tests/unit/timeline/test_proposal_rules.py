"""The reducer's rules for terminal-action proposal cards (app/renderer/timeline/proposal_rules.py), the
store keeping them across chat switches, what the card shows (app/renderer/present/proposal_card.py), the
serializer, and the contract's reading of a tool call that runs the proposal CLI."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.contract.envelopes import LoadResult
from app.contract.proposals import (
    ProposalAction,
    ProposalChoice,
    ProposalEnvelope,
    canonical_invocation,
    compact_payload,
    tool_call_invocation,
)
from app.renderer.present.proposal_card import proposal_entry
from app.renderer.timeline.items import ProposalItem, ToolCall
from app.renderer.timeline.proposal_rules import KEPT_PROPOSALS, MAX_INPUT_CHARS, KeptProposals
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import RowKey, apply_changes
from app.renderer.timeline.serialize import item_json, timeline_json, timeline_record, transcript
from app.renderer.timeline.store import TimelineStore
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, cancelled, settled, tool, user

EXE = "/opt/clawqt/bin/clawqt"
THIS_RUN = "a" * 32
EARLIER_RUN = "e" * 32


def channel(nonce: str = "1", instance: str = THIS_RUN) -> str:
    return f"v1.{instance}.{nonce * 32}"[: 3 + 32 + 1 + 32]


PAYLOAD = {
    "schema_version": 1,
    "origin": "terminal_agent",
    "recommended_choice": 2,
    "choices": [
        {
            "choice": 1,
            "title": "List",
            "rationale": "See the files",
            "actions": [{"type": "send", "input": "ls"}],
        },
        {
            "choice": 2,
            "title": "Run the tests",
            "rationale": "They say what broke",
            "actions": [
                {"type": "send", "input": "pytest -q"},
                {"type": "open", "cwd": "/work", "title": "logs"},
            ],
        },
    ],
}
CHOICES = (
    ProposalChoice(1, "List", "See the files", (ProposalAction("send", "ls"),)),
    ProposalChoice(
        2,
        "Run the tests",
        "They say what broke",
        (ProposalAction("send", "pytest -q"), ProposalAction("open", cwd="/work", title="logs")),
    ),
)


def invocation(channel_: str, payload: Any = PAYLOAD) -> str:
    text = payload if isinstance(payload, str) else compact_payload(payload)
    return canonical_invocation(EXE, channel_, text)


def cli_call(tool_id: str, channel_: str, historical: bool = False, payload: Any = PAYLOAD, **fields: Any):
    """The agent's tool call running the proposal CLI, as OpenClaw's exec sends it."""
    raw = {"command": invocation(channel_, payload)}
    return tool(tool_id, title="exec", kind="execute", rawInput=raw, historical=historical, **fields)


def envelope(
    proposal_id: str = "p1",
    state: str = "awaiting",
    *,
    turn: str = "m1",
    generation: int = GEN,
    session: str = KEY,
    reason: str = "",
    channel_: str = "",
) -> ProposalEnvelope:
    return ProposalEnvelope(
        session,
        generation,
        proposal_id,
        turn,
        "terminal_agent",
        CHOICES,
        2,
        state,  # type: ignore[arg-type]
        "term-1",
        "bash — ~/work",
        reason,
        channel_,
    )


def live_turn() -> Harness:
    """The user asked (m1), the agent said something and ran the CLI (still running)."""
    h = Harness()
    h.optimistic("m1", "what now?")
    return h(agent("Let me propose", "a1"), cli_call("cli", channel()))


# --- cards from the main side's envelopes -------------------------------------------------------------
def test_the_first_envelope_of_a_proposal_creates_its_card_at_the_end_inside_the_live_turn():
    h = live_turn()(envelope())
    assert h.ids == ["m1:0", "a1:0", "tool:cli", "proposal:p1"]
    card = h.item("proposal:p1")
    assert (card.state, card.turn_id, card.send_target_title) == ("awaiting", "m1", "bash — ~/work")
    assert h.row_kinds == ["user", "assistant-text", "proposal", "turn-footer"]
    row = next(r for r in h.timeline.rows if r.kind == "proposal")
    assert row.key == RowKey("block", "proposal:p1")
    assert row.group == h.timeline.grouping.group_of["a1:0"].ref  # the turn answering m1
    h(agent("after the card", "a1"))
    assert h.ids[-1] == "a1:1"  # the card closed the open segment like any process item


def test_a_card_alone_in_its_turn_still_makes_the_turn():
    h = Harness()
    h.optimistic("m1", "go")
    h(envelope())
    assert h.row_kinds == ["user", "proposal", "turn-footer"]


def test_later_envelopes_set_state_and_reason_and_the_first_final_state_is_the_answer():
    h = live_turn()(envelope())
    rows_before = list(h.timeline.rows)
    h(envelope(state="superseded", reason="You sent a newer message."))
    card = h.item("proposal:p1")
    assert (card.state, card.reason) == ("superseded", "You sent a newer message.")
    assert h.timeline.rows == rows_before  # the same row, changed in place
    h(envelope(state="confirmed"), envelope(state="awaiting"))
    assert h.item("proposal:p1").state == "superseded"
    assert h.ids.count("proposal:p1") == 1


def test_routing_a_new_card_needs_its_session_and_generation():
    h = live_turn()
    h(envelope("other-session", session="key-2"), envelope("old-gen", generation=GEN - 1))
    assert not [i for i in h.ids if i.startswith("proposal:")]
    assert h.timeline.ignored == 2


def test_routing_a_card_takes_updates_of_the_generation_it_was_made_in_after_a_reload():
    store = TimelineStore()
    store.load(LoadResult(KEY, 1, "/w", ()))
    store.apply(envelope(generation=1))
    timeline, _ = store.load(LoadResult(KEY, 2, "/w", ()))  # reloaded: a new generation
    assert timeline.items["proposal:p1"].state == "awaiting"
    store.apply(envelope(state="timed_out", generation=1))
    assert timeline.items["proposal:p1"].state == "timed_out"
    store.apply(envelope("p2", generation=1))  # a NEW card of the old generation is stale
    assert "proposal:p2" not in timeline.items


# --- the CLI's own tool call ----------------------------------------------------------------------------
def test_a_live_cli_call_draws_nothing_and_its_result_still_ends_its_tool_bookkeeping():
    h = live_turn()
    tool_item = h.item("tool:cli")
    assert isinstance(tool_item, ToolCall) and tool_item.proposal_call
    assert "tool" not in h.row_kinds and "tool-group" not in h.row_kinds
    h(tool("cli", "tool_call_update", status="completed"))
    assert h.item("tool:cli").status == "completed"
    h(tool("x", title="ls", kind="execute"), cli_call("cli2", channel("2")), tool("y", title="pwd"))
    tool_rows = [r for r in h.timeline.rows if r.kind in ("tool", "tool-group")]
    assert [r.item_ids for r in tool_rows] == [("tool:x", "tool:y")]  # never in a tool group
    h(cancelled("cli2"))
    assert h.item("tool:cli2").status == "cancelled"


def test_a_tool_call_whose_input_arrives_later_is_hidden_once_it_shows_the_cli():
    h = Harness()
    h.optimistic("m1", "go")
    h(tool("late", title="Bash", kind="execute"))  # Claude Code: the command comes in an update
    assert "tool" in h.row_kinds
    h(tool("late", "tool_call_update", rawInput={"command": invocation(channel())}))
    assert "tool" not in h.row_kinds


@pytest.mark.parametrize(
    "command",
    [
        invocation(channel()) + " ; rm -rf ~",
        invocation(channel()).replace(EXE, "$(rm -rf ~)/clawqt"),
        invocation(channel()).replace(EXE, "clawqt"),
        invocation(channel()).replace(" --payload-json", "\n --payload-json"),
        invocation(channel(), '{"a":"x\'; rm -rf ~; echo \'"}'),
        "echo " + invocation(channel()),
    ],
)
def test_a_command_that_only_looks_like_the_cli_stays_an_ordinary_tool_card(command):
    assert tool_call_invocation({"rawInput": {"command": command}}) is None
    h = Harness()(tool("t", title="exec", kind="execute", rawInput={"command": command}))
    assert h.row_kinds[0] == "tool"


def test_the_cli_call_is_read_where_the_permission_path_reads_a_command():
    line = invocation(channel())
    found = tool_call_invocation({"rawInput": {"command": ["bash", "-lc", line]}})
    assert found is not None and found.channel == channel()
    argv = [
        EXE,
        "propose-terminal-actions",
        "--channel",
        channel(),
        "--payload-json",
        compact_payload(PAYLOAD),
    ]
    assert tool_call_invocation({"rawInput": {"command": argv}}) is not None
    assert tool_call_invocation({"title": line}) is not None  # no rawInput at all: the title
    # a title saying the CLI while rawInput runs something else is what runs: shown
    assert tool_call_invocation({"title": line, "rawInput": {"command": "rm -rf ~"}}) is None


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


# --- what the card shows, and the serializer ---------------------------------------------------------------
def test_the_card_shows_the_recommended_choice_first_with_one_button_per_way_to_run():
    card = live_turn()(envelope()).item("proposal:p1")
    entry = proposal_entry(card)
    assert [c["choice"] for c in entry["cards"]] == [2, 1]
    first = entry["cards"][0]
    assert first["recommended"] and first["name"] == "Choice 2, recommended: Run the tests"
    send, opened = first["actions"]
    assert (send["command"], send["where"]) == ("pytest -q", "in bash — ~/work")
    assert [(b["label"], b["action"], b["run"], b["flat"]) for b in send["buttons"]] == [
        ("Run command", 0, True, 0),
        ("Insert in terminal", 0, False, 1),
    ]
    assert [(b["label"], b["action"], b["flat"]) for b in opened["buttons"]] == [("Open tab in /work", 1, 2)]
    assert first["buttonCount"] == 3
    assert all(b["name"] for c in entry["cards"] for a in c["actions"] for b in a["buttons"])
    both = replace(CHOICES[0], actions=(ProposalAction("open_and_send", "make", cwd="/src"),))
    card.choices = (both,)
    assert proposal_entry(card)["cards"][0]["actions"][0]["buttons"][0]["label"] == "Open tab in /src and run"


@pytest.mark.parametrize(
    ("state", "text", "pill"),
    [
        ("superseded", "Superseded by a newer message", "Superseded"),
        ("timed_out", "Timed out", "Timed out"),
        ("cancelled", "Cancelled", "Cancelled"),
        ("confirmed", "Confirmed: sent to bash — ~/work", "Confirmed"),
    ],
)
def test_a_card_that_ended_says_why_and_cannot_dispatch(state, text, pill):
    h = live_turn()(envelope(), envelope(state=state))
    entry = proposal_entry(h.item("proposal:p1"))
    assert (entry["stateText"], entry["pill"], entry["awaiting"]) == (text, pill, False)


def test_the_card_is_in_the_record_and_the_replay_json_and_the_cli_call_never_is_a_tool_card():
    h = live_turn()(envelope(), tool("cli", "tool_call_update", status="completed"))
    record = timeline_record(h.timeline)
    card = next(i for i in record["items"] if i["kind"] == "proposal")
    assert card["state"] == "awaiting" and [c["title"] for c in card["choices"]] == ["List", "Run the tests"]
    cli = next(i for i in record["items"] if i["id"] == "tool:cli")
    assert cli == {"kind": "tool", "id": "tool:cli", "status": "completed", "proposalCall": True}
    assert "propose-terminal-actions" not in str(record)
    assert item_json(h.item("tool:cli")) is None
    session = timeline_json(h.timeline, 0)
    turn = session["groups"][1]
    assert [i["kind"] for i in turn["items"]] == ["message", "proposal"]
    assert turn["items"][1]["proposal"]["choices"][1]["actions"][0]["input"] == "pytest -q"
    text = transcript([session])
    assert "- proposal (awaiting)" in text and "2. Run the tests (recommended)" in text
    assert "propose-terminal-actions" not in text


@pytest.mark.parametrize(
    ("state", "reason", "text", "below"),
    [
        ("confirmed", "Sent to bash — ~/work.", "Confirmed: sent to bash — ~/work", ""),
        ("superseded", "Superseded by a newer message.", "Superseded by a newer message", ""),
        (
            "timed_out",
            "Timed out: nobody answered within 10 minutes.",
            "Timed out: nobody answered within 10 minutes",
            "",
        ),
        (
            "unavailable",
            "The terminal is closed.",
            "Unavailable: the agent or ClawQt's proposal endpoint went away",
            "The terminal is closed.",
        ),
        (
            "session_replaced",
            "The chat's session was replaced.",
            "Ended: the chat's session was replaced",
            "",
        ),
    ],
)
def test_the_main_sides_reason_is_said_once(state, reason, text, below):
    h = live_turn()(envelope(), envelope(state=state, reason=reason))
    entry = proposal_entry(h.item("proposal:p1"))
    assert (entry["stateText"], entry["reason"]) == (text, below)
