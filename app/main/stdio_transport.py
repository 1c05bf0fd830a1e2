"""A message transport for the SDK over the agent's pipes, with the filtering the SDK lacks.

Why our own: the SDK's reader hands every message to a separate task (so `session/update`s could be
processed out of order), drops unknown update kinds, logs a traceback per garbage line, and keeps no raw
copy. Here every incoming line is read without a length limit, lines not starting with `{` are dropped
and logged, the raw message is shown to `on_raw` with the line that carried it (recording, `_meta`,
the protocol inspector), and `intercept` may take a
message synchronously, in arrival order, before the SDK sees it (we route `session/update` that way).

No line can end the stream: a line that cannot be parsed (also one nested too deep for the parser),
that is not a JSON-RPC message (an `id` JSON-RPC does not allow: a list, an object, a boolean; a
`method` that is not a string), or whose handling fails is dropped, logged and counted, and the next
line is read. Only the agent closing its stdout ends it (`on_closed` then says so).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from app.main.json_rpc import jsonrpc_problem

log = logging.getLogger(__name__)

READ_CHUNK = 256 * 1024
YIELD_AFTER_S = 0.008  # longest stretch of message handling before the loop gets a turn
_LOG_PREVIEW = 160
LARGE_LINE_BYTES = 1024 * 1024  # a line this long is decoded and parsed in separate steps

T = TypeVar("T")
RawObserver = Callable[[str, dict[str, Any], bytes | str], None]  # direction, message, its line
Interceptor = Callable[[dict[str, Any]], bool]
Diagnostic = Callable[[str], None]


def _preview(line: bytes | str) -> str:
    head = line[:_LOG_PREVIEW]
    return head.decode("utf-8", "replace") if isinstance(head, bytes) else head


class StdioTransport:
    """Implements the SDK's `Transport` protocol (`send`, `receive`, `close`) over a child's pipes."""

    def __init__(
        self,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        *,
        on_raw: RawObserver | None = None,
        intercept: Interceptor | None = None,
        on_diagnostic: Diagnostic | None = None,
        on_closed: Callable[[], None] | None = None,
    ) -> None:
        self._stdin = stdin
        self._on_closed = on_closed
        self._stdout = stdout
        self._on_raw = on_raw
        self._intercept = intercept
        self._on_diagnostic = on_diagnostic
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._outstanding: set[Any] = set()
        self._closed = False
        self.dropped_lines = 0
        self._reader = asyncio.get_running_loop().create_task(self._read_loop(), name="agent-stdout")

    # --- the SDK's Transport protocol -------------------------------------------------------
    async def send(self, message: dict[str, Any]) -> None:
        if self._closed or self._stdin.is_closing():
            if "method" not in message:  # a late answer to a dead agent: nobody is left to read it
                log.debug("dropped a response to a closed agent: id %r", message.get("id"))
                return
            raise ConnectionError("the agent's stdin is closed")
        if "method" in message and "id" in message:
            self._outstanding.add(message["id"])
        data = (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        if self._on_raw is not None:
            self._on_raw("send", message, data)
        try:
            self._stdin.write(data)
            await self._stdin.drain()
        except (ConnectionError, BrokenPipeError, RuntimeError) as exc:
            raise ConnectionError(f"cannot write to the agent: {exc}") from exc

    async def receive(self) -> dict[str, Any] | None:
        return await self._queue.get()

    async def close(self) -> None:
        self._closed = True
        if not self._stdin.is_closing():
            self._stdin.close()
        self._reader.cancel()
        self._queue.put_nowait(None)

    # --- reading ------------------------------------------------------------------------------
    def _diagnose(self, text: str) -> None:
        log.warning("agent stdout: %s", text)
        if self._on_diagnostic is not None:
            self._on_diagnostic(text)

    async def _read_loop(self) -> None:
        pending: list[bytes] = []
        try:
            while True:
                chunk = await self._stdout.read(READ_CHUNK)
                if not chunk:
                    break
                start = 0
                busy_until = time.perf_counter() + YIELD_AFTER_S
                while True:
                    if time.perf_counter() > busy_until:
                        # a 256 KB read can hold a thousand updates: let the window paint and tick
                        # between slices instead of handling them all in one go (order is kept)
                        await asyncio.sleep(0)
                        busy_until = time.perf_counter() + YIELD_AFTER_S
                    newline = chunk.find(b"\n", start)
                    if newline < 0:
                        pending.append(chunk[start:])
                        break
                    pending.append(chunk[start:newline])
                    line = b"".join(pending)
                    pending.clear()
                    if len(line) >= LARGE_LINE_BYTES:
                        await self._take_large_line(line)
                        busy_until = time.perf_counter() + YIELD_AFTER_S
                    else:
                        self._take_line(line)
                    start = newline + 1
            if pending:
                self._take_line(b"".join(pending))
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a broken pipe must end the stream, never the app
            log.exception("agent stdout reader failed")
            self._diagnose(f"reader failed: {exc}")
        finally:
            self._queue.put_nowait(None)
            if not self._closed and self._on_closed is not None:
                self._on_closed()

    async def _take_large_line(self, line: bytes) -> None:
        """A line of megabytes in steps with the window's turn between them (joining, decoding, parsing
        and handling 100 MB took 300 ms in one go): each step is one pass over the line."""
        await asyncio.sleep(0)
        try:
            text: bytes | str = line.decode("utf-8")
        except UnicodeDecodeError:
            text = line  # the parser says why it is unusable
        del line
        await asyncio.sleep(0)
        message = self._isolated(text, self._parse_line, text)
        if message is not None:
            await asyncio.sleep(0)
            self._isolated(text, self._dispatch, message, text)

    def _take_line(self, line: bytes | str) -> None:
        """One line, isolated: whatever it does, the reader goes on with the next."""
        message = self._isolated(line, self._parse_line, line)
        if message is not None:
            self._isolated(line, self._dispatch, message, line)

    def _isolated(self, line: bytes | str, step: Callable[..., T], *args: Any) -> T | None:
        """`step(*args)` for `line`; whatever it raises, the line is dropped with a diagnostic."""
        try:
            return step(*args)
        except RecursionError:
            self._drop(line, "nested too deep to parse")
        except Exception as exc:
            log.exception("handling an agent line failed")
            self._drop(line, f"could not be handled ({type(exc).__name__}: {exc})")
        return None

    def _drop(self, line: bytes | str, why: str) -> None:
        self.dropped_lines += 1
        preview = _preview(line.strip())
        self._diagnose(f"dropped a line ({len(line)} bytes) that {why}: {preview!r}")

    def _parse_line(self, line: bytes | str) -> dict[str, Any] | None:
        """The JSON-RPC message a line holds, or None (a blank line, or dropped with a diagnostic)."""
        stripped = line.strip()
        if not stripped:
            return None
        if not stripped.startswith(b"{" if isinstance(stripped, bytes) else "{"):
            self.dropped_lines += 1
            preview = _preview(stripped)
            self._diagnose(f"dropped a non-JSON line ({len(stripped)} bytes): {preview!r}")
            return None
        try:
            message = json.loads(stripped)
        except ValueError as exc:
            self.dropped_lines += 1
            self._diagnose(f"dropped an unparsable line ({len(stripped)} bytes): {exc}")
            return None
        if not isinstance(message, dict):
            self.dropped_lines += 1
            self._diagnose("dropped a JSON line that is not an object")
            return None
        problem = jsonrpc_problem(message)
        if problem:
            self._drop(stripped, problem)
            return None
        return message

    def _dispatch(self, message: dict[str, Any], line: bytes | str) -> None:
        """Hand a parsed message on (with the line that carried it, for observers): observed, matched
        to its request, intercepted or queued."""
        if self._on_raw is not None:
            self._on_raw("recv", message, line)
        if "method" not in message and "id" in message:
            if message["id"] not in self._outstanding:
                self._diagnose(f"dropped a response with an unknown id: {message.get('id')!r}")
                return
            self._outstanding.discard(message["id"])
        if self._intercept is not None:
            try:
                if self._intercept(message):
                    return
            except Exception:  # routing must never kill the reader
                log.exception("intercepting an agent message failed")
                self._diagnose("an agent message could not be routed (see the log)")
                return
        self._queue.put_nowait(message)
