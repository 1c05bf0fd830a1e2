"""The proposal endpoint on a real Unix socket: where it lives and who may use it (folder 0700 and the
user's own, socket 0600, the peer's uid from the kernel), how much it reads (a frame of exactly
MAX_FRAME_BYTES, one byte more refused), its deadline, and that every waiting client hears the end
(`unavailable` when the endpoint stops; the handler learns when a client goes away). The handler here
is a recording stand-in: these tests are about the transport, not the validation."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from app.contract.proposal_wire import MAX_FRAME_BYTES, socket_path
from app.main.proposals import endpoint as proposal_endpoint
from app.main.proposals.endpoint import ProposalEndpoint, ProposalEndpointError, peer_uid

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534
pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets only")


class Recording:
    """Answers every request with `status`; an accepted one gets a final future the test resolves."""

    def __init__(self, status: str = "accepted", delay: float = 0.0) -> None:
        self.status = status
        self.delay = delay
        self.requests: list[tuple[bytes, int]] = []
        self.finals: list[asyncio.Future[dict[str, Any]]] = []

    async def handle(self, request_line: bytes, peer_uid: int) -> tuple[dict, asyncio.Future | None]:
        self.requests.append((request_line, peer_uid))
        if self.delay:
            await asyncio.sleep(self.delay)  # the handler's slowness the test asked for
        if self.status != "accepted":
            return {"phase": "validation", "status": self.status, "reason": "no", "retryable": False}, None
        proposal_id = f"p-{len(self.finals)}"
        final: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.finals.append(final)
        answer = {"phase": "validation", "status": "accepted", "proposal_id": proposal_id, "retryable": False}
        return answer, final


@pytest.fixture
def runtime_dir(monkeypatch: pytest.MonkeyPatch):
    """A short runtime folder (socket paths have a length limit) that the test owns."""
    folder = tempfile.mkdtemp(prefix="cq-", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _instance() -> str:
    return secrets.token_hex(16)


async def _client(path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_unix_connection(path, limit=4 * MAX_FRAME_BYTES)


async def _request(path: str, frame: bytes) -> tuple[list[dict], asyncio.StreamWriter, asyncio.StreamReader]:
    """Send `frame` and read the validation line."""
    reader, writer = await _client(path)
    writer.write(frame)
    try:
        await writer.drain()
        first = await asyncio.wait_for(reader.readline(), 5)
    except ConnectionResetError:  # closed with our request unread: refused, not answered
        first = b""
    return [json.loads(first)] if first else [], writer, reader


def _frame(size: int, terminator: bytes = b"\n") -> bytes:
    """A request line of exactly `size` bytes (JSON, so a real handler could read it)."""
    head = b'{"version":1,"channel":"c","payload":"'
    tail = b'"}'
    return head + b"x" * (size - len(head) - len(tail)) + tail + terminator


async def test_the_socket_lives_in_a_private_folder_and_only_the_user_may_use_it(runtime_dir):
    endpoint = ProposalEndpoint(_instance(), Recording())
    path = await endpoint.start()
    try:
        assert path == socket_path(endpoint.instance) == endpoint.path
        assert Path(path).parent == Path(runtime_dir) / f"clawqt-{os.getuid()}"
        folder, sock = os.lstat(Path(path).parent), os.lstat(path)
        assert stat.S_ISDIR(folder.st_mode) and stat.S_IMODE(folder.st_mode) == 0o700
        assert folder.st_uid == os.getuid()
        assert stat.S_ISSOCK(sock.st_mode) and stat.S_IMODE(sock.st_mode) == 0o600
    finally:
        await endpoint.stop()
    assert not os.path.lexists(path), "stop() removes the socket"
    assert os.path.isdir(Path(path).parent), "the folder stays: other instances of the user use it"


async def test_a_socket_left_by_a_crashed_run_is_replaced(runtime_dir):
    instance = _instance()
    first = ProposalEndpoint(instance, Recording())
    await first.start()
    first._server.close()  # a crash: the file stays, nobody listens
    first._server = None
    first._accepting.cancel()
    await asyncio.wait({first._accepting})
    second = ProposalEndpoint(instance, Recording("unknown_channel"))
    await second.start()
    try:
        lines, writer, _ = await _request(second.path, _frame(100))
        assert lines[0]["status"] == "unknown_channel"
        writer.close()
    finally:
        await second.stop()


async def test_a_folder_other_users_can_enter_is_refused_and_left_as_it_is(runtime_dir):
    folder = Path(runtime_dir) / f"clawqt-{os.getuid()}"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    endpoint = ProposalEndpoint(_instance(), Recording())
    with pytest.raises(ProposalEndpointError, match=r"other users \(mode 0755\).*chmod 700"):
        await endpoint.start()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755, "never chmods a folder it refused"
    assert not os.path.lexists(endpoint.path)


@pytest.mark.skipif(not IS_ROOT, reason="giving a folder to another user needs root")
async def test_a_folder_of_another_user_is_refused_and_left_as_it_is(runtime_dir):
    folder = Path(runtime_dir) / f"clawqt-{os.getuid()}"
    folder.mkdir(mode=0o700)
    os.chown(folder, NOBODY, NOBODY)
    endpoint = ProposalEndpoint(_instance(), Recording())
    with pytest.raises(ProposalEndpointError, match=f"belongs to uid {NOBODY}, not to you"):
        await endpoint.start()
    info = folder.stat()
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (NOBODY, 0o700)
    assert not os.path.lexists(endpoint.path)


async def test_a_folder_that_is_a_symlink_is_refused(runtime_dir):
    elsewhere = Path(runtime_dir) / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (Path(runtime_dir) / f"clawqt-{os.getuid()}").symlink_to(elsewhere)
    endpoint = ProposalEndpoint(_instance(), Recording())
    with pytest.raises(ProposalEndpointError, match="not a folder"):
        await endpoint.start()
    assert list(elsewhere.iterdir()) == []


async def test_the_credential_check_reads_the_kernel_uid_of_a_real_socket(runtime_dir, caplog):
    """The check itself, where no second user exists: the kernel reports our uid for a real socket
    pair, and an endpoint that expects another uid refuses us without reading or answering."""
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        assert peer_uid(left) == os.getuid()
    handler = Recording()
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    endpoint._uid = os.getuid() + 1  # as if the endpoint belonged to another user
    try:
        with caplog.at_level(logging.WARNING, logger=proposal_endpoint.__name__):
            lines, writer, _ = await _request(endpoint.path, _frame(100))
            assert lines == [], "closed without an answer"
            writer.close()
    finally:
        await endpoint.stop()
    assert handler.requests == [], "nothing was read"
    assert f"refused a connection from uid {os.getuid()}" in caplog.text


@pytest.mark.skipif(not IS_ROOT or shutil.which("setpriv") is None, reason="needs root and setpriv")
async def test_a_peer_of_another_uid_is_refused_even_with_open_file_modes(runtime_dir, caplog):
    """File modes are the first wall; the uid check is the second. With the folder and socket opened
    up by hand (a broken setup), a process of another user connects and is still closed unanswered."""
    handler = Recording()
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    os.chmod(runtime_dir, 0o711)
    os.chmod(Path(endpoint.path).parent, 0o711)
    os.chmod(endpoint.path, 0o666)
    client = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "s.connect(sys.argv[1])\n"
        "try:\n"
        "    s.sendall(sys.argv[2].encode() + b'\\n')\n"
        "    answer = s.recv(1000)\n"
        "except (BrokenPipeError, ConnectionResetError):  # closed before or after the request\n"
        "    answer = b''\n"
        "print('answer:', repr(answer), flush=True)\n"
    )
    try:
        with caplog.at_level(logging.WARNING, logger=proposal_endpoint.__name__):
            proc = await asyncio.create_subprocess_exec(
                "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                sys.executable, "-c", client, endpoint.path, _frame(100, b"").decode(),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        await endpoint.stop()
    assert proc.returncode == 0, err.decode()
    assert out.decode().strip() == "answer: b''", "connected, then closed without a byte"
    assert handler.requests == []
    assert f"refused a connection from uid {NOBODY}" in caplog.text


async def test_a_frame_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(runtime_dir):
    handler = Recording("unknown_channel")
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    try:
        at_limit = _frame(MAX_FRAME_BYTES)
        lines, writer, _ = await _request(endpoint.path, at_limit)
        writer.close()
        assert lines[0]["status"] == "unknown_channel"
        assert handler.requests[-1][0] == at_limit[:-1], "the whole frame, its newline removed"

        lines, writer, _ = await _request(endpoint.path, _frame(MAX_FRAME_BYTES, b"\r\n"))
        writer.close()
        assert lines[0]["status"] == "unknown_channel", "a CR before the newline does not count"
        assert handler.requests[-1][0] == at_limit[:-1]

        count = len(handler.requests)
        for over in (_frame(MAX_FRAME_BYTES + 1), _frame(3 * MAX_FRAME_BYTES)):
            lines, writer, _ = await _request(endpoint.path, over)
            writer.close()
            assert lines == [
                {
                    "phase": "validation",
                    "status": "invalid_schema",
                    "reason": proposal_endpoint.TOO_LONG,
                    "retryable": True,
                }
            ]
        assert len(handler.requests) == count, "an oversized frame never reaches the handler"
        assert f"longer than {MAX_FRAME_BYTES} bytes" in proposal_endpoint.TOO_LONG
    finally:
        await endpoint.stop()


async def test_a_request_that_never_completes_or_a_slow_validation_ends_at_the_deadline(
    runtime_dir, monkeypatch
):
    monkeypatch.setattr(proposal_endpoint, "VALIDATION_DEADLINE_S", 0.3)
    handler = Recording("accepted", delay=5.0)
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    try:
        lines, writer, _ = await _request(endpoint.path, b'{"version":1,')  # no newline, ever
        writer.close()
        assert lines[0]["status"] == "invalid_schema" and lines[0]["retryable"] is True
        assert "no complete request line arrived within" in lines[0]["reason"]

        lines, writer, reader = await _request(endpoint.path, _frame(100))
        # the handler would accept after 5 s: "unavailable" is the deadline's answer
        assert lines[0]["status"] == "unavailable" and lines[0]["retryable"] is True
        assert await reader.read() == b"", "no final line after a failed validation"
        writer.close()
        assert handler.finals == [], "the handler was cancelled before it could accept"
    finally:
        await endpoint.stop()


async def test_a_client_that_goes_away_cancels_its_final_future(runtime_dir):
    handler = Recording()
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    try:
        lines, writer, _ = await _request(endpoint.path, _frame(100))
        assert lines[0]["status"] == "accepted"
        final = handler.finals[0]
        writer.close()
        await asyncio.wait_for(asyncio.shield(asyncio.wait({final})), 5)
        assert final.cancelled(), "the handler learns that nobody will hear the result"
        for _ in range(100):
            if not endpoint._connections:
                break
            await asyncio.sleep(0.01)  # the poll's interval
        assert not endpoint._connections
    finally:
        await endpoint.stop()


async def test_stop_answers_every_waiting_client_unavailable(runtime_dir):
    handler = Recording()
    slow = Recording(delay=30.0)
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    waiting = []
    for _ in range(2):
        lines, writer, reader = await _request(endpoint.path, _frame(100))
        assert lines[0]["status"] == "accepted"
        waiting.append((lines[0]["proposal_id"], writer, reader))
    endpoint._handler = slow  # a third client is still being validated when the endpoint stops
    reader3, writer3 = await _client(endpoint.path)
    writer3.write(_frame(100))
    while not slow.requests:
        await asyncio.sleep(0.01)  # the poll's interval
    await asyncio.wait_for(endpoint.stop(), 15)  # it must not wait for the 30 s validation
    for proposal_id, writer, reader in waiting:
        final = json.loads(await asyncio.wait_for(reader.readline(), 5))
        assert final == {"phase": "final", "status": "unavailable", "proposal_id": proposal_id}
        assert await reader.read() == b""
        writer.close()
    third = json.loads(await asyncio.wait_for(reader3.readline(), 5))
    assert third["status"] == "unavailable" and third["phase"] == "validation"
    writer3.close()
    assert all(f.cancelled() for f in handler.finals)
    assert not endpoint._connections and not os.path.lexists(endpoint.path)


async def test_a_final_that_resolves_is_the_second_line_and_failures_become_unavailable(runtime_dir):
    handler = Recording()
    endpoint = ProposalEndpoint(_instance(), handler)
    await endpoint.start()
    try:
        lines, writer, reader = await _request(endpoint.path, _frame(100))
        handler.finals[0].set_result({"phase": "final", "status": "confirmed", "proposal_id": "p-0"})
        assert json.loads(await reader.readline()) == {
            "phase": "final",
            "status": "confirmed",
            "proposal_id": "p-0",
        }
        writer.close()

        lines, writer, reader = await _request(endpoint.path, _frame(100))
        handler.finals[1].set_exception(RuntimeError("the card broke"))
        assert json.loads(await reader.readline()) == {
            "phase": "final",
            "status": "unavailable",
            "proposal_id": "p-1",
        }
        writer.close()

        lines, writer, reader = await _request(endpoint.path, _frame(100))
        handler.finals[2].set_result({"status": "confirmed"})  # not a final line
        assert json.loads(await reader.readline())["status"] == "unavailable"
        writer.close()

        async def broken(request_line: bytes, peer_uid: int) -> Any:
            raise RuntimeError("validation crashed")

        handler.handle = broken  # type: ignore[method-assign]
        lines, writer, reader = await _request(endpoint.path, _frame(100))
        assert lines[0]["status"] == "unavailable" and lines[0]["retryable"] is True
        assert await reader.read() == b""
        writer.close()
    finally:
        await endpoint.stop()


def test_the_endpoint_serves_the_real_cli_under_the_apps_qasync_loop(runtime_dir):
    """The app runs its owner loop through qasync: accept, the uid check and reads go through
    add_reader there (QSocketNotifier), not only on plain asyncio."""
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)

    async def scenario() -> tuple[bytes, int]:
        handler = Recording()
        endpoint = ProposalEndpoint(_instance(), handler)
        await endpoint.start()
        channel = f"v1.{endpoint.instance}.{secrets.token_hex(16)}"
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "app", "propose-terminal-actions", "--channel", channel,
                "--payload-json", "{}", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )  # fmt: skip
            first = await asyncio.wait_for(proc.stdout.readline(), 30)
            handler.finals[0].set_result({"phase": "final", "status": "cancelled", "proposal_id": "p-0"})
            rest = await asyncio.wait_for(proc.stdout.read(), 30)
            return first + rest, await proc.wait()
        finally:
            await endpoint.stop()

    try:
        out, code = loop.run_until_complete(scenario())
    finally:
        loop.close()
    assert code == 0
    assert [json.loads(line)["status"] for line in out.splitlines()] == ["accepted", "cancelled"]
