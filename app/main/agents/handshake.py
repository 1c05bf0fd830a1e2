"""The `initialize` handshake with a new agent child: what ClawQt says it is and can do (the protocol
version, its capabilities, its name), the wait for the answer (the child may exit or stay silent
instead), and the answer read as the AgentInfo the rest of ClawQt asks."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import inspect
import sys
from typing import Any

from app import __version__
from app.contract.acp_fields import dict_field
from app.contract.envelopes import AgentInfo
from app.main.acp.json_rpc import RpcError
from app.main.acp.rpc_connection import RpcConnection

# client terminals need a PTY library: ptyprocess on POSIX, pywinpty on Windows
PTY_AVAILABLE = sys.platform != "win32" or importlib.util.find_spec("winpty") is not None

PROTOCOL_VERSION = 1  # acp.PROTOCOL_VERSION of the pinned SDK (a test keeps them equal)
EXIT_CODE_WAIT_S = 2.0  # a child whose connection closed during initialize is exiting: its code

CLIENT_CAPABILITIES: dict[str, Any] = {
    "fs": {"readTextFile": True, "writeTextFile": True},
    "terminal": PTY_AVAILABLE,
    # sign-in by running the agent's own login command where the user can type (AuthMethodTerminal)
    "auth": {"terminal": PTY_AVAILABLE},
    # boolean config options are shown as switches and set with `type: "boolean"` (requests.py)
    "session": {"configOptions": {"boolean": {}}},
    # the agent's questions: a form drawn as a card, a link opened on the user's click (question_desk.py)
    "elicitation": {"form": {}, "url": {}},
    "_meta": {"terminal_output": True, "terminal_output_delta": True},
}


class InitializeFailed(Exception):
    """What went wrong, as the end of a sentence naming the agent ("exited with code 1 during
    initialize"), with the child's exit code when it exited."""

    def __init__(self, what: str, exit_code: int | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.exit_code = exit_code


def seen(future: asyncio.Future[Any]) -> None:
    """Mark a future's outcome as retrieved (its error, if any, is handled where it was awaited)."""
    if not future.cancelled():
        future.exception()


def initialize_params() -> dict[str, Any]:
    """What ClawQt says in `initialize`, as it sends it (a chat's agent, the doctor, an install's check)."""
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "clientCapabilities": CLIENT_CAPABILITIES,
        "clientInfo": {"name": "clawqt", "title": "ClawQt", "version": __version__},
    }


async def initialize(rpc: RpcConnection, exited: asyncio.Task[int], timeout: float) -> dict[str, Any]:
    """The agent's answer to `initialize`; InitializeFailed when it refused, exited or stayed silent
    for `timeout` seconds."""
    sending = rpc.send_request("initialize", initialize_params())
    init = asyncio.ensure_future(sending)
    init.add_done_callback(seen)  # abandoned (quit, timeout, exit), it still ends with an error
    try:
        done, _ = await asyncio.wait({init, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        init.cancel()
        if inspect.getcoroutinestate(sending) == inspect.CORO_CREATED:
            sending.close()  # cancelled before its first step: closed now, not left unawaited at exit
        raise
    if init in done and init.exception() is None:
        result = init.result()
        if not isinstance(result, dict):
            raise InitializeFailed("answered initialize with something that is not an object")
        return result
    if init in done:
        exc = init.exception()
        if isinstance(exc, RpcError):
            raise InitializeFailed(f"refused initialize: {exc}")
        # a closed connection means the child is exiting: wait briefly for its code
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(exited), EXIT_CODE_WAIT_S)
    init.cancel()
    if exited.done():
        code = exited.result()
        raise InitializeFailed(f"exited with code {code} during initialize", exit_code=code)
    raise InitializeFailed(f"did not answer initialize within {timeout:.0f} s")


def agent_info(result: dict[str, Any], fallback_name: str) -> AgentInfo:
    """The answer to `initialize` as ClawQt reads it (fields of the wrong type are left out)."""
    info = dict_field(result, "agentInfo")
    caps = result.get("agentCapabilities")
    auth = result.get("authMethods")
    version = result.get("protocolVersion")
    return AgentInfo(
        name=str(info.get("name") or fallback_name),
        title=title_value if isinstance(title_value := info.get("title"), str) else None,
        version=version_value if isinstance(version_value := info.get("version"), str) else None,
        protocol_version=version if isinstance(version, int) else 0,
        capabilities=caps if isinstance(caps, dict) else {},
        auth_methods=tuple(a for a in auth if isinstance(a, dict)) if isinstance(auth, list) else (),
    )
