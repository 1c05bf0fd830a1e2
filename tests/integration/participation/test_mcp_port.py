"""The terminal tools' port against other local processes. A real second process
(tests/loopback_clients.py, started with subprocess) opens idle, silent or foreign connections to the
real server, and the tests check that authorized calls still answer and that ClawQt keeps its
descriptors. Where the server is to run short of descriptors it runs in a process of its own under a
desktop session's limit of 1,024 (tests/mcp_server_process.py), never the test worker's."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.main.participation.loopback_admission import MAX_UNAUTHENTICATED, descriptor_reserve
from app.main.participation.loopback_guard import MAX_CALLS
from app.main.participation.loopback_peer import GONE, UNCHECKED, PeerOwners
from app.main.participation.mcp_server import TerminalMcpServer
from tests.integration.participation.mcp_client import (
    SECRET,
    FakeTools,
    answer_of,
    call_body,
    mcp_session,
    post,
    status_of,
)
from tests.paths import REPO, TESTS
from tests.waits import until

CLIENTS = TESTS / "loopback_clients.py"
NOBODY = 65534
DESKTOP_NOFILE = 1024
LISTED = {"sessions": [], "recentTerminalIds": []}
READ_CALL = call_body("read_terminal", {"contextToken": "cqt_1", "terminalId": "t1"})


class SecondProcess:
    """A child process speaking one JSON line per answer."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def answer(self, timeout: float = 60.0) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        assert line, "the second process ended without answering"
        return json.loads(line)

    async def ask(self, command: str = "") -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{command}\n".encode())
        await self.process.stdin.drain()
        return await self.answer()


@contextlib.asynccontextmanager
async def second_process(*argv: str, **options: Any) -> AsyncIterator[SecondProcess]:
    process = await asyncio.create_subprocess_exec(
        *argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=REPO, **options
    )
    try:
        yield SecondProcess(process)
    finally:
        if process.returncode is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()


def clients(*args: object) -> tuple[str, ...]:
    return (sys.executable, str(CLIENTS), *map(str, args))


@contextlib.asynccontextmanager
async def serving(**options: Any) -> AsyncIterator[tuple[TerminalMcpServer, FakeTools]]:
    tools = FakeTools()
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET, call_timeout=20.0, **options)
    server.start()
    try:
        yield server, tools
    finally:
        server.stop()


@contextlib.asynccontextmanager
async def server_process(*args: object) -> AsyncIterator[tuple[SecondProcess, str]]:
    """The real server in a process of its own (tests/mcp_server_process.py); its URL."""
    argv = (sys.executable, "-m", "tests.mcp_server_process", SECRET, *map(str, args))
    async with second_process(*argv) as server:
        port = (await server.answer())["port"]
        yield server, f"http://127.0.0.1:{port}/mcp"


async def list_terminals(url: str) -> Any:
    """One authorized call through the SDK's own client, within 30 s."""
    async with asyncio.timeout(30), mcp_session(url) as session:
        return await session.call_tool("list_terminals", {"contextToken": "cqt_1"})


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


# --- idle connections never take an authorized call's place --------------------------------------------
async def test_seventy_idle_connections_from_another_process_leave_authorized_calls_answering():
    async with serving() as (server, _tools), second_process(*clients("hold", server.port, 70)) as idle:
        assert await idle.answer() == {"held": 70, "error": None}
        listed = await list_terminals(server.url)
        closed = (await idle.ask())["closed"]
    assert not listed.is_error and answer_of(listed) == LISTED
    # the server keeps at most MAX_UNAUTHENTICATED of them: the oldest silent ones are closed
    assert closed >= 70 - MAX_UNAUTHENTICATED


async def test_authorized_calls_keep_their_own_limit_whatever_idle_connections_there_are():
    async with serving() as (server, tools), second_process(*clients("hold", server.port, 40)) as idle:
        assert await idle.answer() == {"held": 40, "error": None}
        # the idle ones are there before the calls come (connected is not yet accepted and set up)
        await until(lambda: _settled_idle(server) == MAX_UNAUTHENTICATED, 30)
        tools.read_behaviour = "block"
        # one call after another until MAX_CALLS run at once: 64 handshakes at the same moment are more
        # than the port lets wait unauthorized (MAX_UNAUTHENTICATED), which a busy machine reaches
        waiting: list[asyncio.Future[Any]] = []
        try:
            for count in range(1, MAX_CALLS + 1):
                waiting.append(asyncio.ensure_future(post(server.port, READ_CALL)))
                await until(lambda: len(tools.calls) >= count, 30)  # noqa: B023
            over = await post(server.port, READ_CALL)
        finally:
            tools.block.set()
            answers = await asyncio.wait_for(asyncio.gather(*waiting, return_exceptions=True), 30)
    assert status_of(over) == 503
    assert [status_of(answer) for answer in answers] == [200] * MAX_CALLS


def _settled_idle(server: TerminalMcpServer) -> int:
    """Connections the port keeps waiting, each set up (accepted and given its protocol)."""
    admission = server.admission
    waiting = list(admission._waiting.values()) if admission is not None else []
    return sum(entry.protocol is not None for entry in waiting)


async def test_a_thousand_idle_connections_from_another_process_leave_clawqt_its_descriptors():
    reserve = descriptor_reserve(DESKTOP_NOFILE)
    async with (
        server_process("--nofile", DESKTOP_NOFILE) as (server, url),
        second_process(*clients("hold", port_of(url), 1100)) as idle,
    ):
        assert await idle.answer(timeout=120) == {"held": 1100, "error": None}
        listed = await list_terminals(url)
        probe = await server.ask(f"probe {reserve}")
        closed = (await idle.ask())["closed"]
    assert not listed.is_error and answer_of(listed) == LISTED
    assert probe == {"pty": True, "files": reserve}  # a terminal and files open while they are held
    assert closed >= 1100 - MAX_UNAUTHENTICATED


async def test_past_the_descriptor_reserve_the_port_takes_nothing_clawqt_needs():
    """ClawQt itself is near its limit (terminals, files): idle connections may take descriptors only
    down to the reserve, and a new connection replaces the oldest silent one there."""
    reserve = descriptor_reserve(DESKTOP_NOFILE)
    async with (
        server_process("--nofile", DESKTOP_NOFILE, "--keep-free", reserve + 10) as (server, url),
        second_process(*clients("hold", port_of(url), 70)) as idle,
    ):
        assert await idle.answer() == {"held": 70, "error": None}
        listed = await list_terminals(url)
        probe = await server.ask(f"probe {reserve - 4}")  # the PTY takes two, two are slack
        stats = await server.ask("stats")
    assert not listed.is_error and answer_of(listed) == LISTED
    assert probe == {"pty": True, "files": reserve - 4}
    assert stats["free"] >= reserve
    assert stats["refused"]["evicted"] >= 70 - 10


# --- the request head -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "how",
    [(), ("--partial",), ("--after-request", SECRET, "--partial")],
    ids=["silent", "half-a-head", "half-a-head-after-a-request"],
)
async def test_a_connection_without_a_whole_request_head_is_closed_at_the_head_timeout(how):
    async with (
        serving(head_timeout=0.5) as (server, _tools),
        second_process(*clients("silent", server.port, 6, *how)) as client,
    ):
        closed_after = (await client.answer())["closed_after"]
        assert server.admission is not None
        timed_out = server.admission.refused["head-timeout"]
    assert closed_after is not None and closed_after < 6
    # only a connection that never made an authorized request counts as refused
    assert timed_out == (0 if "--after-request" in how else 1)


# --- the peer's user ------------------------------------------------------------------------------------
def test_the_owner_of_a_loopback_peer_is_found_by_its_address_and_port():
    owners = PeerOwners()
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        try:
            if not sys.platform.startswith("linux"):
                assert owners.owner_of_peer(accepted) == UNCHECKED
                return
            assert owners.owner_of_peer(accepted) == os.geteuid()
            assert owners.owner_of_peer(client) == os.geteuid()  # either end finds the other
            client.close()
            assert owners.owner_of_peer(accepted) == GONE
        finally:
            client.close()
            accepted.close()
            owners.close()


def _python_for(uid: int) -> str | None:
    """An interpreter that user may run (the test's own may live under root's home)."""
    for candidate in (sys.executable, shutil.which("python3", path="/usr/bin:/bin")):
        if candidate is None:
            continue
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            as_user = {"user": uid, "group": uid, "extra_groups": []}
            subprocess.run([candidate, "-c", "pass"], check=True, timeout=30, **as_user)
            return candidate
    return None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the peer's user is looked up on Linux only")
async def test_a_connection_from_another_users_process_is_closed_before_it_is_read():
    if os.geteuid() != 0:
        pytest.skip("starting a process as another user needs root")
    python = _python_for(NOBODY)
    if python is None:
        pytest.skip("no interpreter the nobody user may run")
    async with serving() as (server, tools):
        # the other user even knows the secret: it still gets nothing, and nothing of it is read
        as_nobody = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        argv = (python, str(CLIENTS), "request", str(server.port), SECRET)
        async with second_process(*argv, **as_nobody) as other:
            refused = await other.answer()
        async with second_process(*clients("request", server.port, SECRET)) as own:
            admitted = await own.answer()
        assert server.admission is not None
        counted = server.admission.refused["other-user"]
    assert refused == {"received": ""}
    assert admitted["received"].startswith("HTTP/1.1 200")
    assert counted == 1
    assert tools.calls == [("list_terminals", ("cqt_probe",))]
