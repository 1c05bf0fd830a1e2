"""A read-only client of OpenClaw's Gateway: one persistent WebSocket speaking the Gateway protocol
(the `connect.challenge` event, a `connect` request with the shared token, then `{type: "req"}` /
`{type: "res"}` frames), used for the transcript supplements (`supplement.py`) and the list
of OpenClaw's own agents a new chat may go to (`agents.py`).

Why a WebSocket and not `openclaw gateway call`: against the suite's Gateway one `gateway call` costs
~600 ms and ~225 MB (a Node process per read), a fresh WebSocket connect + `sessions.get` ~4 ms, a call
on the open socket ~1 ms. The client connects lazily, keeps the socket for later reads, and drops it on
any failure (the next read connects again).

Read-only: it asks for the `operator.read` scope only and calls nothing but the methods in
`READ_METHODS`. Bounded: each frame at most `MAX_FRAME_BYTES`, each call at most `CALL_TIMEOUT_S`
(connect included), at most `MAX_PENDING` calls at once. It never raises to its caller: a failure is
None ("no supplement") and one log line per kind of failure until a call succeeds again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from typing import Any

from app.main.openclaw.endpoint import GatewayEndpoint

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 8 * 1024 * 1024  # a larger answer closes the socket: no supplement
CALL_TIMEOUT_S = 5.0
MAX_PENDING = 8
PROTOCOL_VERSION = 4
READ_METHODS = frozenset({"sessions.get", "chat.history", "agents.list"})
CLIENT = {"id": "gateway-client", "mode": "backend", "displayName": "ClawQt", "platform": "linux"}


class GatewayReader:
    """Reads from one Gateway. All methods run on the event loop thread; none blocks it."""

    def __init__(
        self,
        endpoint: GatewayEndpoint,
        *,
        timeout_s: float = CALL_TIMEOUT_S,
        max_frame_bytes: int = MAX_FRAME_BYTES,
        version: str = "0.1.0",
    ) -> None:
        self.endpoint = endpoint
        self.timeout_s = timeout_s
        self.max_frame_bytes = max_frame_bytes
        self.version = version
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._connecting: asyncio.Lock | None = None
        self._logged: set[str] = set()
        self.calls = 0
        self.failures = 0

    # --- public ------------------------------------------------------------------------------
    async def call(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """The payload of a read-only method, or None on any failure (logged once per kind)."""
        if method not in READ_METHODS:
            raise ValueError(f"{method} is not a read-only Gateway method")
        if len(self._pending) >= MAX_PENDING:
            self._fail("busy", f"more than {MAX_PENDING} Gateway reads at once")
            return None
        self.calls += 1
        try:
            # a timeout scope, not wait_for: no task of its own that a quit could leave never started
            async with asyncio.timeout(self.timeout_s):
                payload = await self._call(method, params)
        except TimeoutError:
            self._fail("timeout", f"{method} took longer than {self.timeout_s:g} s")
            await self._drop()
            return None
        except Exception as exc:  # connection refused, closed, oversized frame, protocol error
            self._fail(type(exc).__name__, f"{method} failed: {exc}")
            await self._drop()
            return None
        self._logged.clear()
        return payload if isinstance(payload, dict) else None

    async def reachable(self) -> bool:
        """Whether the Gateway takes ClawQt's connection now: a live socket, or a new handshake within
        the time limit (a failure is logged like a read's)."""
        try:
            async with asyncio.timeout(self.timeout_s):
                await self._ensure_connected()
        except Exception as exc:  # refused, closed, timed out, a protocol error
            self._fail(type(exc).__name__, f"connect failed: {exc}")
            await self._drop()
            return False
        return True

    async def close(self) -> None:
        await self._drop()

    # --- connection --------------------------------------------------------------------------
    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        await self._ensure_connected()
        return await self._request(method, params)

    async def _ensure_connected(self) -> None:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._ws is not None and self._reader is not None and not self._reader.done():
                return
            await self._drop()
            await self._connect()

    async def _connect(self) -> None:
        from websockets.asyncio.client import connect  # imported on first use: OpenClaw only

        ws = await connect(
            self.endpoint.url,
            max_size=self.max_frame_bytes,
            max_queue=16,
            open_timeout=self.timeout_s,
            close_timeout=1.0,
            ping_interval=None,
            compression=None,
            user_agent_header=f"ClawQt/{self.version}",
        )
        try:
            challenge = json.loads(await ws.recv())
            if not (isinstance(challenge, dict) and challenge.get("event") == "connect.challenge"):
                raise ConnectionError("the Gateway sent no connect challenge")
            self._ws = ws
            self._reader = asyncio.get_running_loop().create_task(self._read(ws), name="gateway-reader")
            auth = {"token": self.endpoint.token} if self.endpoint.token else {}
            if self.endpoint.password and not self.endpoint.token:
                auth = {"password": self.endpoint.password}
            hello = await self._request(
                "connect",
                {
                    "minProtocol": PROTOCOL_VERSION,
                    "maxProtocol": PROTOCOL_VERSION,
                    "client": {**CLIENT, "version": self.version},
                    "role": "operator",
                    "scopes": ["operator.read"],
                    "auth": auth,
                },
            )
            if not isinstance(hello, dict) or hello.get("type") != "hello-ok":
                raise ConnectionError("the Gateway did not accept the connection")
        except BaseException:
            self._ws = None
            with contextlib.suppress(Exception):
                await ws.close()
            raise

    async def _request(self, method: str, params: dict[str, Any]) -> Any:
        ws = self._ws
        if ws is None:
            raise ConnectionError("not connected")
        request_id = str(uuid.uuid4())
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await ws.send(json.dumps({"type": "req", "id": request_id, "method": method, "params": params}))
            return await future
        finally:
            self._pending.pop(request_id, None)

    async def _read(self, ws: Any) -> None:
        """Answers go to their waiters; events are read and dropped (so the socket never backs up)."""
        error: BaseException = ConnectionError("the Gateway closed the connection")
        try:
            async for raw in ws:
                try:
                    frame = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(frame, dict) or frame.get("type") != "res":
                    continue
                future = self._pending.get(frame.get("id"))  # type: ignore[arg-type]
                if future is None or future.done():
                    continue
                if frame.get("ok") is True:
                    future.set_result(frame.get("payload"))
                else:
                    problem = frame.get("error")
                    message = problem.get("message") if isinstance(problem, dict) else None
                    future.set_exception(ConnectionError(str(message or "the Gateway refused the request")))
        except asyncio.CancelledError:
            error = ConnectionError("the reader was closed")
        except Exception as exc:  # an oversized frame or a broken connection
            error = exc
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(error)
            if self._ws is ws:
                self._ws = None

    async def _drop(self) -> None:
        ws, self._ws = self._ws, None
        reader, self._reader = self._reader, None
        if reader is not None and not reader.done():
            reader.cancel()
        if ws is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    await ws.close()
        if reader is not None:
            with contextlib.suppress(BaseException):
                await reader

    def _fail(self, kind: str, message: str) -> None:
        self.failures += 1
        if kind not in self._logged:
            self._logged.add(kind)
            log.warning("OpenClaw Gateway read (no transcript supplement): %s", message)
