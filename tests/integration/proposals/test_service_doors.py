"""The proposal pipeline's other doors and ends: the MCP tool taking the same validation and card,
a confirmed open_and_send opening a terminal in its folder, an open outside the workspace, and a
machine without Unix sockets (proposals off, nothing offered)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import tempfile

import pytest

from app.contract.proposals import (
    ProposalEnvelope,
    canonical_invocation,
    compact_payload,
)
from app.main.proposals.service import ProposalService, clawqt_executable
from app.main.terminals.user import UserTerminals
from tests.integration.proposals.pipeline_support import (
    OPTIONS,
    accepted_proposal,
    exec_call,
    payload,
)
from tests.waits import until

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX sockets and shells")


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
        await until(marker.exists, 4)
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
    await until(marker.exists, 4)
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
