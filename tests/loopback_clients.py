"""A second process that connects to a loopback port the way a hostile (or careless) local process
would; the terminal tools' port tests start it with subprocess. Standard library only, so it also runs
as another user under the system's python. Each command prints one JSON line per answer.

    hold PORT COUNT       open COUNT connections and send nothing: {"held": n, "error": text|null};
                          then for each line on stdin {"closed": m} (how many the server has closed);
                          ends at EOF
    silent PORT WAIT [--partial] [--after-request BEARER]
                          one connection that sends nothing (with --partial: half a request head; with
                          --after-request: first one whole request on a kept-alive connection, read its
                          answer): {"closed_after": seconds since the silence began, or null after WAIT}
    request PORT BEARER   one request listing the terminals: {"received": what came back before the
                          server closed the connection}
"""

from __future__ import annotations

import argparse
import json
import select
import socket
import sys
import time

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

CALL = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "list_terminals", "arguments": {"contextToken": "cqt_probe"}},
    }
).encode()


def head(port: int, bearer: str, length: int, close: bool = True) -> bytes:
    lines = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        f"Authorization: Bearer {bearer}",
        f"Content-Length: {length}",
    ]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def say(answer: dict) -> None:
    print(json.dumps(answer), flush=True)


def closed_by_server(sock: socket.socket) -> bool:
    sock.setblocking(False)  # a socket with a timeout would wait for data before peeking
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


def hold(port: int, count: int) -> None:
    if resource is not None:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    held: list[socket.socket] = []
    error = None
    try:
        for _ in range(count):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
    except OSError as failure:
        error = repr(failure)
    say({"held": len(held), "error": error})
    for _line in sys.stdin:
        say({"closed": sum(closed_by_server(sock) for sock in held)})


def silent(port: int, wait: float, partial: bool, after_request: str | None) -> None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if after_request is not None:
        sock.sendall(head(port, after_request, len(CALL), close=False) + CALL)
        status = read_response(sock)
        assert status == 200, status
    if partial:
        sock.sendall(head(port, "cqt_probe", len(CALL))[:40])
    began = time.monotonic()
    deadline = began + wait
    closed_after = None
    while (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([sock], [], [], left)
        if readable and closed_by_server(sock):
            closed_after = round(time.monotonic() - began, 3)
            break
        if readable:
            sock.recv(65536)  # an answer the test did not expect: read on
    say({"closed_after": closed_after})


def read_response(sock: socket.socket) -> int:
    """One whole answer off a kept-alive connection; its status."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(65536)
    response_head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in response_head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return int(response_head.split(b" ", 2)[1])


def request(port: int, bearer: str) -> None:
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        try:
            sock.sendall(head(port, bearer, len(CALL)) + CALL)
            while chunk := sock.recv(65536):
                received += chunk
        except OSError:  # reset: refused before reading
            pass
    say({"received": received.decode("latin-1")})


def main() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    holding = commands.add_parser("hold")
    holding.add_argument("port", type=int)
    holding.add_argument("count", type=int)
    quiet = commands.add_parser("silent")
    quiet.add_argument("port", type=int)
    quiet.add_argument("wait", type=float)
    quiet.add_argument("--partial", action="store_true")
    quiet.add_argument("--after-request")
    asking = commands.add_parser("request")
    asking.add_argument("port", type=int)
    asking.add_argument("bearer")
    args = parser.parse_args()
    if args.command == "hold":
        hold(args.port, args.count)
    elif args.command == "silent":
        silent(args.port, args.wait, args.partial, args.after_request)
    else:
        request(args.port, args.bearer)


if __name__ == "__main__":
    main()
