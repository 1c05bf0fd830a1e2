"""A proposal's `open` with `target: "panel"`, through the real CLI and real shells: it opens a split
pane beside the terminal the user used last, on the side it names, with the login shell its profile
names; a profile that is no shell here opens the user's own shell and the card says so first."""

from __future__ import annotations

import asyncio

import pytest

from app.contract.proposals import ProposalEnvelope
from app.main.terminals.profiles import system_shells
from app.renderer.present.proposal_card import proposal_entry
from app.renderer.timeline.items import ProposalItem
from tests.integration.proposals.pipeline_support import accepted_proposal, payload


async def confirmed_terminal(service, terminals, proposal_id, cli):
    """The user confirms the proposal's first action; the terminal it opened, once the CLI heard it."""
    assert service.confirm(proposal_id, 1, 0)
    await asyncio.wait_for(cli.wait(), 15)
    return terminals.terminals()[-1]


def split_body(tmp_path, **place) -> dict:
    body = payload("true")
    body["choices"][0]["actions"] = [
        {"type": "open_and_send", "target": "panel", "cwd": str(tmp_path), "input": "echo shell=$0", **place}
    ]
    return body


def shown(card: ProposalEnvelope) -> dict:
    """The card's first button as the window shows it."""
    item = ProposalItem(id="p", proposal_id=card.proposal_id, choices=card.choices, state=card.state)
    return proposal_entry(item)["cards"][0]["actions"][0]["buttons"][0]


def card_of(envelopes, proposal_id) -> ProposalEnvelope:
    return [e for e in envelopes if isinstance(e, ProposalEnvelope) and e.proposal_id == proposal_id][-1]


async def output_has(terminals, terminal_id: str, text: str) -> None:
    for _ in range(300):
        if text in terminals.output(terminal_id).replace("\r", ""):
            return
        await asyncio.sleep(0.02)  # the poll's interval
    raise AssertionError(f"{text!r} not in {terminals.output(terminal_id)!r}")


@pytest.mark.skipif("dash" not in system_shells(), reason="dash is not a login shell here")
async def test_a_split_opens_beside_the_users_terminal_on_its_side_with_its_profiles_shell(pipeline):
    service, terminals, envelopes, _live, executable, tmp_path = pipeline
    used_last = terminals.open(None, 0, 80, 24)
    proposal_id, cli = await accepted_proposal(
        service, executable, split_body(tmp_path, direction="left", profile="dash")
    )
    assert shown(card_of(envelopes, proposal_id))["label"] == f"Split left in {tmp_path} with dash and run"
    opened = await confirmed_terminal(service, terminals, proposal_id, cli)
    assert (opened.split_of, opened.split_direction, opened.shell) == (used_last, "left", "dash")
    await output_has(terminals, opened.terminal_id, "shell=/bin/dash")


async def test_a_profile_that_is_no_shell_here_opens_the_users_own_and_the_card_says_so(pipeline):
    service, terminals, envelopes, _live, executable, tmp_path = pipeline
    used_last = terminals.open(None, 0, 80, 24)
    proposal_id, cli = await accepted_proposal(
        service, executable, split_body(tmp_path, profile="no-such-shell")
    )
    card = card_of(envelopes, proposal_id)
    assert card.choices[0].actions[0].profile_missing
    label = shown(card)["label"]
    assert label == f"Open split in {tmp_path} with your own shell (no no-such-shell shell here) and run"
    opened = await confirmed_terminal(service, terminals, proposal_id, cli)
    assert (opened.split_of, opened.split_direction, opened.shell) == (used_last, "auto", "sh")
    await output_has(terminals, opened.terminal_id, "shell=/bin/sh")


async def test_a_split_with_no_terminal_open_becomes_a_tab_and_a_tab_stays_a_tab(pipeline):
    service, terminals, _envelopes, _live, executable, tmp_path = pipeline
    proposal_id, cli = await accepted_proposal(service, executable, split_body(tmp_path))
    assert (await confirmed_terminal(service, terminals, proposal_id, cli)).split_of is None
    body = split_body(tmp_path)
    body["choices"][0]["actions"][0]["target"] = "tab"
    proposal_id, cli = await accepted_proposal(service, executable, body)
    assert (await confirmed_terminal(service, terminals, proposal_id, cli)).split_of is None
