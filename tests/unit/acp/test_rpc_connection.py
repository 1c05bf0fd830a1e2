"""ClawQt's JSON-RPC peer (app/main/acp/rpc_connection.py) on an in-memory transport: what the agent gets
back for each kind of request, what ClawQt's callers get for each kind of answer, and that nothing is
left waiting or running when the agent goes away or the connection is closed. The same layer runs
against real agents in tests/integration (test_agent_fs.py: the hostile requests over a real pipe)."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import pytest

from app.main.acp.json_rpc import RpcError
from app.main.acp.rpc_connection import RpcConnection


class MemoryTransport:
    """The agent's side: `incoming` is what the agent sends, `sent` what ClawQt wrote."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.closed = False

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def receive(self) -> dict[str, Any] | None:
        return await self.incoming.get()

    async def close(self) -> None:
        self.closed = True
        self.incoming.put_nowait(None)


async def _until(predicate: Any) -> None:
    for _ in range(200):
        if predicate():
            return
        await asyncio.sleep(0.005)  # the poll's interval
    raise AssertionError("condition not met")


async def _answer_to(transport: MemoryTransport, request: dict[str, Any]) -> dict[str, Any]:
    transport.incoming.put_nowait({"jsonrpc": "2.0", **request})
    await _until(lambda: any(m.get("id") == request["id"] and "method" not in m for m in transport.sent))
    return next(m for m in transport.sent if m.get("id") == request["id"] and "method" not in m)


async def test_the_agent_s_requests_are_answered_by_their_handler_or_with_the_error_that_says_why(caplog):
    async def read(params: dict[str, Any]) -> dict[str, Any]:
        if params.get("path") == "refused":
            raise RpcError(-32002, "outside the session folder", {"details": "outside the session folder"})
        if params.get("path") == "crash":
            raise ValueError("the handler broke")
        return {"content": params["path"]}

    transport = MemoryTransport()
    rpc = RpcConnection(transport, requests={"fs/read_text_file": read}, notifications={})
    ok = await _answer_to(transport, {"id": 1, "method": "fs/read_text_file", "params": {"path": "a"}})
    assert ok == {"jsonrpc": "2.0", "id": 1, "result": {"content": "a"}}
    refused = await _answer_to(
        transport, {"id": "x", "method": "fs/read_text_file", "params": {"path": "refused"}}
    )
    assert refused["error"] == {
        "code": -32002,
        "message": "outside the session folder",
        "data": {"details": "outside the session folder"},
    }
    with caplog.at_level(logging.ERROR, logger="app.main.acp.rpc_connection"):
        crashed = await _answer_to(
            transport, {"id": 3, "method": "fs/read_text_file", "params": {"path": "crash"}}
        )
    assert crashed["error"] == {
        "code": -32603,
        "message": "Internal error",
        "data": {"details": "the handler broke"},
    }
    assert "answering the agent's fs/read_text_file failed" in caplog.text
    unknown = await _answer_to(transport, {"id": 4, "method": "fs/nope", "params": {}})
    assert unknown["error"]["code"] == -32601 and unknown["error"]["data"] == {"method": "fs/nope"}
    not_object = await _answer_to(transport, {"id": 5, "method": "fs/read_text_file", "params": ["a"]})
    assert not_object["error"]["code"] == -32602
    no_params = await _answer_to(transport, {"id": 6, "method": "fs/nope"})
    assert no_params["error"]["code"] == -32601
    await rpc.close()


async def test_answers_to_clawqt_s_requests_come_back_as_results_or_rpc_errors():
    transport = MemoryTransport()
    rpc = RpcConnection(transport, requests={}, notifications={})
    first = asyncio.ensure_future(rpc.send_request("session/new", {"cwd": "/"}))
    second = asyncio.ensure_future(rpc.send_request("session/prompt", {}))
    third = asyncio.ensure_future(rpc.send_request("session/list", {}))
    await _until(lambda: len(transport.sent) == 3)
    ids = [m["id"] for m in transport.sent]
    assert transport.sent[0] == {
        "jsonrpc": "2.0",
        "id": ids[0],
        "method": "session/new",
        "params": {"cwd": "/"},
    }
    transport.incoming.put_nowait(
        {"jsonrpc": "2.0", "id": ids[1], "error": {"code": -32000, "message": "Sign in"}}
    )
    transport.incoming.put_nowait({"jsonrpc": "2.0", "id": ids[2], "error": {"code": True, "message": "odd"}})
    transport.incoming.put_nowait({"jsonrpc": "2.0", "id": 999, "result": {}})  # nobody asked: ignored
    transport.incoming.put_nowait({"jsonrpc": "2.0", "id": ids[0], "result": {"sessionId": "s1"}})
    assert await first == {"sessionId": "s1"}
    with pytest.raises(RpcError) as refused:
        await second
    assert (refused.value.code, str(refused.value)) == (-32000, "Sign in")
    with pytest.raises(RpcError) as odd:
        await third
    assert odd.value.code == -32603  # a code JSON-RPC does not allow is no code
    await rpc.close()


async def test_when_the_agent_s_output_ends_every_waiting_request_fails_and_new_ones_are_refused():
    transport = MemoryTransport()
    rpc = RpcConnection(transport, requests={}, notifications={})
    waiting = asyncio.ensure_future(rpc.send_request("session/prompt", {}))
    await _until(lambda: transport.sent)
    transport.incoming.put_nowait(None)  # the agent closed its stdout
    with pytest.raises(ConnectionError):
        await waiting
    with pytest.raises(ConnectionError):
        await rpc.send_request("session/new", {})
    with pytest.raises(ConnectionError):
        await rpc.send_notification("session/cancel", {})


async def test_closing_cancels_the_handlers_still_running_and_a_cancelled_request_is_forgotten():
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def ask_user(params: dict[str, Any]) -> dict[str, Any]:
        started.set()
        try:
            await asyncio.sleep(3600)  # a handler that never ends unless cancelled
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {}

    transport = MemoryTransport()
    rpc = RpcConnection(transport, requests={"session/request_permission": ask_user}, notifications={})
    transport.incoming.put_nowait(
        {"jsonrpc": "2.0", "id": 7, "method": "session/request_permission", "params": {}}
    )
    await asyncio.wait_for(started.wait(), 5)
    abandoned = asyncio.ensure_future(rpc.send_request("session/load", {}))
    await _until(lambda: any(m.get("method") == "session/load" for m in transport.sent))
    abandoned.cancel()
    with pytest.raises(asyncio.CancelledError):
        await abandoned
    assert rpc._pending == {}
    await rpc.close()
    assert cancelled.is_set() and transport.closed
    assert rpc._tasks == set()


async def test_notifications_reach_their_handler_and_unknown_or_failing_ones_are_only_logged(caplog):
    seen: list[dict[str, Any]] = []

    async def update(params: dict[str, Any]) -> None:
        if params.get("boom"):
            raise KeyError("update")
        seen.append(params)

    transport = MemoryTransport()
    rpc = RpcConnection(transport, requests={}, notifications={"session/update": update})
    with caplog.at_level(logging.INFO, logger="app.main.acp.rpc_connection"):
        for params in ({"boom": True}, {"sessionId": "s"}):
            transport.incoming.put_nowait({"jsonrpc": "2.0", "method": "session/update", "params": params})
        transport.incoming.put_nowait({"jsonrpc": "2.0", "method": "_vendor/ping", "params": {}})
        await _until(lambda: seen)
        await _until(lambda: "_vendor/ping ignored" in caplog.text)
    assert seen == [{"sessionId": "s"}]
    assert "the agent's session/update notification failed" in caplog.text
    assert transport.sent == []  # a notification is never answered
    await rpc.close()


async def test_a_burst_read_at_once_is_handled_in_order_with_turns_for_the_loop_between():
    """Thousands of updates waiting at once are handled in the order they came, and other work on the
    loop (a keystroke, a timer, a frame) gets its turn between them instead of after all of them."""
    from app.main.acp.rpc_connection import MESSAGES_PER_TURN

    seen: list[int] = []
    interleaved: list[int] = []  # how many updates were handled each time the other work ran

    async def update(params: dict[str, Any]) -> None:
        seen.append(params["n"])

    def other_work() -> None:
        interleaved.append(len(seen))
        if len(seen) < total:
            asyncio.get_running_loop().call_soon(other_work)

    total = 20 * MESSAGES_PER_TURN
    transport = MemoryTransport()
    for n in range(total):
        transport.incoming.put_nowait({"jsonrpc": "2.0", "method": "session/update", "params": {"n": n}})
    rpc = RpcConnection(transport, requests={}, notifications={"session/update": update})
    asyncio.get_running_loop().call_soon(other_work)
    await _until(lambda: len(seen) == total)
    assert seen == list(range(total))
    between = [n for n in interleaved if 0 < n < total]
    assert len(between) >= 10, interleaved  # the loop had turns all through the burst
    assert all(b - a <= 2 * MESSAGES_PER_TURN for a, b in itertools.pairwise(interleaved))
    await rpc.close()
