"""ClawQt's terminal tools' server in a process of its own, under a descriptor limit of its own (a
desktop session's 1,024 by default), so a test can run it out of descriptors without touching the test
worker's. The tools are a stand-in that answers list_terminals; the server is the real one.

    python -m tests.mcp_server_process SECRET [--nofile N] [--keep-free K] [--head-timeout S]

--keep-free: before serving, open /dev/null until only K descriptors are left under the limit (the
rest of a busy ClawQt: terminals, files). Prints {"port": P} once serving; then answers one JSON line
per command on stdin, run on the owner loop (ClawQt's side), and stops at EOF:

    probe N   open a PTY and up to N files at once, close them again: {"pty": bool, "files": n}
    stats     {"refused": {rule: count}, "unauthenticated": n, "free": descriptors left}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
from typing import Any

from app.main.participation.loopback_peer import free_descriptors
from app.main.participation.mcp_server import TerminalMcpServer


class ListingTools:
    """Answers list_terminals for any context token; admits no bearer but the install secret."""

    def admits_bearer(self, token: str) -> bool:
        return False

    def context_token_for_bearer(self, token: str) -> str | None:
        return None

    async def list_terminals(self, context_token: str) -> dict[str, Any]:
        return {"sessions": [], "recentTerminalIds": []}


def probe(files: int) -> dict[str, Any]:
    opened: list[int] = []
    pty = False
    try:
        try:
            opened += os.openpty()
            pty = True
        except OSError:
            pass
        count = 0
        for _ in range(files):
            try:
                opened.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
            count += 1
    finally:
        for fd in opened:
            os.close(fd)
    return {"pty": pty, "files": count}


def say(answer: dict[str, Any]) -> None:
    print(json.dumps(answer), flush=True)


async def serve(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    timeouts = {} if args.head_timeout is None else {"head_timeout": args.head_timeout}
    server = TerminalMcpServer(ListingTools(), loop, args.secret, **timeouts)  # type: ignore[arg-type]
    server.start()
    kept: list[int] = []
    if args.keep_free is not None:
        while (free_descriptors() or 0) > args.keep_free:
            kept.append(os.open(os.devnull, os.O_RDONLY))
    say({"port": server.port})
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            command, *rest = line.split()
            if command == "probe":
                say(probe(int(rest[0])))
            elif command == "stats":
                admission = server.admission
                assert admission is not None
                refused, waiting = dict(admission.refused), admission.unauthenticated
                say({"refused": refused, "unauthenticated": waiting, "free": free_descriptors()})
    finally:
        server.stop()
        for fd in kept:
            os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("secret")
    parser.add_argument("--nofile", type=int)
    parser.add_argument("--keep-free", type=int)
    parser.add_argument("--head-timeout", type=float)
    args = parser.parse_args()
    if args.nofile is not None:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, hard))
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
