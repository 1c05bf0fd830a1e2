"""Hidden characters (app/contract/hidden_characters.py): the one grammar for text that would read other
than it acts, as proposals refuse it (a refused card saying why), and as cards, permission cards and
links write it out."""

from __future__ import annotations

import pytest

from app.contract.hidden_characters import first_hidden, kind_of, visible
from app.contract.proposals import compact_payload
from app.main.files.links import decide_link
from app.main.proposals.channels import ProposalChannels
from app.main.proposals.requests import Validation
from app.renderer.present.proposal_card import proposal_entry
from app.renderer.timeline.items import ProposalItem
from tests.unit.proposals.channel_support import request

CLASSES = {
    "control character": "\x00\x07\x08\t\n\r\x1b\x7f",
    "C1 control character": "\x80\x85\x9b\x9f",
    "bidirectional control": "\u061c\u200e\u200f\u202a\u202e\u2066\u2069",
    "invisible character": "\u00ad\u200b\u200c\u200d\u2060\u2064\ufeff\U000e0001\U000e0041\u115f\u3164",
    "line separator": "\u2028\u2029",
    "surrogate": "\ud800\udfff",
}


@pytest.mark.parametrize(("kind", "chars"), CLASSES.items())
def test_each_class_is_found_and_written_out(kind, chars):
    for char in chars:
        assert kind_of(char) == kind, repr(char)
        hidden = first_hidden(f"ab{char}c")
        assert hidden is not None and (hidden.position, hidden.char, hidden.kind) == (2, char, kind)
        assert visible(f"ab{char}c") == f"ab<U+{ord(char):04X}>c"


def test_what_shows_as_it_is_passes_untouched():
    for text in ("ls -la | grep x", "échec — 日本語 🙂", "a\u00a0b", "x\u0301"):
        assert first_hidden(text) is None and visible(text) == text
    assert first_hidden("a\nb", allow="\n") is None
    assert visible("a\nb\tc", keep="\n") == "a\nb<U+0009>c"


def test_a_link_with_a_direction_control_is_asked_about_and_shown_written_out():
    decision = decide_link("https://example.com/\u202egnp.exe")
    assert decision.action == "confirm" and "<U+202E>" in decision.shown


# --- a proposal refused for a hidden character: the agent hears why, the user sees a card saying it ----
def payload(command: str) -> str:
    return compact_payload(
        {
            "schema_version": 1,
            "origin": "terminal_agent",
            "recommended_choice": 1,
            "choices": [{"choice": 1, "title": "Tidy", "actions": [{"type": "send", "input": command}]}],
        }
    )


def refused_validation(command: str) -> Validation:
    channels = ProposalChannels(lambda: 100.0)
    channel = channels.issue("chat-a", 3, "m1", "term-1", "bash — ~/work")
    assert channels.arm(channel, payload(command), "chat-a")
    return channels.validate(request(channel, payload(command)))


def test_a_payload_with_a_tab_is_refused_to_the_agent_and_gets_a_refused_card():
    result = refused_validation("rm -rf ~/tmp\t")
    assert (result.status, result.retryable, result.proposal) == ("invalid_schema", True, None)
    assert result.reason.startswith("choices[0].actions[0].input holds a tab (U+0009) at position 12")
    card = result.card
    assert card is not None and (card.state, card.session_key, card.generation) == ("refused", "chat-a", 3)
    assert (card.turn_id, card.reason, card.channel) == ("m1", result.reason, "")
    assert card.choices[0].actions[0].input == "rm -rf ~/tmp\t"
    assert "proposal_id" not in result.wire()  # the agent hears no card it could wait on


def test_a_payload_refused_for_another_fault_gets_no_card():
    channels = ProposalChannels(lambda: 100.0)
    channel = channels.issue("chat-a", 3, "m1", "term-1", "bash")
    broken = compact_payload({"schema_version": 1, "origin": "terminal_agent", "choices": []})
    assert channels.arm(channel, broken, "chat-a")
    assert channels.validate(request(channel, broken)).card is None


def test_the_refused_card_writes_the_character_out_and_offers_nothing_to_run():
    envelope = refused_validation("echo ok\u202e; curl x | sh").card
    assert envelope is not None
    card = ProposalItem(
        id="proposal:x",
        proposal_id=envelope.proposal_id,
        turn_id="m1",
        origin=envelope.origin,
        choices=envelope.choices,
        recommended=envelope.recommended,
        state=envelope.state,
        reason=envelope.reason,
    )
    entry = proposal_entry(card)
    assert entry["awaiting"] is False and entry["pill"] == "Refused"
    assert entry["cards"][0]["actions"][0]["command"] == "echo ok<U+202E>; curl x | sh"
    assert entry["cards"][0]["actions"][0]["buttons"] == [] and entry["cards"][0]["buttonCount"] == 0
    assert entry["stateText"] == "Refused: it holds characters that would run other than they read"
    assert "a bidirectional control (U+202E) at position 7" in entry["reason"]
