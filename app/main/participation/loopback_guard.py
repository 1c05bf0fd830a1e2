"""The door in front of the loopback MCP app: who may reach it at all, and how much they may send.

Checked here, in this order, before the MCP SDK sees a byte of the body, so the rules do not depend on
the SDK's defaults (its own loopback check accepts any port): the headers are bounded; the Host header
names this server (127.0.0.1:PORT or localhost:PORT: a page that rebinds a DNS name to 127.0.0.1 still
sends its own name); a present Origin is this server's own origin; the path is the MCP endpoint; the
method is POST; the bearer is admitted (the install secret or a live capability, decided by the caller's
`admits`); at most `MAX_CALLS` authorized requests run at once; the body is at most `MAX_BODY_BYTES`,
counted as it streams in (a declared Content-Length over the cap is refused before any body is read; a
chunked body is refused once it passes the cap). Refusals carry no detail beyond their status line.

Connections that never make an authorized request are `loopback_admission`'s: they are counted apart
and never take the place of an authorized call. The connection tells its admission through the scope
(`AUTHORIZED_HOOK`) once a request on it is authorized.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

# A send_terminal_input text is at most 16 KiB of characters (64 KiB of UTF-8); JSON escaping can
# double that. Nothing legitimate comes near this cap.
MAX_BODY_BYTES = 256 * 1024
# Longer Authorization values are not ours; refusing them early keeps the owner loop out of it.
MAX_BEARER_CHARS = 512
# The request's header lines together (names and values). uvicorn's h11 limit stops a head that
# trickles in past it, but a head arriving in one read is parsed whole (up to the socket's read size).
MAX_HEADER_BYTES = 16 * 1024
MAX_HEADER_COUNT = 64
MCP_PATH = "/mcp"
# Authorized requests running at once; each long poll holds one (read_terminal waits up to 20 s).
# Past it: 503. Connections that have not (yet) made an authorized request never count here.
MAX_CALLS = 64
# A callable the connection puts into each request's scope: called once the bearer is admitted.
AUTHORIZED_HOOK = "clawqt.authorized"

Admits = Callable[[bytes], Awaitable[bool]]
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


class LoopbackGuard:
    """ASGI middleware: refuses anything but an authorized, bounded POST to `MCP_PATH` on this port."""

    def __init__(
        self,
        app: Asgi,
        port: int,
        admits: Admits,
        max_body: int = MAX_BODY_BYTES,
        max_calls: int = MAX_CALLS,
    ) -> None:
        self._app = app
        self._admits = admits
        self._max_body = max_body
        self._max_calls = max_calls
        self._calls = 0  # this runs on the server's one loop: a plain count
        self._hosts = {f"127.0.0.1:{port}".encode(), f"localhost:{port}".encode()}
        self._origins = {f"http://127.0.0.1:{port}".encode(), f"http://localhost:{port}".encode()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here; uvicorn closes the connection
        headers = _headers(scope)
        raw = scope.get("headers", ())
        head_bytes = sum(len(name) + len(value) for name, value in raw)
        if len(raw) > MAX_HEADER_COUNT or head_bytes > MAX_HEADER_BYTES:
            await _refuse(send, 431)
            return
        hosts = headers.get(b"host", [])
        if len(hosts) != 1 or hosts[0].lower() not in self._hosts:
            await _refuse(send, 421)
            return
        origins = headers.get(b"origin", [])
        if len(origins) > 1 or (origins and origins[0].lower() not in self._origins):
            await _refuse(send, 403)
            return
        if scope.get("path") != MCP_PATH:
            await _refuse(send, 404)
            return
        if scope.get("method") != "POST":
            await _refuse(send, 405, [(b"allow", b"POST")])
            return
        bearer = _bearer(headers.get(b"authorization", []))
        if bearer is None or not await self._admits(bearer):
            await _refuse(send, 401, [(b"www-authenticate", b"Bearer")])
            return
        authorized = scope.get(AUTHORIZED_HOOK)
        if callable(authorized):
            authorized()
        if self._calls >= self._max_calls:
            await _refuse(send, 503)
            return
        self._calls += 1
        try:
            await self._call(scope, receive, send, headers)
        finally:
            self._calls -= 1

    async def _call(
        self, scope: Scope, receive: Receive, send: Send, headers: dict[bytes, list[bytes]]
    ) -> None:
        """An authorized request: its body within the cap, then the app."""
        declared = headers.get(b"content-length", [])
        if declared:
            try:
                size = int(declared[0])
            except ValueError:
                await _refuse(send, 400)
                return
            if size > self._max_body:
                await _refuse(send, 413)
                return
        body = await self._read_body(receive)
        if body is None:
            await _refuse(send, 413)
            return
        await self._app(scope, _replay(body, receive), send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the cap (the rest is never read)."""
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; the app sees an empty body and the disconnect after it
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self._max_body:
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(parts)


def _headers(scope: Scope) -> dict[bytes, list[bytes]]:
    headers: dict[bytes, list[bytes]] = {}
    for name, value in scope.get("headers", ()):
        headers.setdefault(bytes(name).lower(), []).append(bytes(value))
    return headers


def _bearer(values: list[bytes]) -> bytes | None:
    if len(values) != 1:
        return None
    scheme, _, token = values[0].strip().partition(b" ")
    token = token.strip()
    if scheme.lower() != b"bearer" or not token or len(token) > MAX_BEARER_CHARS:
        return None
    return token


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the already read body over once, then defers to the connection."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> dict[str, Any]:
        if pending:
            return pending.pop()
        return await receive()

    return replay


_REASONS = {
    400: b"Bad Request",
    401: b"Unauthorized",
    403: b"Forbidden",
    404: b"Not Found",
    405: b"Method Not Allowed",
    413: b"Content Too Large",
    421: b"Misdirected Request",
    431: b"Request Header Fields Too Large",
    503: b"Service Unavailable",
}


async def _refuse(send: Send, status: int, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """A refusal with its reason phrase as the only body; the connection closes (the body may be unread)."""
    body = _REASONS[status]
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
