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

A line of LARGE_LINE_BYTES or more is gathered without joining its pieces again and parsed in a worker
thread in steps that each hold the interpreter lock briefly (`large_json`: json.loads held the window
for the whole parse, in any thread); nothing read after it is handled before it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from app.main.acp.json_rpc import jsonrpc_problem
from app.main.core.large_json import PIECE_BYTES, LineTooComplex, loads_large

log = logging.getLogger(__name__)

READ_CHUNK = 256 * 1024
YIELD_AFTER_S = 0.008  # longest stretch of message handling before the loop gets a turn
_LOG_PREVIEW = 160
LARGE_LINE_BYTES = 1024 * 1024  # a line this long is parsed in a worker thread, in short steps
_NOT_SPACE = re.compile(rb"[^ \t\r\n]")

RawObserver = Callable[[str, dict[str, Any], bytes | bytearray | str], None]  # direction, message, its line
Interceptor = Callable[[dict[str, Any]], bool]
Diagnostic = Callable[[str], None]


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
        pending = bytearray()  # grows in place: a line of 100 MB is never copied whole to be joined
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
                        pending += memoryview(chunk)[start:]
                        break
                    line: bytes | bytearray = chunk[start:newline]
                    if pending:
                        pending += memoryview(chunk)[start:newline]
                        line, pending = pending, bytearray()
                    if len(line) >= LARGE_LINE_BYTES:
                        await self._take_large_line(line)
                        busy_until = time.perf_counter() + YIELD_AFTER_S
                    else:
                        self._take_line(bytes(line))
                    start = newline + 1
            if len(pending) >= LARGE_LINE_BYTES:
                await self._take_large_line(pending)
            elif pending:
                self._take_line(bytes(pending))
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a broken pipe must end the stream, never the app
            log.exception("agent stdout reader failed")
            self._diagnose(f"reader failed: {exc}")
        finally:
            self._queue.put_nowait(None)
            if not self._closed and self._on_closed is not None:
                self._on_closed()

    async def _take_large_line(self, line: bytes | bytearray) -> None:
        """A line of megabytes, parsed in a worker thread (the window runs meanwhile; the reader waits,
        so what came after it is handled after it), then handled here."""
        self._take_parsed(line, await asyncio.to_thread(_parsed, line))

    def _take_line(self, line: bytes | bytearray) -> None:
        """One line, isolated: whatever it does, the reader goes on with the next."""
        self._take_parsed(line, _parsed(line))

    def _take_parsed(self, line: bytes | bytearray, parsed: tuple[str, Any]) -> None:
        message = self._message(line, parsed)
        if message is not None:
            try:
                self._dispatch(message, line)
            except Exception as exc:
                log.exception("handling an agent line failed")
                self._drop(line, f"could not be handled ({type(exc).__name__}: {exc})")

    def _drop(self, line: bytes | bytearray, why: str) -> None:
        self.dropped_lines += 1
        self._diagnose(f"dropped a line ({len(line)} bytes) that {why}: {_head(line)!r}")

    def _message(self, line: bytes | bytearray, parsed: tuple[str, Any]) -> dict[str, Any] | None:
        """The JSON-RPC message a parsed line holds, or None (a blank line, or dropped with a
        diagnostic)."""
        outcome, value = parsed
        if outcome == "blank":
            return None
        if outcome != "json":
            self.dropped_lines += 1
            if outcome == "not-json":
                self._diagnose(f"dropped a non-JSON line ({len(line)} bytes): {_head(line)!r}")
            elif outcome == "too-deep":
                self._diagnose(f"dropped a line ({len(line)} bytes) that is nested too deep to parse")
            elif outcome == "too-complex":
                self._diagnose(f"dropped a line ({len(line)} bytes) that {value}: {_head(line)!r}")
            else:
                self._diagnose(f"dropped an unparsable line ({len(line)} bytes): {value}")
            return None
        if not isinstance(value, dict):
            self.dropped_lines += 1
            self._diagnose("dropped a JSON line that is not an object")
            return None
        problem = jsonrpc_problem(value)
        if problem:
            self._drop(line, problem)
            return None
        return value

    def _dispatch(self, message: dict[str, Any], line: bytes | bytearray) -> None:
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


def _parsed(line: bytes | bytearray) -> tuple[str, Any]:
    """("json", the value), ("blank", None), ("not-json", None), ("too-deep", None), ("too-complex",
    why) or ("unparsable", why). Any thread: a long line is parsed in short steps (large_json)."""
    first = _first_byte(line)
    if first is None:
        return "blank", None
    if first != ord("{"):
        return "not-json", None
    try:
        return "json", (json.loads(line) if len(line) < LARGE_LINE_BYTES else loads_large(line))
    except RecursionError:
        return "too-deep", None
    except LineTooComplex as exc:
        return "too-complex", str(exc)
    except ValueError as exc:
        return "unparsable", str(exc)
    except Exception as exc:  # whatever a line does, the reader goes on with the next
        log.exception("parsing an agent line failed")
        return "unparsable", f"{type(exc).__name__}: {exc}"


def _first_byte(line: bytes | bytearray) -> int | None:
    """The first byte that is not JSON whitespace (one window at a time), None when there is none."""
    for start in range(0, len(line), PIECE_BYTES):
        found = _NOT_SPACE.search(line, start, start + PIECE_BYTES)
        if found is not None:
            return line[found.start()]
    return None


def _head(line: bytes | bytearray) -> str:
    """The start of a line as text, for a diagnostic."""
    found = _NOT_SPACE.search(line, 0, PIECE_BYTES)
    start = found.start() if found is not None else 0
    return bytes(line[start : start + _LOG_PREVIEW]).decode("utf-8", "replace").rstrip()
