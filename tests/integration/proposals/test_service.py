"""The whole proposal pipeline on the owner side, with real parts: a prompt's channel and canonical
command, the silent permission answer, the real `clawqt propose-terminal-actions` process against the
real endpoint, the card envelope, the user's confirmation typing into a real shell, and the CLI's two
lines (tests/ui/cards/test_proposal_card_window.py shows the card; tests/integration/proposals/test_cli.py the
transport)."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from app.contract.proposals import (
    ProposalEnvelope,
    ProposalNoticeEnvelope,
    canonical_invocation,
    compact_payload,
)
from app.main.proposals.channels import MAX_RETRIES
from tests.integration.proposals.pipeline_support import (
    OPTIONS,
    cli_lines,
    exec_call,
    payload,
    run_cli,
    status_of_line,
)
from tests.waits import until

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX sockets and shells")


async def test_the_canonical_command_is_allowed_silently_runs_and_the_users_confirmation_types_it(pipeline):
    service, terminals, envelopes, _live, executable, tmp_path = pipeline
    terminal = terminals.open(None, 0, 80, 24)  # the terminal the user used last: the send target
    context = service.prompt_context("chat-a", 1, "turn-1")
    channel = context.split("--channel ")[1].split(" ")[0]
    marker = tmp_path / "proposed-marker"
    command = canonical_invocation(executable, channel, compact_payload(payload(f"touch {marker}")))
    assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"  # never Always
    cli = await run_cli(command)
    first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert first["phase"] == "validation" and first["status"] == "accepted", first
    card = next(e for e in envelopes if isinstance(e, ProposalEnvelope))
    assert (
        card.state == "awaiting" and card.send_target == terminal and card.proposal_id == first["proposal_id"]
    )
    assert cli.returncode is None  # still waiting for the user
    assert not marker.exists()
    assert service.confirm(card.proposal_id, 1, 0, run=True)
    second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert second == {"phase": "final", "status": "confirmed", "proposal_id": card.proposal_id}
    assert await asyncio.wait_for(cli.wait(), 15) == 0
    await until(marker.exists, 4)
    assert marker.exists()
    assert not service.confirm(card.proposal_id, 1, 0)  # once: a second confirmation does nothing
    assert envelopes[-1].state == "confirmed"


async def test_a_cancelled_card_tells_the_cli_and_runs_nothing(pipeline):
    service, terminals, _envelopes, _live, executable, tmp_path = pipeline
    terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    marker = tmp_path / "never"
    command = canonical_invocation(executable, channel, compact_payload(payload(f"touch {marker}")))
    assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
    cli = await run_cli(command)
    first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    service.cancel(first["proposal_id"])
    second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert second["status"] == "cancelled"
    assert not service.confirm(first["proposal_id"], 1, 0)
    await cli.wait()
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not marker.exists()


@pytest.mark.parametrize(
    "shape",
    [
        "{cmd} | cat",
        "{cmd} > /tmp/out",
        "{cmd}; touch x",
        "{cmd} && true",
        "{cmd} --extra",
        "echo x | {cmd}",
        "bash -c {quoted}",
    ],
)
async def test_other_forms_of_the_command_are_cancelled_silently(pipeline, shape):
    import shlex

    service, terminals, _envelopes, _live, executable, _tmp = pipeline
    terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    command = canonical_invocation(executable, channel, compact_payload(payload("true")))
    variant = shape.format(cmd=command, quoted=shlex.quote(command))
    assert service.on_permission("chat-a", exec_call(variant), OPTIONS) == ""


async def test_an_unrelated_command_goes_to_the_user_and_another_chats_channel_is_not_armed(pipeline):
    service, terminals, _envelopes, _live, executable, _tmp = pipeline
    terminals.open(None, 0, 80, 24)
    assert service.on_permission("chat-a", exec_call("ls -la"), OPTIONS) is None
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    command = canonical_invocation(executable, channel, compact_payload(payload("true")))
    assert service.on_permission("chat-b", exec_call(command), OPTIONS) == ""
    without_once = [o for o in OPTIONS if o["kind"] != "allow_once"]
    assert service.on_permission("chat-a", exec_call(command), without_once) == ""


async def test_an_agent_that_runs_the_command_without_asking_gets_its_card_once(pipeline):
    service, terminals, envelopes, _live, executable, tmp_path = pipeline
    terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    marker = tmp_path / "direct-marker"
    command = canonical_invocation(executable, channel, compact_payload(payload(f"touch {marker}")))
    cli = await run_cli(command)  # no permission asked: the message armed its channel
    first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert first["status"] == "accepted", first
    card = next(e for e in envelopes if isinstance(e, ProposalEnvelope))
    assert card.state == "awaiting" and card.session_key == "chat-a"
    assert status_of_line(await cli_lines(command, 1)) == "already_consumed"  # one use
    assert not marker.exists()
    assert service.confirm(card.proposal_id, 1, 0, run=True)
    second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert second["status"] == "confirmed"
    await asyncio.wait_for(cli.wait(), 15)
    await until(marker.exists, 4)
    assert marker.exists()


async def test_two_chats_propose_at_once_and_a_message_in_one_supersedes_only_its_own(pipeline):
    service, terminals, envelopes, _live, executable, _tmp = pipeline
    terminals.open(None, 0, 80, 24)
    clis = {}
    for key in ("chat-a", "chat-b"):
        channel = service.prompt_context(key, 1, "turn-1").split("--channel ")[1].split(" ")[0]
        command = canonical_invocation(executable, channel, compact_payload(payload(f"echo {key}")))
        assert service.on_permission(key, exec_call(command), OPTIONS) == "yes-once"
        clis[key] = await run_cli(command)
    for key, cli in clis.items():
        line = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
        assert line["status"] == "accepted", (key, line)
    cards = {e.session_key: e for e in envelopes if isinstance(e, ProposalEnvelope)}
    assert set(cards) == {"chat-a", "chat-b"}
    service.prompt_context("chat-b", 1, "turn-1")  # chat-b's next message
    final_b = json.loads(await asyncio.wait_for(clis["chat-b"].stdout.readline(), 15))
    assert final_b["status"] == "superseded"
    assert [p.session_key for p in service.channels.awaiting()] == ["chat-a"]
    service.cancel(cards["chat-a"].proposal_id)
    final_a = json.loads(await asyncio.wait_for(clis["chat-a"].stdout.readline(), 15))
    assert final_a["status"] == "cancelled"
    for cli in clis.values():
        await asyncio.wait_for(cli.wait(), 15)


async def test_a_proposal_that_cannot_be_shown_is_said_on_its_chat(pipeline):
    service, terminals, envelopes, _live, executable, _tmp = pipeline
    terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    good = canonical_invocation(executable, channel, compact_payload(payload("true")))

    def notices() -> list[str]:
        return [
            e.text for e in envelopes if isinstance(e, ProposalNoticeEnvelope) and e.session_key == "chat-a"
        ]

    assert service.on_permission("chat-a", exec_call(good + " | sh"), OPTIONS) == ""
    assert "ClawQt cancelled its command" in notices()[-1] and "exactly as given" in notices()[-1]
    without_once = [o for o in OPTIONS if o["kind"] != "allow_once"]
    assert service.on_permission("chat-a", exec_call(good), without_once) == ""
    assert "never allows it always" in notices()[-1]
    assert service.on_permission("chat-a", exec_call(good), OPTIONS) == "yes-once"
    other = canonical_invocation(executable, channel, compact_payload(payload("echo other")))
    for _ in range(MAX_RETRIES):
        assert status_of_line(await cli_lines(other, 1)) == "digest_mismatch"
    told = len(notices())
    assert status_of_line(await cli_lines(other, 1)) == "rejected"
    assert len(notices()) == told + 1 and "retries are used up" in notices()[-1]


async def test_a_new_prompt_supersedes_a_waiting_card_and_the_cli_hears_it(pipeline):
    service, terminals, envelopes, live, executable, _tmp = pipeline
    terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    command = canonical_invocation(executable, channel, compact_payload(payload("true")))
    service.on_permission("chat-a", exec_call(command), OPTIONS)
    cli = await run_cli(command)
    first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert first["status"] == "accepted"
    live["turn"] = "turn-2"
    service.prompt_context("chat-a", 1, "turn-2")
    second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert second["status"] == "superseded"
    assert envelopes[-1].state == "superseded" and not service.confirm(first["proposal_id"], 1, 0)
    await cli.wait()


async def test_stopping_the_service_makes_a_waiting_cli_hear_unavailable(pipeline):
    service, terminals, _envelopes, _live, executable, _tmp = pipeline
    terminals.open(None, 0, 80, 24)
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    command = canonical_invocation(executable, channel, compact_payload(payload("true")))
    service.on_permission("chat-a", exec_call(command), OPTIONS)
    cli = await run_cli(command)
    assert json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))["status"] == "accepted"
    service.agent_gone()
    assert json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))["status"] == "unavailable"
    await cli.wait()
