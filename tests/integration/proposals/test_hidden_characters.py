"""A proposal whose command holds a hidden character, through the real pipeline: the real
`clawqt propose-terminal-actions` process against the real endpoint. Every class of
app/contract/hidden_characters.py is refused: the agent's one line says which character and why
(retryable), the user gets a `refused` card showing it, and nothing reaches the terminal."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.contract.proposals import ProposalEnvelope, canonical_invocation, compact_payload
from tests.integration.proposals.pipeline_support import OPTIONS, exec_call, payload, run_cli

CLASSES = [
    ("\t", "a tab (U+0009)"),  # a shell completes it: the card showed "rm -r build" and "build/" ran
    ("\x1b", "an escape (ESC) (U+001B)"),
    ("\x9b", "a C1 control character (U+009B)"),
    ("\u202e", "a bidirectional control (U+202E)"),
    ("\u200b", "an invisible character (U+200B)"),
    ("\u2028", "a line separator (U+2028)"),
]


@pytest.mark.parametrize(("char", "described"), CLASSES)
async def test_a_hidden_character_in_a_proposal_is_refused_with_a_card_saying_why(pipeline, char, described):
    service, terminals, envelopes, _live, executable, tmp_path = pipeline
    terminal = terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    marker = tmp_path / "never"
    typed = f"touch {marker}{char}x"
    command = canonical_invocation(executable, channel, compact_payload(payload(typed)))
    assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
    cli = await run_cli(command)
    out, err = await asyncio.wait_for(cli.communicate(), 30)
    assert cli.returncode == 0, err
    [line] = [json.loads(text) for text in out.decode().splitlines()]
    assert (line["status"], line["retryable"]) == ("invalid_schema", True)
    assert line["reason"].startswith(f"choices[0].actions[0].input holds {described} at position ")
    cards = [e for e in envelopes if isinstance(e, ProposalEnvelope)]
    assert [(card.state, card.session_key, card.reason) for card in cards] == [
        ("refused", "chat-a", line["reason"])
    ]
    assert cards[0].choices[0].actions[0].input == typed  # the card writes it out
    assert not service.confirm(cards[0].proposal_id, 1, 0)  # nothing to run
    assert service.channels.awaiting() == []  # no card a key could confirm
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not marker.exists() and terminals.info(terminal) is not None
