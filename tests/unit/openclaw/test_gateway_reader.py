"""The OpenClaw Gateway reader against real loopback servers: the protocol, its bounds (time, size,
count) and every failure quietly "no supplement" with one log line; the endpoint found like the bridge
finds it; the transcript reduced to what seed 003 allows."""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest
from websockets.asyncio.server import serve

from app.main.openclaw.endpoint import GatewayEndpoint, embedding_env, is_openclaw_acp, resolve_endpoint
from app.main.openclaw.gateway import GatewayReader
from app.main.openclaw.transcript import is_heartbeat_transcript, transcript_turns


class FakeGateway:
    """The Gateway's handshake and request frames; `delay`/`oversize` misbehave on `sessions.get`."""

    def __init__(self, token: str = "T", delay: float = 0.0, oversize: int = 0) -> None:
        self.token, self.delay, self.oversize = token, delay, oversize
        self.connections = 0
        self.seen: list[dict] = []

    async def handler(self, ws) -> None:
        self.connections += 1
        await ws.send(json.dumps({"type": "event", "event": "connect.challenge", "payload": {"nonce": "n"}}))
        async for raw in ws:
            frame = json.loads(raw)
            self.seen.append(frame)
            if frame["method"] == "connect":
                ok = frame["params"].get("auth", {}).get("token") == self.token
                answer = {"type": "res", "id": frame["id"], "ok": ok}
                answer.update({"payload": {"type": "hello-ok"}} if ok else {"error": {"message": "mismatch"}})
                await ws.send(json.dumps(answer))
                continue
            await ws.send(json.dumps({"type": "event", "event": "tick", "payload": {}}))  # dropped
            await asyncio.sleep(self.delay)  # the gateway's slowness the test asked for
            messages = [{"role": "user", "content": "x" * self.oversize}] if self.oversize else []
            await ws.send(
                json.dumps({"type": "res", "id": frame["id"], "ok": True, "payload": {"messages": messages}})
            )


async def _reader_for(gateway: FakeGateway, **kwargs) -> tuple[GatewayReader, object]:
    server = await serve(gateway.handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return GatewayReader(GatewayEndpoint(f"ws://127.0.0.1:{port}", "T"), **kwargs), server


async def test_reads_over_one_persistent_connection_with_the_read_scope_only():
    gateway = FakeGateway()
    reader, server = await _reader_for(gateway)
    try:
        assert await reader.call("sessions.get", {"key": "k"}) == {"messages": []}
        assert await reader.call("sessions.get", {"key": "k"}) == {"messages": []}
        assert gateway.connections == 1
        connect = gateway.seen[0]["params"]
        assert connect["scopes"] == ["operator.read"] and connect["role"] == "operator"
        assert connect["client"]["id"] == "gateway-client" and connect["client"]["mode"] == "backend"
        with pytest.raises(ValueError):
            await reader.call("chat.send", {})
    finally:
        await reader.close()
        server.close()


async def test_a_closed_port_is_no_supplement_with_one_log_line(caplog):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    reader = GatewayReader(GatewayEndpoint(f"ws://127.0.0.1:{port}", "T"), timeout_s=2)
    with caplog.at_level(logging.WARNING, "app.main.openclaw.gateway"):
        assert await reader.call("sessions.get", {"key": "k"}) is None
        assert await reader.call("sessions.get", {"key": "k"}) is None
    assert len(caplog.records) == 1 and reader.failures == 2
    await reader.close()


async def test_a_slow_gateway_is_abandoned_after_the_time_bound():
    reader, server = await _reader_for(FakeGateway(delay=5.0), timeout_s=0.3)
    try:
        assert await reader.call("sessions.get", {"key": "k"}) is None  # its answer would come in 5 s
    finally:
        await reader.close()
        server.close()


async def test_a_slow_gateway_holds_a_session_listing_for_one_read_at_most():
    """Twenty listed sessions and a Gateway that never answers: one read's time limit, not twenty."""
    from app.contract.envelopes import SessionPage, SessionSummary
    from app.main.openclaw.supplement import OpenClawSupplements

    reader, server = await _reader_for(FakeGateway(delay=5.0), timeout_s=0.3)
    supplements = OpenClawSupplements(reader, lambda envelope: None, lambda work: None)
    page = SessionPage(tuple(SessionSummary(f"agent:main:{n}", None, None, None) for n in range(20)), None)
    try:
        marked = await supplements.mark_heartbeats(page)
        assert marked.sessions == page.sessions and reader.calls == 1  # one read, not twenty
    finally:
        await supplements.close()
        server.close()


async def test_an_oversized_answer_is_refused_and_the_next_read_reconnects():
    gateway = FakeGateway(oversize=200_000)
    reader, server = await _reader_for(gateway, max_frame_bytes=64 * 1024)
    try:
        assert await reader.call("sessions.get", {"key": "k"}) is None
        gateway.oversize = 0
        assert await reader.call("sessions.get", {"key": "k"}) == {"messages": []}
        assert gateway.connections == 2
    finally:
        await reader.close()
        server.close()


async def test_a_wrong_token_is_no_supplement():
    reader, server = await _reader_for(FakeGateway(token="other"))
    try:
        assert await reader.call("sessions.get", {"key": "k"}) is None
    finally:
        await reader.close()
        server.close()


def test_the_endpoint_is_the_bridges(tmp_path):
    token = tmp_path / "token"
    token.write_text("secret\n")
    argv = ("/x/bin/openclaw", "acp", "--url", "ws://127.0.0.1:9", "--token-file", str(token))
    assert resolve_endpoint(argv, {}) == GatewayEndpoint("ws://127.0.0.1:9", "secret")
    assert "secret" not in repr(resolve_endpoint(argv, {}))
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps({"gateway": {"port": 4242, "auth": {"token": "from-config"}}}))
    found = resolve_endpoint(("openclaw", "acp"), {"OPENCLAW_CONFIG_PATH": str(config)})
    assert found == GatewayEndpoint("ws://127.0.0.1:4242", "from-config")
    env = {"OPENCLAW_STATE_DIR": str(tmp_path), "OPENCLAW_GATEWAY_TOKEN": "env-token"}
    assert resolve_endpoint(("openclaw", "acp"), env).token == "env-token"
    assert resolve_endpoint(("python", "-m", "app", "demo-agent"), {}) is None
    assert is_openclaw_acp(("node", "/o/openclaw.mjs", "acp")) and not is_openclaw_acp(("openclaw", "tui"))


def test_the_embedding_environment_is_for_openclaw_only():
    assert embedding_env(("openclaw", "acp")) == {
        "OPENCLAW_NO_RESPAWN": "1",
        "OPENCLAW_EMBEDDED_IN": "clawqt",
        "OPENCLAW_EXEC_SHELL_SNAPSHOT": "0",
    }
    assert embedding_env(("codex-acp",)) == {}


def _record(role: str, ts: int, text: str = "", **extra) -> dict:
    return {"role": role, "timestamp": ts, "content": [{"type": "text", "text": text}], **extra}


def test_transcript_turns_media_and_durations():
    outgoing = "/api/chat/media/outgoing/k/1/full"
    messages = [
        _record("user", 1_000, "[Working directory: /w]\n\nmake a chart"),
        _record("toolResult", 3_000),
        _record(
            "assistant",
            5_500,
            "Here.",
            openclawDelivery={"mediaUrls": ["/w/chart.png", 7, ""]},
            openclawDisplayContent=[
                {"type": "image", "url": outgoing, "alt": "chart.png"},  # the same file: dropped
                {"type": "image", "url": "/api/chat/media/outgoing/k/2/full", "alt": "other.png"},
            ],
        ),
        _record("user", 9_000, "thanks"),
        "junk",
    ]
    first, second = transcript_turns(messages)
    assert first.user_text == "make a chart" and first.duration_s == 4.5
    assert first.media == ("/w/chart.png", "/api/chat/media/outgoing/k/2/full")
    assert second.media == () and second.duration_s is None
    assert transcript_turns({"not": "a list"}) == ()


def _image_call(call_id: str, name: str = "image_generate") -> dict:
    """An assistant record asking for a tool (OpenClaw's `toolCall` content block)."""
    block = {"type": "toolCall", "id": call_id, "name": name, "arguments": {"prompt": "a red fox"}}
    return {"role": "assistant", "timestamp": 2_000, "content": [block], "stopReason": "toolUse"}


def _image_result(call_id: str, paths: list[str], tool: str = "image_generate", **extra) -> dict:
    """The `toolResult` record of a foreground `image_generate` run, shaped as OpenClaw's
    `executeImageGenerationJob` returns it (content text, `details.media`, `attachments`, `paths`)."""
    attachments = [
        {
            "type": "image",
            "path": path,
            "mimeType": "image/png",
            "name": path.rsplit("/", 1)[-1],
            "sizeBytes": 9,
        }
        for path in paths
    ]
    lines = ["Generated 1 image with openai/gpt-image-1.5.", "Attachments:"]
    lines += [
        f'{i + 1}. type=image name="{a["name"]}" mimeType=image/png path="{a["path"]}"'
        for i, a in enumerate(attachments)
    ]
    details = {
        "provider": "openai",
        "model": "gpt-image-1.5",
        "count": len(paths),
        "media": {"mediaUrls": paths, "attachments": attachments},
        "attachments": attachments,
        "paths": paths,
    }
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": tool,
        "content": [{"type": "text", "text": "\n".join(lines)}],
        "details": details,
        "isError": False,
        "timestamp": 4_000,
        **extra,
    }


def test_generated_images_come_back_only_from_a_proven_image_generate_result():
    fox = "/home/u/.openclaw/media/tool-image-generation/fox---1f2e.png"
    shown = "/api/chat/media/outgoing/k/3/full"
    messages = [
        _record("user", 1_000, "draw a fox"),
        _image_call("call_img_1"),
        _image_result("call_img_1", [fox]),
        _record(
            "assistant",
            5_000,
            "Here is your fox.",
            openclawDelivery={"mediaUrls": [fox]},  # also delivered: one card, not two
            openclawDisplayContent=[{"type": "image", "url": shown, "alt": "fox---1f2e.png"}],  # that file
        ),
        _record("user", 6_000, "no proof"),
        _image_call("call_img_2", name="write"),  # another tool's call with the same id pattern
        _image_result("call_img_2", ["/w/forged.png"]),  # claims image_generate: no such call
        _image_result("call_unknown", ["/w/orphan.png"]),  # answers no call of this turn
        _record("user", 7_000, "failed"),
        _image_call("call_img_3"),
        _image_result("call_img_3", ["/w/broken.png"], isError=True),
        _record("user", 8_000, "started in the background"),
        _image_call("call_img_4"),
        {
            "role": "toolResult",
            "toolCallId": "call_img_4",
            "toolName": "image_generate",
            "content": [{"type": "text", "text": "Background task started for image generation (t1)."}],
            "details": {"async": True, "status": "started", "taskId": "t1", "runId": "r1"},
            "timestamp": 8_500,
        },
    ]
    drawn, forged, failed, started = transcript_turns(messages)
    # an inline image, not a card: the same file delivered and shown again is not media too
    assert drawn.images == (fox,) and drawn.media == ()
    for turn in (forged, failed, started):
        assert turn.media == () and turn.images == ()
    only_generated = transcript_turns(messages[:3])  # a reply that named no file itself
    assert only_generated[0].images == (fox,) and only_generated[0].media == ()


def test_heartbeat_only_transcripts():
    beat = [_record("user", 1, "[OpenClaw heartbeat poll]"), _record("assistant", 2, "HEARTBEAT_OK")]
    assert is_heartbeat_transcript(beat)
    assert not is_heartbeat_transcript([*beat, _record("user", 3, "a real question")])
    assert not is_heartbeat_transcript([_record("user", 1, "hello")]) and not is_heartbeat_transcript([])


def test_a_prompts_record_text_is_rebuilt_as_openclaws_bridge_writes_it():
    from app.contract.openclaw_prompts import prompt_record_text

    blocks = [
        {"type": "text", "text": ""},  # attachments only: ClawQt sends one empty text block
        {"type": "resource", "resource": {"uri": "file:///w/a.txt", "text": "the file's words"}},
        {"type": "resource_link", "uri": "file:///w/b c.png", "name": "b c.png"},
        {"type": "resource_link", "uri": "file:///w/x\ny", "title": "t(1)[2]\u2028"},
        {"type": "image", "data": "iVBOR", "mimeType": "image/png"},  # an image leaves no text
    ]
    assert prompt_record_text(blocks) == (
        "\nthe file's words\n[Resource link] file:///w/b c.png\n"
        "[Resource link (t\\(1\\)\\[2\\]\\u2028)] file:///w/x\\ny"
    )
    assert prompt_record_text([{"type": "image", "data": "iVBOR"}]) == ""
