"""The user's terminals through the real OpenClaw: ClawQt's "Connect OpenClaw" runs the scratch install's
own `openclaw mcp set`, the running gateway applies it in place (no restart), and the fake model, given
only what OpenClaw gives it, finds ClawQt's tools (by default behind OpenClaw's Tool Search), takes the
capability from the hidden context of the user's message and calls them through OpenClaw. Real window,
real bash shells on PTYs, real loopback MCP server."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from app.contract.hidden_context import CLOSE, OPEN
from app.main.openclaw.mcp_connect import SERVER_ENTRY
from app.renderer.timeline.serialize import item_record
from tests.conftest import EnvelopeLog
from tests.e2e.gateway import Gateway
from tests.ui.terminals.test_agent_window import Chat, window_text

pytestmark = pytest.mark.e2e

RELOAD_TIMEOUT_S = 30
# What only the hidden block carries (the tool cards legitimately show the tools' own descriptions and
# the model's call arguments): its markers (also HTML-escaped), its first line, its rule, its snapshots.
HIDDEN_MARKS = (
    "clawqt_hidden_context",
    "ClawQt terminal access for this chat",
    "read-only intent: read it, never type into it",
    "--- terminal ",
)


@pytest.fixture
def shared_gateway(openclaw: Gateway, monkeypatch) -> Iterator[Gateway]:
    """The e2e run's gateway; ClawQt's entry is removed from its config afterwards, and the gateway has
    applied that before the next test's turn (a turn that starts during a reload fails)."""
    yield openclaw
    config = json.loads(openclaw.config_path.read_text())
    servers = config.get("mcp", {}).get("servers", {})
    if SERVER_ENTRY not in servers:
        return
    # what `openclaw mcp unset` writes, without starting the CLI (most of this teardown's time)
    del servers[SERVER_ENTRY]
    openclaw.configure(config, RELOAD_TIMEOUT_S)


async def connected_chat(ui, gateway: Gateway) -> Chat:
    """The real window on the OpenClaw bridge, connected the way the settings' button does it."""
    window = await ui.open(gateway.agent_argv())
    envelopes = EnvelopeLog()
    window.host.sessions.subscribe(envelopes)
    before = gateway.hot_reloads()
    outcome = await window.host.terminal_access.connect_openclaw()
    assert outcome.ok, outcome.output
    assert window.host.terminal_access.state().delivery == "connected"
    # the scratch install's own command wrote the scratch gateway's config...
    entry = json.loads(gateway.config_path.read_text())["mcp"]["servers"][SERVER_ENTRY]
    participation = window.host.sessions.shared.participation
    assert entry["url"] == participation.url and entry["url"].startswith("http://127.0.0.1:")
    assert entry["transport"] == "streamable-http"
    assert entry["headers"] == {"Authorization": f"Bearer {participation.install_secret}"}
    # ...and the running gateway applies it in place (its log says so): no restart
    await ui.until(lambda: gateway.hot_reloads() > before, RELOAD_TIMEOUT_S)
    return Chat(ui, window, envelopes)


def one_call(fake_model, since: int, reply: str) -> dict:
    """The one terminal tool call the model made this turn (the reply says why when there is none)."""
    calls = fake_model.tool_results[since:]
    assert len(calls) == 1, f"the model made {len(calls)} terminal tool calls; it replied: {reply}"
    return calls[0]


def explained(chat: Chat, gateway: Gateway, call: dict, reply: str) -> str:
    """What a failed read tells about who refused it: the capability the model sent and whether this
    window's store knows it (a refusal by a server that is not this window's would say unknown to a
    token the store knows), and the gateway's lines about MCP."""
    token = str(call["arguments"].get("args", {}).get("contextToken", ""))
    store = chat.window.host.sessions.shared.participation.capabilities
    check = store.check(token, None)
    key = chat.window.objects.session.sessionKey
    mcp_lines = [line for line in gateway.log_tail(60000).splitlines() if "mcp" in line.lower()][-25:]
    return (
        f"{reply}\n-- token sent {token[:12]}..., this window's store: {check}, its token for the chat "
        f"{str(store.current_token(key))[:12]}...\n-- the gateway about MCP:\n" + "\n".join(mcp_lines)
    )


def user_texts(chat: Chat) -> list[str]:
    timeline = chat.window.objects.session.timeline
    return [
        "".join(part["text"] for part in item_record(item)["parts"])
        for item in timeline.items.values()
        if item.kind == "message" and item.role == "user"
    ]


def sent_prompts(fake_model, since: int) -> list[str]:
    """The user messages OpenClaw sent the model since request `since` (with ClawQt's hidden block)."""
    return [
        json.dumps(message.get("content"))
        for request in fake_model.requests[since:]
        for message in request.get("messages") or []
        if message.get("role") == "user"
    ]


def unauthenticated_status(url: str) -> int:
    """What ClawQt's MCP server answers a request without the Authorization header."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    request = urllib.request.Request(
        url,
        body,
        {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_openclaw_reads_what_the_user_typed_and_types_a_command_that_runs(ui, shared_gateway, fake_model):
    async def scenario():
        chat = await connected_chat(ui, shared_gateway)
        terminal = await chat.shared_terminal()
        await chat.user_types(terminal, "echo typed-by-user-$((6*7))", "typed-by-user-42")
        requests_before, calls_before = len(fake_model.requests), len(fake_model.tool_results)

        reply = await chat.say("terminal read")
        read = one_call(fake_model, calls_before, reply)
        # OpenClaw names MCP tools "<server>__<tool>" and offers them behind its Tool Search by default
        assert read["name"] == "tool_call", reply
        assert read["arguments"]["id"].endswith(f"{SERVER_ENTRY}__read_terminal")
        assert read["arguments"]["args"]["terminalId"] == terminal  # the snapshot named it
        assert "typed-by-user-42" in read["content"] and "typed-by-user-42" in reply
        # the capability the model used is the one the hidden block of the user's message carried
        token = read["arguments"]["args"]["contextToken"]
        prompts = sent_prompts(fake_model, requests_before)
        assert any(f"contextToken: {token}" in text and OPEN in text and CLOSE in text for text in prompts)
        # ...and OpenClaw sent the install secret configured with it: the server takes no call without
        assert (
            await asyncio.get_running_loop().run_in_executor(
                None, unauthenticated_status, chat.host.sessions.shared.participation.url
            )
            == 401
        )

        calls_before = len(fake_model.tool_results)
        reply = await chat.say(f"terminal type {terminal} echo from-openclaw-$((5+5))")
        typed = one_call(fake_model, calls_before, reply)
        assert typed["arguments"]["id"].endswith(f"{SERVER_ENTRY}__send_terminal_input"), reply
        assert typed["arguments"]["args"]["text"] == "echo from-openclaw-$((5+5))\r"
        assert re.search(r'\\?"sent\\?": ?true', typed["content"]), typed["content"]
        # the command text holds "$((5+5))": only the shell running it prints the 10
        await ui.until(lambda: "from-openclaw-10" in chat.host.terminals.output(terminal))
        assert chat.info(terminal).agent_sent_input

        # the chat shows what the user wrote, never the hidden block
        assert user_texts(chat) == ["terminal read", f"terminal type {terminal} echo from-openclaw-$((5+5))"]
        shown = window_text(ui, chat.window)
        assert "typed-by-user-42" in shown
        for mark in HIDDEN_MARKS:
            assert mark not in shown, f"{mark!r} is shown"
        # OpenClaw's tool cards carry the model's arguments: the capability shows cut to its prefix
        assert token not in shown and "cqt_\u2026" in shown
        await ui.screenshots(chat.window, "e2e-06-openclaw-terminal-tools")

        # history replayed by OpenClaw on load echoes the block: still not shown
        objects = chat.window.objects
        first = objects.session.sessionKey
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 30)
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first and len(user_texts(chat)) == 2, 30)
        reloaded = window_text(ui, chat.window)
        assert "terminal read" in reloaded
        for mark in HIDDEN_MARKS:
            assert mark not in reloaded, f"{mark!r} is shown after reload"
        assert token not in reloaded

    ui.run(scenario(), timeout=240)


def test_openclaw_is_refused_a_paused_terminal_and_never_gets_what_was_typed_while_paused(
    ui, shared_gateway, fake_model
):
    async def scenario():
        chat = await connected_chat(ui, shared_gateway)
        requests_before = len(fake_model.requests)
        terminal = await chat.shared_terminal()
        await chat.user_types(terminal, "echo before-pause-$((1+1))", "before-pause-2")

        chat.panel.setSharing(terminal, "off")  # the user pauses it
        await chat.user_types(terminal, "echo while-paused-$((3*3))", "while-paused-9")
        calls_before = len(fake_model.tool_results)
        reply = await chat.say(f"terminal read {terminal}")
        refused = one_call(fake_model, calls_before, reply)
        assert refused["arguments"]["args"]["terminalId"] == terminal, reply
        assert re.search(r'\\?"code\\?": ?\\?"paused', refused["content"]), refused["content"]
        assert "before-pause-2" not in refused["content"] and "paused" in reply

        chat.panel.setSharing(terminal, "shared")  # and shares it again
        await chat.user_types(terminal, "echo after-resume-$((4*4))", "after-resume-16")
        calls_before = len(fake_model.tool_results)
        reply = await chat.say(f"terminal read {terminal}")
        read = one_call(fake_model, calls_before, reply)
        assert "before-pause-2" in read["content"] and "after-resume-16" in read["content"], explained(
            chat, shared_gateway, read, reply
        )
        # what was typed while paused never reached the model: not in a tool result, not in a snapshot
        seen = json.dumps(fake_model.requests[requests_before:])
        assert "before-pause-2" in seen and "while-paused" not in seen
        assert re.search(r'\\?"excludedOutput\\?": ?true', read["content"]), read["content"]  # it is told

    ui.run(scenario(), timeout=240)
