"""Traces written for tests and benchmarks: many sessions, or one chat whose reply is one very long
line (the `--record` format: `{"t", "dir", "msg"}` per line)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

PARAGRAPH = "The agent wrote a very long reply, word after word. " * 1200 + "\n\n"


def writer(handle: IO[str]) -> Callable[[str, dict[str, Any]], None]:
    clock = iter(range(10**9))

    def write(direction: str, message: dict) -> None:
        entry = {"t": next(clock) / 1000, "dir": direction, "msg": message}
        handle.write(json.dumps(entry, separators=(",", ":")) + "\n")

    return write


def turn(write: Callable[[str, dict[str, Any]], None], number: int, session: str, text: str) -> None:
    """session/new answered with `session`, one prompt, one reply chunk, the prompt's answer."""
    new, prompt = 2 * number + 1, 2 * number + 2
    write("send", {"jsonrpc": "2.0", "id": new, "method": "session/new", "params": {"cwd": "/tmp"}})
    write("recv", {"jsonrpc": "2.0", "id": new, "result": {"sessionId": session}})
    params = {"sessionId": session, "prompt": [{"type": "text", "text": f"hello {number}"}]}
    write("send", {"jsonrpc": "2.0", "id": prompt, "method": "session/prompt", "params": params})
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    write(
        "recv",
        {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": session, "update": update}},
    )
    write("recv", {"jsonrpc": "2.0", "id": prompt, "result": {"stopReason": "end_turn"}})


def many_sessions(path: Path, count: int) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        write = writer(handle)
        for number in range(count):
            turn(write, number, f"s{number:06d}", f"reply {number}")
    return path


def one_long_line(path: Path, megabytes: float) -> Path:
    """One chat whose reply is one line of the trace of about `megabytes` MB."""
    with path.open("w", encoding="utf-8") as handle:
        turn(writer(handle), 0, "s-long", PARAGRAPH * round(megabytes * 2**20 / len(PARAGRAPH)))
    return path
