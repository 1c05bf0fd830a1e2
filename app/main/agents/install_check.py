"""A first handshake with an agent just installed: its program started as chats will start it, sent
ClawQt's `initialize`, and its answer read for what Settings shows beside it (the version it says, how
one signs in to it). An agent that answers nothing in CHECK_TIMEOUT_S, exits, or says something else is
still installed: some need their own setup first (OpenClaw its gateway), and the note says what it did."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from dataclasses import dataclass, replace

from app.main.agents.auth_methods import parse_auth_methods
from app.main.agents.handshake import initialize_params

CHECK_TIMEOUT_S = 30.0
MAX_LINE = 1024 * 1024  # of an answer line read
STDERR_CHARS = 300  # of what it said on stderr, in the note


@dataclass(frozen=True)
class Handshake:
    answered: bool
    version: str = ""  # agentInfo.version
    sign_in: tuple[str, ...] = ()  # its authMethods' names
    note: str = ""  # why it did not answer, in words


async def first_handshake(argv: tuple[str, ...], env: dict[str, str], cwd: str) -> Handshake:
    """`initialize` sent to a new process of `argv`; the process is ended either way."""
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": initialize_params(),
    }
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env={**os.environ, **env},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=MAX_LINE,
            start_new_session=True,
        )
    except OSError as exc:
        return Handshake(False, note=f"it did not start ({exc.strerror or exc})")
    try:
        found = await _ask(process, message)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        said = await process.stderr.read(64 * 1024) if process.stderr is not None else b""
        await process.wait()
    words = said.decode("utf-8", "replace").strip()[-STDERR_CHARS:]
    return found if found.answered or not words else replace(found, note=f"{found.note}; it said: {words}")


async def _ask(process: asyncio.subprocess.Process, message: dict[str, object]) -> Handshake:
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write((json.dumps(message) + "\n").encode())
        await process.stdin.drain()
        return await asyncio.wait_for(_answer(process.stdout), CHECK_TIMEOUT_S)
    except TimeoutError:
        return Handshake(False, note=f"it did not answer in {CHECK_TIMEOUT_S:.0f} s")
    except (ConnectionError, ValueError, asyncio.LimitOverrunError) as exc:
        return Handshake(False, note=f"its answer could not be read ({exc})")


async def _answer(stdout: asyncio.StreamReader) -> Handshake:
    while line := await stdout.readline():
        try:
            reply = json.loads(line)
        except ValueError:
            continue  # an agent's own log line on stdout
        if not isinstance(reply, dict) or reply.get("id") != 1:
            continue
        result = reply.get("result")
        if not isinstance(result, dict):
            error = reply.get("error")
            said = error.get("message") if isinstance(error, dict) else None
            return Handshake(False, note=f"it refused initialize ({said or 'no reason given'})")
        info = result.get("agentInfo")
        version = info.get("version") if isinstance(info, dict) else None
        methods = parse_auth_methods(result.get("authMethods"))
        return Handshake(True, version if isinstance(version, str) else "", tuple(m.name for m in methods))
    return Handshake(False, note="it exited without answering")
