"""The whole proposal pipeline on the owner side, with real parts: a prompt's channel and canonical
command, the silent permission answer, the real `clawqt propose-terminal-actions` process against the
real endpoint, the card envelope, the user's confirmation typing into a real shell, and the CLI's two
lines (tests/ui/cards/test_proposal_card_window.py shows the card; tests/integration/proposals/test_cli.py the
transport)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path

import pytest

from app.contract.proposals import (
    ProposalEnvelope,
    ProposalNoticeEnvelope,
    canonical_invocation,
    compact_payload,
)
from app.main.proposals.channels import MAX_RETRIES
from app.main.proposals.service import ProposalService, clawqt_executable
from app.main.terminals.user import UserTerminals

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX sockets and shells")

OPTIONS = [
    {"optionId": "yes-once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "yes-always", "name": "Always", "kind": "allow_always"},
    {"optionId": "no", "name": "Deny", "kind": "reject_once"},
]


def payload(command: str) -> dict:
    return {
        "schema_version": 1,
        "origin": "terminal_agent",
        "recommended_choice": 1,
        "choices": [
            {
                "choice": 1,
                "title": "Mark it",
                "rationale": "Writes a marker file.",
                "actions": [{"type": "send", "input": command}],
            }
        ],
    }


@pytest.fixture
async def pipeline(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PS1", "$ ")
    runtime = tempfile.mkdtemp(prefix="cq", dir="/tmp")  # a socket path must stay short
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    executable = clawqt_executable()
    assert executable is not None, "the clawqt console script is installed with the package"
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    envelopes: list = []
    live = {"turn": "turn-1"}
    service = ProposalService(
        terminals, envelopes.append, lambda key, generation, turn: turn == live["turn"], executable
    )
    await service.start()
    assert service.available, service.problem
    yield service, terminals, envelopes, live, executable, tmp_path
    await service.stop()
    await terminals.shutdown()
    shutil.rmtree(runtime, ignore_errors=True)


def exec_call(command: str) -> dict:
    """OpenClaw's exec tool as a permission request carries it."""
    return {"toolCallId": "c1", "title": "exec", "kind": "execute", "rawInput": {"command": command}}


async def run_cli(command: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        "/bin/sh", "-c", command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )


async def accepted_proposal(service, executable, body) -> tuple[str, asyncio.subprocess.Process]:
    """chat-a's message proposes `body` through the real CLI, allowed as the exec tool asks: the
    accepted proposal's id and the CLI, still waiting for the user's decision."""
    channel = service.prompt_context("chat-a", 1, "turn-1").split("--channel ")[1].split(" ")[0]
    command = canonical_invocation(executable, channel, compact_payload(body))
    assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
    cli = await run_cli(command)
    first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert first["status"] == "accepted", first
    return first["proposal_id"], cli


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
    for _ in range(200):
        if marker.exists():
            break
        await asyncio.sleep(0.02)  # the poll's interval
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


async def cli_lines(command: str, expect: int) -> list[dict]:
    process = await run_cli(command)
    lines = []
    for _ in range(expect):
        raw = await asyncio.wait_for(process.stdout.readline(), 15)
        if not raw:
            break
        lines.append(json.loads(raw))
    await asyncio.wait_for(process.wait(), 15)
    return lines


def status_of_line(lines: list[dict]) -> str:
    return lines[0]["status"]


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
    for _ in range(200):
        if marker.exists():
            break
        await asyncio.sleep(0.02)  # the poll's interval
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


def test_the_executable_offered_is_an_absolute_path_that_exists():
    executable = clawqt_executable()
    assert executable is not None and os.path.isabs(executable) and os.access(executable, os.X_OK)
    assert sys.executable  # the console script sits beside this interpreter in a venv install


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


async def test_every_validation_status_is_reached_by_a_real_request_through_the_service(
    tmp_path, monkeypatch
):
    """The real CLI against the real endpoint and service: each refusal of the seed's order."""
    from app.contract.proposals import MAX_PAYLOAD_BYTES

    monkeypatch.setenv("PS1", "$ ")
    runtime = tempfile.mkdtemp(prefix="cq", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    executable = clawqt_executable()
    clock = Clock()
    live = {"turn": "t1"}
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    service = ProposalService(
        terminals, lambda envelope: None, lambda k, g, turn: turn == live["turn"], executable, clock
    )
    await service.start()
    terminals.open(None, 0, 80, 24)

    def issue(turn: str) -> str:
        live["turn"] = turn
        return service.prompt_context("chat-a", 1, turn).split("--channel ")[1].split(" ")[0]

    def status_of(lines: list[dict]) -> str:
        return lines[0]["status"]

    good = compact_payload(payload("true"))
    try:
        channel = issue("t1")
        instance = channel.split(".")[1]
        # a well-formed channel of this instance that was never issued
        never = f"v1.{instance}.{'0' * 32}"
        assert (
            status_of(await cli_lines(canonical_invocation(executable, never, good), 1)) == "unknown_channel"
        )
        # armed, then the 30 s lease passes
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        clock.now += 31
        expired = await cli_lines(command, 1)
        assert status_of(expired) == "expired" and expired[0]["retryable"] is True
        # a permission armed it: only a permission arms it again
        assert status_of(await cli_lines(command, 1)) == "not_armed"
        # armed for one payload, another sent: digest mismatch (the same command line is what was allowed)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        other = canonical_invocation(executable, channel, compact_payload(payload("echo other")))
        assert status_of(await cli_lines(other, 1)) == "digest_mismatch"
        # a payload naming a pane: invalid schema (armed for exactly that payload)
        naming = payload("true")
        naming["choices"][0]["actions"][0]["pane"] = "left"
        pane_command = canonical_invocation(executable, channel, compact_payload(naming))
        assert service.on_permission("chat-a", exec_call(pane_command), OPTIONS) == "yes-once"
        assert status_of(await cli_lines(pane_command, 1)) == "invalid_schema"
        # accepted, then the same request again: already consumed
        channel = issue("t2")
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        accepted_cli = await run_cli(command)
        first = json.loads(await asyncio.wait_for(accepted_cli.stdout.readline(), 15))
        assert first["status"] == "accepted"
        assert status_of(await cli_lines(command, 1)) == "already_consumed"
        service.cancel(first["proposal_id"])
        await accepted_cli.wait()
        # a channel superseded by a newer prompt
        old = issue("t3")
        issue("t4")
        assert status_of(await cli_lines(canonical_invocation(executable, old, good), 1)) == "superseded"
        # another instance's channel sent to this instance's socket (the CLI would look elsewhere)
        foreign = f"v1.{'a' * 32}.{'b' * 32}"
        reader, writer = await asyncio.open_unix_connection(service.endpoint.path)
        writer.write(json.dumps({"version": 1, "channel": foreign, "payload": good}).encode() + b"\n")
        await writer.drain()
        answer = json.loads(await asyncio.wait_for(reader.readline(), 15))
        writer.close()
        assert answer["status"] == "helper_mismatch"
        # an oversized payload (armed: still refused, retryable)
        big = payload("x" * 7000)
        big["choices"][0]["rationale"] = "y" * 1500
        big_text = compact_payload(big)
        assert len(big_text.encode()) > MAX_PAYLOAD_BYTES
        channel = issue("t5")
        big_command = canonical_invocation(executable, channel, big_text)
        service.on_permission("chat-a", exec_call(big_command), OPTIONS)
        oversized = await cli_lines(big_command, 1)
        assert status_of(oversized) == "invalid_schema" and oversized[0]["retryable"] is True
        # digest failures past the budget of 2: rejected
        channel = issue("t6")
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == "yes-once"
        wrong = canonical_invocation(executable, channel, compact_payload(payload("echo nope")))
        statuses = [status_of(await cli_lines(wrong, 1)) for _ in range(3)]
        assert statuses == ["digest_mismatch", "digest_mismatch", "rejected"]
        # the prompt is no longer current when the permission comes: not armed, the channel is stale
        channel = issue("t7")
        live["turn"] = "a later turn"
        command = canonical_invocation(executable, channel, good)
        assert service.on_permission("chat-a", exec_call(command), OPTIONS) == ""
        assert status_of(await cli_lines(command, 1)) == "stale"
    finally:
        await service.stop()
        await terminals.shutdown()
        shutil.rmtree(runtime, ignore_errors=True)


async def test_the_mcp_tool_door_takes_the_same_validation_and_card_and_answers_the_decision(
    tmp_path, monkeypatch
):
    """`propose_terminal_actions` through the real loopback server and the SDK's own client."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from app.main.participation.service import TerminalParticipation

    monkeypatch.setenv("PS1", "$ ")
    runtime = tempfile.mkdtemp(prefix="cq", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    envelopes: list = []
    service = ProposalService(terminals, envelopes.append, lambda k, g, t: True, clawqt_executable())
    participation = TerminalParticipation(
        terminals, lambda _key: "Agent", tmp_path / "data", proposals=service
    )
    await service.start()
    url = await participation.start()
    terminal = terminals.open(None, 0, 80, 24)
    marker = tmp_path / "tool-marker"
    try:
        token = participation.capabilities.mint_for_user_message("chat-a").token
        headers = {"Authorization": f"Bearer {participation.install_secret}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            streamable_http_client(url, http_client=http) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()

            async def propose(body: dict) -> dict:
                result = await session.call_tool(
                    "propose_terminal_actions", {"contextToken": token, "payload": body}
                )
                return json.loads(result.content[0].text)

            # no message of this chat issued a channel yet
            assert (await propose(payload("true")))["validation"]["status"] == "not_armed"
            service.prompt_context("chat-a", 1, "turn-1")
            naming = payload("true")
            naming["choices"][0]["actions"][0]["pane"] = "left"
            assert (await propose(naming))["validation"]["status"] == "invalid_schema"
            service.prompt_context("chat-a", 1, "turn-2")
            calling = asyncio.ensure_future(propose(payload(f"touch {marker}")))
            for _ in range(300):
                cards = [e for e in envelopes if isinstance(e, ProposalEnvelope)]
                if cards:
                    break
                await asyncio.sleep(0.02)  # the poll's interval
            card = cards[0]
            assert card.state == "awaiting" and card.send_target == terminal and not marker.exists()
            assert service.confirm(card.proposal_id, 1, 0)
            answer = await asyncio.wait_for(calling, 30)
            assert answer["validation"]["status"] == "accepted"
            assert answer["decision"] == {
                "phase": "final",
                "status": "confirmed",
                "proposal_id": card.proposal_id,
            }
        for _ in range(200):
            if marker.exists():
                break
            await asyncio.sleep(0.02)  # the poll's interval
        assert marker.exists()
    finally:
        await participation.stop()
        await service.stop()
        await terminals.shutdown()
        shutil.rmtree(runtime, ignore_errors=True)


async def test_confirming_open_and_send_opens_a_terminal_in_its_folder_that_runs_it(pipeline):
    service, terminals, _envelopes, _live, executable, tmp_path = pipeline
    (tmp_path / "sub").mkdir()
    marker = tmp_path / "sub" / "opened-marker"
    body = payload("true")
    body["choices"][0]["actions"] = [
        {
            "type": "open_and_send",
            "target": "tab",
            "cwd": str(tmp_path / "sub"),
            "input": "touch opened-marker",
        }
    ]
    proposal_id, cli = await accepted_proposal(service, executable, body)
    assert service.confirm(proposal_id, 1, 0)
    second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert second["status"] == "confirmed"
    await cli.wait()
    opened = terminals.terminals()[-1]
    assert opened.cwd == str((tmp_path / "sub").resolve()) and opened.state == "running"
    for _ in range(200):
        if marker.exists():
            break
        await asyncio.sleep(0.02)  # the poll's interval
    assert marker.exists()


async def test_an_open_outside_the_workspace_never_opens_and_the_cli_hears_unavailable(pipeline):
    service, terminals, _envelopes, _live, executable, _tmp = pipeline
    body = payload("true")
    body["choices"][0]["actions"] = [{"type": "open", "target": "tab", "cwd": "/"}]
    proposal_id, cli = await accepted_proposal(service, executable, body)
    assert not service.confirm(proposal_id, 1, 0)
    second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
    assert second["status"] == "unavailable"
    await cli.wait()
    assert terminals.terminals() == []


async def test_without_unix_sockets_proposals_are_off_and_no_prompt_offers_the_command(tmp_path, monkeypatch):
    """A system without Unix sockets or uids (Windows: its named-pipe endpoint is not built) fails
    closed: no endpoint, no hidden block telling agents a command that could not reach ClawQt, and a
    command that looks like one is cancelled, never run and never asked."""
    monkeypatch.delattr(socket, "AF_UNIX")
    monkeypatch.delattr(os, "getuid")
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    executable = "/opt/ClawQt/clawqt"
    service = ProposalService(terminals, [].append, lambda *turn: True, executable)
    await service.start()
    assert not service.available
    assert "Terminal-action proposals are off" in service.problem and "Unix socket" in service.problem
    assert service.prompt_context("chat-a", 1, "turn-1") is None
    command = canonical_invocation(executable, f"v1.{'a' * 32}.{'b' * 32}", compact_payload(payload("ls")))
    assert service.on_permission("chat-a", exec_call(command), OPTIONS) == ""
    await service.stop()
    await terminals.shutdown()
