"""The per-user local endpoint the proposal CLI talks to: a Unix socket
`<runtime dir>/clawqt-<uid>/p-<instance>.sock` (directory 0700 and the user's own, socket 0600), one
request line per connection, answered with a validation line and, when accepted, a final line.

Transport only: what a request means is the handler's decision (`ProposalHandler.handle`). The endpoint
owns what no handler should have to think about: who may connect (the peer's uid, read from the kernel
before a byte is read, because file modes alone are one misconfiguration away from open), how much it
reads (one frame, bounded), how long it waits (`VALIDATION_DEADLINE_S`), and that every client waiting
for its final line gets one when the endpoint stops. Runs on the owner's asyncio loop (qasync in the
app) with the loop's raw socket calls, so no stream buffer ever reads ahead of the uid check.

Windows (a named pipe limited to the user, or QLocalServer with user-only access) is not built yet:
`start` raises `ProposalEndpointError` there."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import stat
import struct
import sys
from contextlib import suppress
from typing import Any, Protocol

from app.contract.proposal_wire import MAX_FRAME_BYTES, MAX_SOCKET_PATH_BYTES, socket_path
from app.contract.proposals import MAX_PAYLOAD_BYTES

log = logging.getLogger(__name__)

VALIDATION_DEADLINE_S = 10.0  # from accept to the validation line: reading the request and the handler
SEND_DEADLINE_S = 5.0  # one answer line into a client that does not read
STOP_GRACE_S = 2.0  # stop() lets waiting clients receive their `unavailable` line this long
_READ_BOUND = MAX_FRAME_BYTES + 2  # the frame, an optional CR, the newline: nothing more is ever read
TOO_LONG = (
    f"the request line is longer than {MAX_FRAME_BYTES} bytes; the payload may be at most "
    f"{MAX_PAYLOAD_BYTES} bytes"
)

# macOS / BSD: getsockopt(SOL_LOCAL, LOCAL_PEERCRED) fills struct xucred {cr_version; cr_uid; ...}
_SOL_LOCAL = 0
_LOCAL_PEERCRED = getattr(socket, "LOCAL_PEERCRED", 0x001)
_XUCRED_SIZE = 76


class ProposalEndpointError(RuntimeError):
    """The endpoint cannot start; the message is a sentence for the user (what is wrong, where)."""


class ProposalHandler(Protocol):
    async def handle(
        self, request_line: bytes, peer_uid: int
    ) -> tuple[dict[str, Any], asyncio.Future[dict[str, Any]] | None]:
        """Validate one request line (its newline and any CR removed, at most MAX_FRAME_BYTES) and
        return the validation answer and, when it says `accepted`, a future for the final answer.

        The endpoint CANCELS that future when it can no longer deliver it (the client went away, the
        endpoint stopped): the handler should watch it with a done callback (the proposal has nobody
        to report to) and only resolve it when it is not done yet. The handler runs within the
        endpoint's deadline and is cancelled past it; the user's decision has no deadline here (the
        handler ends an unanswered proposal with its own `timed_out`)."""
        ...


def peer_uid(conn: socket.socket) -> int | None:
    """The uid of the process at the other end of a connected Unix socket, as the kernel recorded it at
    connect time; None where the platform cannot say (the endpoint then refuses: fail closed)."""
    try:
        if sys.platform.startswith("linux"):
            ucred = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            return struct.unpack("3i", ucred)[1]  # pid, uid, gid
        if sys.platform == "darwin" or "bsd" in sys.platform:
            xucred = conn.getsockopt(_SOL_LOCAL, _LOCAL_PEERCRED, _XUCRED_SIZE)
            version, uid = struct.unpack_from("=Ii", xucred)
            return uid if version == 0 else None
    except OSError as error:
        log.warning("proposal endpoint: cannot read the peer's credentials: %s", error)
    return None


def ensure_private_dir(path: str, uid: int) -> None:
    """Create `path` 0700, or accept it only if it is a real directory (no symlink) owned by `uid` with
    no group or other permission bits. Never chmods: a directory with wider permissions or another
    owner is refused with a sentence saying what to do."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise ProposalEndpointError(
            f"Cannot create the proposal endpoint's folder {path}: {error.strerror}."
        ) from error
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise ProposalEndpointError(
            f"{path} is not a folder (it is a link or a file): ClawQt will not put its proposal socket "
            "there. Remove it if you do not know what it is."
        )
    if info.st_uid != uid:
        raise ProposalEndpointError(
            f"{path} belongs to uid {info.st_uid}, not to you (uid {uid}): ClawQt will not put its "
            "proposal socket in someone else's folder."
        )
    if info.st_mode & 0o077:
        raise ProposalEndpointError(
            f"{path} can be used by other users (mode {stat.S_IMODE(info.st_mode):04o}): ClawQt needs it "
            f"private (0700). Run: chmod 700 '{path}'"
        )


def _line(answer: dict[str, Any]) -> bytes:
    data = json.dumps(answer, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace")
    if len(data) > MAX_FRAME_BYTES:  # a handler bug; the client must still get a line it can read
        log.error("proposal endpoint: an answer of %d bytes was cut to the frame limit", len(data))
        cut: dict[str, Any] = {k: answer[k] for k in ("phase", "proposal_id", "retryable") if k in answer}
        cut.update(status="unavailable", reason="ClawQt's answer was too long to send")
        data = json.dumps(cut, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace")
    return data + b"\n"


def _validation(status: str, reason: str, retryable: bool) -> dict[str, Any]:
    return {"phase": "validation", "status": status, "reason": reason, "retryable": retryable}


def _final_unavailable(proposal_id: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {"phase": "final", "status": "unavailable"}
    if proposal_id is not None:
        answer["proposal_id"] = proposal_id
    return answer


class _FrameProblem(Exception):
    """The request is not one complete line within the limit; the message is the answer's reason."""


class ProposalEndpoint:
    """`await start()` listens at `path`; `await stop()` answers every waiting client and removes the
    socket. One instance per app start (the instance is part of the path)."""

    def __init__(self, instance: str, handler: ProposalHandler, environ: dict[str, str] | None = None):
        self.instance = instance
        self._handler = handler
        self._uid = os.getuid() if hasattr(os, "getuid") else -1
        self.path = socket_path(instance, self._uid, environ) if self._uid >= 0 else ""
        self._server: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._closed: asyncio.Future[None] | None = None
        self._connections: set[asyncio.Task[None]] = set()

    @property
    def listening(self) -> bool:
        return self._server is not None

    async def start(self) -> str:
        """Create the private directory and the socket and start accepting; returns the path."""
        if self._server is not None:
            return self.path
        if not self.path or not hasattr(socket, "AF_UNIX"):
            raise ProposalEndpointError(
                "Terminal-action proposals need a Unix socket; Windows is not supported yet."
            )
        if len(os.fsencode(self.path)) > MAX_SOCKET_PATH_BYTES:
            raise ProposalEndpointError(
                f"The proposal socket path {self.path} is longer than this system allows "
                f"({MAX_SOCKET_PATH_BYTES} bytes): set XDG_RUNTIME_DIR or TMPDIR to a shorter folder."
            )
        ensure_private_dir(os.path.dirname(self.path), self._uid)
        server = self._bind()
        loop = asyncio.get_running_loop()
        self._server = server
        self._closed = loop.create_future()
        self._accepting = asyncio.ensure_future(self._accept_loop(server))
        log.info("proposal endpoint listening at %s", self.path)
        return self.path

    def _bind(self) -> socket.socket:
        with suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)  # left by a run that crashed (our own private folder)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            server.bind(self.path)
            os.chmod(self.path, 0o600)
            server.listen(64)
            server.setblocking(False)
        except OSError as error:
            server.close()
            raise ProposalEndpointError(
                f"Cannot listen at {self.path}: {error.strerror or error}."
            ) from error
        return server

    async def stop(self) -> None:
        """Stop accepting, remove the socket, send `unavailable` to every client still waiting (final
        line, or validation line if it had none yet) and close them."""
        server, self._server = self._server, None
        if server is None:
            return
        if self._accepting is not None:
            self._accepting.cancel()
            await asyncio.wait({self._accepting})
            self._accepting = None
        server.close()
        with suppress(FileNotFoundError):
            os.unlink(self.path)
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)
        if self._connections:
            _, pending = await asyncio.wait(set(self._connections), timeout=STOP_GRACE_S)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        log.info("proposal endpoint at %s stopped", self.path)

    async def _accept_loop(self, server: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _ = await loop.sock_accept(server)
            except OSError as error:  # EMFILE and friends: try again shortly, never spin
                log.warning("proposal endpoint: accept failed: %s", error)
                await asyncio.sleep(0.1)
                continue
            task = asyncio.ensure_future(self._serve(conn))
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)

    async def _serve(self, conn: socket.socket) -> None:
        final: asyncio.Future[dict[str, Any]] | None = None
        try:
            uid = peer_uid(conn)
            if uid != self._uid:
                log.warning(
                    "proposal endpoint: refused a connection from uid %s (only uid %s may connect)",
                    uid,
                    self._uid,
                )
                return
            first = await self._first_answer(conn, uid)
            if first is None:
                return
            answer, final = first
            if not await self._send(conn, answer):
                return
            if final is None:
                return
            result = await self._final_answer(conn, final, answer.get("proposal_id"))
            if result is not None:
                await self._send(conn, result)
        except Exception:
            log.exception("proposal endpoint: a connection failed")
        finally:
            if final is not None and not final.done():
                final.cancel()  # tells the handler this client will never hear the result
            conn.close()

    async def _first_answer(
        self, conn: socket.socket, uid: int
    ) -> tuple[dict[str, Any], asyncio.Future[dict[str, Any]] | None] | None:
        """Read the request and let the handler validate it, within the deadline and unless the endpoint
        stops first. None: the client left before sending a line (nobody to answer)."""
        assert self._closed is not None
        progress = {"read": False}
        stage = asyncio.ensure_future(self._read_and_handle(conn, uid, progress))
        try:
            racing: set[asyncio.Future[Any]] = {stage, self._closed}
            await asyncio.wait(racing, timeout=VALIDATION_DEADLINE_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not stage.done():
                stage.cancel()
                await asyncio.wait({stage})
        if not stage.cancelled():
            return stage.result()  # when the endpoint stopped meanwhile, the final line says unavailable
        if self._closed.done():
            return _validation("unavailable", "ClawQt is closing", retryable=False), None
        if not progress["read"]:
            log.info("proposal endpoint: no complete request within %.0f s", VALIDATION_DEADLINE_S)
            reason = f"no complete request line arrived within {VALIDATION_DEADLINE_S:.0f} s"
            return _validation("invalid_schema", reason, retryable=True), None
        log.warning("proposal endpoint: validation did not answer within %.0f s", VALIDATION_DEADLINE_S)
        reason = f"ClawQt could not validate the request within {VALIDATION_DEADLINE_S:.0f} s"
        return _validation("unavailable", reason, retryable=True), None

    async def _read_and_handle(
        self, conn: socket.socket, uid: int, progress: dict[str, bool]
    ) -> tuple[dict[str, Any], asyncio.Future[dict[str, Any]] | None] | None:
        try:
            line = await self._read_line(conn)
        except _FrameProblem as problem:
            return _validation("invalid_schema", str(problem), retryable=True), None
        except (ConnectionError, OSError):
            return None
        if line is None:
            return None
        progress["read"] = True
        try:
            answer, final = await self._handler.handle(line, uid)
        except Exception:
            log.exception("proposal endpoint: the handler failed")
            return _validation("unavailable", "ClawQt could not validate the request", retryable=True), None
        accepted = answer.get("status") == "accepted"
        if final is not None and not accepted:
            log.error(
                "proposal endpoint: the handler gave a final future for status %s", answer.get("status")
            )
            final.cancel()
            final = None
        elif final is None and accepted:
            log.error("proposal endpoint: the handler accepted without a final future")
            final = _resolved_unavailable(answer)
        return answer, final

    async def _read_line(self, conn: socket.socket) -> bytes | None:
        """One request line without its newline (and a CR before it); None when the client closed before
        sending anything. Never reads more than `_READ_BOUND` bytes."""
        loop = asyncio.get_running_loop()
        buffer = bytearray()
        while True:
            chunk = await loop.sock_recv(conn, _READ_BOUND - len(buffer))
            if not chunk:
                if buffer:
                    raise _FrameProblem("the request line ended without a newline")
                return None
            newline = chunk.find(b"\n")
            if newline >= 0:
                buffer += chunk[:newline]
                break
            buffer += chunk
            if len(buffer) >= _READ_BOUND:
                raise _FrameProblem(TOO_LONG)
        if buffer.endswith(b"\r"):
            del buffer[-1]
        if len(buffer) > MAX_FRAME_BYTES:
            raise _FrameProblem(TOO_LONG)
        return bytes(buffer)

    async def _final_answer(
        self, conn: socket.socket, final: asyncio.Future[dict[str, Any]], proposal_id: Any
    ) -> dict[str, Any] | None:
        """The final line once the future resolves; `unavailable` when the endpoint stops first (or the
        handler failed); None when the client went away (nobody to tell)."""
        assert self._closed is not None
        gone = asyncio.ensure_future(self._until_gone(conn))
        try:
            racing: set[asyncio.Future[Any]] = {final, gone, self._closed}
            await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            await asyncio.wait({gone})
        if final.done():
            if final.cancelled():
                return _final_unavailable(proposal_id)
            error = final.exception()
            if error is not None:
                log.error("proposal endpoint: the final answer failed: %r", error)
                return _final_unavailable(proposal_id)
            result = final.result()
            if not isinstance(result, dict) or result.get("phase") != "final":
                log.error("proposal endpoint: the final answer is not a final line: %r", result)
                return _final_unavailable(proposal_id)
            return result
        if self._closed.done():
            return _final_unavailable(proposal_id)
        log.info(
            "proposal endpoint: the client of proposal %s went away before its final answer", proposal_id
        )
        return None

    async def _until_gone(self, conn: socket.socket) -> None:
        """Returns when the client closes its end (or it breaks); anything it sends meanwhile is ignored:
        one request per connection. A client must therefore not half-close after its request."""
        loop = asyncio.get_running_loop()
        with suppress(OSError):
            while await loop.sock_recv(conn, 4096):
                pass

    async def _send(self, conn: socket.socket, answer: dict[str, Any]) -> bool:
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.sock_sendall(conn, _line(answer)), SEND_DEADLINE_S)
        except (TimeoutError, OSError) as error:
            log.info("proposal endpoint: could not send an answer: %r", error)
            return False
        return True


def _resolved_unavailable(answer: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    future.set_result(_final_unavailable(answer.get("proposal_id")))
    return future
