"""The reducer's rules for terminal-action proposal cards (app/renderer/timeline/proposal_rules.py), what
the card shows (app/renderer/present/proposal_card.py), the serializer, and the contract's reading of a
tool call that runs the proposal CLI (test_proposal_history.py: replayed history and the store)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.contract.envelopes import LoadResult
from app.contract.proposals import (
    ProposalAction,
    compact_payload,
    tool_call_invocation,
)
from app.renderer.present.proposal_card import proposal_entry
from app.renderer.timeline.items import ToolCall
from app.renderer.timeline.rows import RowKey
from app.renderer.timeline.serialize import item_json, timeline_json, timeline_record, transcript
from app.renderer.timeline.store import TimelineStore
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, cancelled, tool
from tests.unit.timeline.proposal_helpers import (
    CHOICES,
    EXE,
    PAYLOAD,
    channel,
    cli_call,
    envelope,
    invocation,
    live_turn,
)


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
