"""The terminal tools' listening socket: bound on 127.0.0.1 before the server's modules load, so the
address agents are given is known at once (connections wait in the backlog until the server runs).
Imports nothing heavy."""

from __future__ import annotations

import errno
import socket
import sys

HOST = "127.0.0.1"


class McpServerError(RuntimeError):
    """The server could not start (the configured port is taken, or uvicorn failed to start)."""


def bind_loopback(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 only; a taken port is an error that names it."""
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY on accepted sockets only when the listening
    # socket says TCP; without it every keep-alive answer waits for the client's delayed ACK (~40 ms).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if sys.platform != "win32":  # on Windows SO_REUSEADDR would let two servers share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            raise McpServerError(
                f"port {port} on {HOST} is already in use: choose another port for the terminal tools "
                "or leave it empty for a free one"
            ) from error
        raise McpServerError(f"cannot listen on {HOST}:{port}: {error.strerror}") from error
    return sock
