"""Delivery of the user's terminals to agents: the per-prompt hidden context (capability, snapshots in
human-recency order, 4 KiB each, shared output only, built at send time), per-session MCP servers for
agents that take them, the install settings, and connecting OpenClaw with its own command."""

from __future__ import annotations

import asyncio
import os
import re
import stat
from pathlib import Path

import pytest

from app.contract.envelopes import AgentInfo
from app.contract.hidden_context import CLOSE, OPEN
from app.main.openclaw.mcp_connect import mcp_set_argv, openclaw_cli, run_mcp_set, shown_command
from app.main.participation.service import MAX_SNAPSHOTS, SNAPSHOT_BYTES, TerminalParticipation
from app.main.terminals.user import UserTerminals

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX shells")

HTTP_AGENT = AgentInfo("http-agent", None, None, 1, {"mcpCapabilities": {"http": True}})
OPENCLAW = AgentInfo("openclaw-acp", None, None, 1, {"mcpCapabilities": {"http": False}})


@pytest.fixture
async def access(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PS1", "$ ")
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    participation = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")
    assert await participation.start() is not None, participation.problem
    yield terminals, participation
    await participation.stop()
    await terminals.shutdown()


async def shell_printed(terminals: UserTerminals, terminal_id: str, text: str) -> None:
    for _ in range(300):
        if text in terminals.output(terminal_id):
            return
        await asyncio.sleep(0.02)  # the poll's interval
    raise AssertionError(f"{text!r} never printed")


def snapshot_ids(context: str) -> list[str]:
    return re.findall(r"--- terminal (t\d+) ", context)


async def test_no_context_for_an_agent_that_cannot_reach_the_tools(access):
    _terminals, participation = access
    assert participation.prompt_context(OPENCLAW, "chat-a") is None  # not connected
    assert participation.prompt_context(HTTP_AGENT, "chat-a") is None  # no server given to this chat
    assert participation.capabilities.live_count() == 0  # nothing minted for nothing


async def test_a_session_that_got_the_server_has_a_context_with_a_working_capability(access):
    _terminals, participation = access
    servers = participation.mcp_servers(HTTP_AGENT, "open-1")
    assert [s["type"] for s in servers] == ["http"] and servers[0]["url"] == participation.url
    bearer = servers[0]["headers"][0]["value"].removeprefix("Bearer ")
    assert participation.tools.admits_bearer(bearer)
    assert participation.tools.context_token_for_bearer(bearer) is None  # no chat yet, no message yet
    participation.bind("open-1", "chat-a")
    assert participation.tools.context_token_for_bearer(bearer) is None  # the user has not written yet
    context = participation.prompt_context(HTTP_AGENT, "chat-a")
    assert context is not None and context.strip().startswith(OPEN) and context.rstrip().endswith(CLOSE)
    token = re.search(r"contextToken: (cqt_\S+)", context).group(1)
    assert participation.tools.context_token_for_bearer(bearer) == token
    assert "read-only intent" in context
    participation.session_ended("chat-a")
    assert not participation.tools.admits_bearer(bearer) and not participation.tools.admits_bearer(token)


async def test_a_failed_open_drops_its_bearer(access):
    _terminals, participation = access
    bearer = participation.mcp_servers(HTTP_AGENT, "open-2")[0]["headers"][0]["value"].removeprefix("Bearer ")
    participation.bind("open-2", None)
    assert not participation.tools.admits_bearer(bearer)


async def test_snapshots_follow_human_recency_hold_4_kib_of_shared_output_and_at_most_three(access):
    terminals, participation = access
    participation.mcp_servers(HTTP_AGENT, "o")
    participation.bind("o", "chat-a")
    ids = [terminals.open(None, 0, 200, 24) for _ in range(5)]
    for terminal_id in ids:
        terminals.set_sharing(terminal_id, "shared")
    big = ids[1]
    terminals.input(
        big, "i=0; while [ $i -lt 300 ]; do echo line-$i-xxxxxxxxxxxxxxxxxxxxxxxx; i=$((i+1)); done\r"
    )
    await shell_printed(terminals, big, "line-299-")
    terminals.set_sharing(ids[3], "off")  # paused: never in a snapshot
    terminals.pin(ids[4], "chat-b")  # another chat's
    terminals.focus(ids[2])
    terminals.focus(big)
    context = participation.prompt_context(HTTP_AGENT, "chat-a")
    assert snapshot_ids(context) == [big, ids[2], ids[0]][:MAX_SNAPSHOTS]
    big_section = context.split(f"--- terminal {big} ")[1].split("--- terminal")[0]
    body = big_section.split("\n", 1)[1]
    assert len(body.encode()) <= SNAPSHOT_BYTES and "line-299-" in body and "line-0-" not in body
    assert "older output not shown" in big_section


async def test_the_context_is_built_when_the_message_is_sent_so_a_pause_since_is_respected(access):
    terminals, participation = access
    participation.mcp_servers(HTTP_AGENT, "o")
    participation.bind("o", "chat-a")
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    terminals.input(terminal_id, "echo visible-$((1+1))\r")
    await shell_printed(terminals, terminal_id, "visible-2")
    assert "visible-2" in participation.prompt_context(HTTP_AGENT, "chat-a")
    terminals.set_sharing(terminal_id, "off")
    later = participation.prompt_context(HTTP_AGENT, "chat-a")
    assert "visible-2" not in later and snapshot_ids(later) == []
    terminals.set_sharing(terminal_id, "shared")
    terminals.input(terminal_id, "echo while-shared-$((3+3))\r")
    await shell_printed(terminals, terminal_id, "while-shared-6")
    terminals.close(terminal_id)
    assert snapshot_ids(participation.prompt_context(HTTP_AGENT, "chat-a")) == []


async def test_the_install_secret_and_port_stay_across_restarts_in_a_private_file(tmp_path, monkeypatch):
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    first = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")
    url = await first.start()
    secret = first.install_secret
    await first.stop()
    settings = tmp_path / "data" / "terminal-access.json"
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    second = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")
    assert await second.start() == url and second.install_secret == secret
    await second.stop()
    settings.write_text("{not json")
    third = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")
    assert third.install_secret != secret and len(third.install_secret) > 40


def test_connect_runs_openclaws_own_program_with_the_secret_masked_when_shown():
    assert openclaw_cli(("/opt/bin/openclaw", "acp", "--url", "ws://x")) == ["/opt/bin/openclaw"]
    assert openclaw_cli(("node", "/x/openclaw.mjs", "acp")) == ["node", "/x/openclaw.mjs"]
    assert openclaw_cli(("python", "-m", "app", "demo-agent")) is None
    config = {
        "url": "http://127.0.0.1:5/mcp",
        "transport": "streamable-http",
        "headers": {"Authorization": "Bearer cqi_secretsecretsecret"},
    }
    argv = mcp_set_argv(["openclaw"], config)
    assert argv[:4] == ["openclaw", "mcp", "set", "clawqt-terminals"]
    shown = shown_command(argv, "cqi_secretsecretsecret")
    assert "cqi_secretsecretsecret" not in shown and "cqi_secr\u2026" in shown


async def test_a_failing_connect_command_says_what_it_printed(tmp_path):
    failing = tmp_path / "openclaw"
    failing.write_text('#!/bin/sh\necho "config is read-only: $3" >&2\nexit 3\n')
    failing.chmod(0o755)
    result = await run_mcp_set([str(failing), "mcp", "set", "clawqt-terminals", "{}"], (str(failing), "acp"))
    assert not result.ok and "config is read-only: clawqt-terminals" in result.output
    missing = await run_mcp_set([str(tmp_path / "nope"), "mcp"], ("nope", "acp"))
    assert not missing.ok and "could not start" in missing.output


async def test_connect_openclaw_runs_its_mcp_set_once_agreed_and_then_prompts_carry_the_context(
    access, tmp_path
):
    import json

    from app.main.participation.access import TerminalAccess

    _terminals, participation = access
    program = tmp_path / "openclaw"
    seen = tmp_path / "argv.json"
    program.write_text(
        "#!/usr/bin/env python3\nimport json, sys\n"
        f"json.dump(sys.argv[1:], open({str(seen)!r}, 'w'))\nprint('Saved MCP server clawqt-terminals')\n"
    )
    program.chmod(0o755)
    access_part = TerminalAccess(participation, (str(program), "acp", "--url", "ws://x"), lambda: OPENCLAW)
    state = await access_part.prepare()
    assert state.delivery == "connect" and state.url == participation.url
    assert (
        participation.install_secret not in state.connect_command
        and "mcp set clawqt-terminals" in state.connect_command
    )
    assert participation.prompt_context(OPENCLAW, "chat-a") is None
    outcome = await access_part.connect_openclaw()
    assert outcome.ok and "Saved MCP server" in outcome.output
    args = json.loads(seen.read_text())
    assert args[:3] == ["mcp", "set", "clawqt-terminals"]
    config = json.loads(args[3])
    assert config == {
        "url": participation.url,
        "transport": "streamable-http",
        "headers": {"Authorization": f"Bearer {participation.install_secret}"},
    }
    assert access_part.state().delivery == "connected"
    assert "contextToken: cqt_" in participation.prompt_context(OPENCLAW, "chat-a")
    other = TerminalAccess(participation, ("python", "-m", "app", "demo-agent"), lambda: HTTP_AGENT)
    assert other.state().delivery == "per-session"
    assert not (await other.connect_openclaw()).ok


async def test_the_address_is_bound_before_the_server_loads_and_an_early_connection_is_served(tmp_path):
    """session/new names the server at once (no wait for its modules); an agent connecting before the
    server runs waits in the socket's backlog and is then answered."""
    import socket as sockets
    from urllib.parse import urlparse

    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    participation = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")
    servers = participation.mcp_servers(HTTP_AGENT, "open-1")  # no await: nothing loads here
    url = servers[0]["url"]
    assert participation.url == url
    early = sockets.create_connection((urlparse(url).hostname, urlparse(url).port), timeout=5)
    early.sendall(
        b"POST /mcp HTTP/1.1\r\nHost: " + urlparse(url).netloc.encode() + b"\r\nContent-Length: 0\r\n\r\n"
    )
    assert await participation.start() == url  # the same address, now served
    answer = await asyncio.get_running_loop().run_in_executor(None, early.recv, 200)
    early.close()
    assert answer.startswith(b"HTTP/1.1 401")  # the guard answered the early request (no bearer)
    await participation.stop()


async def test_the_server_starts_only_when_an_agent_first_connects(tmp_path):
    """Named in session/new, started by the first connection: most chats never call a terminal tool,
    and the server's modules are most of an idle window's memory. The first caller is answered."""
    import socket as sockets
    from urllib.parse import urlparse

    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    participation = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "data")
    url = participation.mcp_servers(HTTP_AGENT, "open-1")[0]["url"]
    participation.start_on_first_call()
    await asyncio.sleep(0.3)  # the loop runs: nothing starts without a caller
    assert not participation.started and participation.url == url
    caller = sockets.create_connection((urlparse(url).hostname, urlparse(url).port), timeout=60)
    caller.sendall(
        b"POST /mcp HTTP/1.1\r\nHost: " + urlparse(url).netloc.encode() + b"\r\nContent-Length: 0\r\n\r\n"
    )
    answer = await asyncio.get_running_loop().run_in_executor(None, caller.recv, 200)
    caller.close()
    assert answer.startswith(b"HTTP/1.1 401")  # the guard answered it (no bearer)
    assert participation.started and participation.url == url
    await participation.stop()
    await terminals.shutdown()


async def test_a_configured_port_is_used_and_when_taken_it_is_said_not_replaced(tmp_path):
    from app.main.participation.loopback_socket import bind_loopback

    holder = bind_loopback(0)
    taken = holder.getsockname()[1]
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    blocked = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "a", configured_port=taken)
    assert blocked.mcp_servers(HTTP_AGENT, "o") == [] and blocked.url is None
    assert f"port {taken} on 127.0.0.1 is already in use" in blocked.problem
    assert await blocked.start() is None
    holder.close()
    free = bind_loopback(0)
    port = free.getsockname()[1]
    free.close()
    chosen = TerminalParticipation(terminals, lambda _key: "Agent", tmp_path / "b", configured_port=port)
    assert await chosen.start() == f"http://127.0.0.1:{port}/mcp"
    await chosen.stop()
