"""The ACP client object: every client method of the protocol, answered on purpose.

`requests()` and `notifications()` are the method tables `rpc_connection.RpcConnection` dispatches the
agent's messages to; each reads its params with `rpc_params` (a wrong field is invalid params) and
answers a plain camelCase dict. `session/update` normally never reaches here (the transport routes it
in arrival order before the connection); the method still routes correctly if a transport without
interception is used. fs/* and terminal/* are served by the chat service (app/main/files/agent_files.py,
app/main/terminals/client.py), elicitation/* by its question desk (app/main/sessions/question_desk.py);
what stays unimplemented (MCP over ACP, extension methods) answers `method_not_found` (never `null`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Protocol

from app.main.acp import rpc_params as p
from app.main.acp.json_rpc import RpcError
from app.main.acp.rpc_connection import Handler
from app.main.files.agent_files import AgentFileError
from app.main.terminals.client import TerminalError

log = logging.getLogger(__name__)

FILE_ERROR_CODES = {"resource_not_found": -32002, "invalid_params": -32602, "internal": -32603}


def _file_error(exc: AgentFileError, path: str) -> RpcError:
    """The JSON-RPC error for a refused file request. The reason is the error's message: agents show
    the message to their model ("Resource not found" alone sends it guessing); `data` repeats it."""
    data: dict[str, Any] = {"details": str(exc)}
    if exc.code == "resource_not_found":
        data["uri"] = path
    return RpcError(FILE_ERROR_CODES.get(exc.code, -32603), str(exc), data)


class SessionRequests(Protocol):
    """What the client needs from the chat service: session updates and permission questions."""

    def route_session_update(self, params: dict[str, Any]) -> None: ...

    async def handle_permission_request(
        self, acp_session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """Return the chosen option id, or None for cancelled."""
        ...


class TerminalRequests(Protocol):
    """terminal/* (app/main/sessions/terminal_host.py); every method raises TerminalError when refused."""

    def create(
        self,
        acp_session_id: str,
        command: str,
        args: list[str] | None,
        env: list[dict[str, Any]] | None,
        cwd: str | None,
        output_byte_limit: int | None,
    ) -> str: ...

    def output(self, acp_session_id: str, terminal_id: str) -> dict[str, Any]: ...

    async def wait_for_exit(self, acp_session_id: str, terminal_id: str) -> dict[str, Any]: ...

    def kill(self, acp_session_id: str, terminal_id: str) -> None: ...

    def release(self, acp_session_id: str, terminal_id: str) -> None: ...


class QuestionRequests(Protocol):
    """elicitation/* (app/main/sessions/question_desk.py): `ask` raises RpcError for a form it refuses."""

    async def ask(self, params: dict[str, Any]) -> dict[str, Any]: ...

    def complete(self, params: dict[str, Any]) -> None: ...


class FileRequests(Protocol):
    """fs/* (app/main/sessions/file_host.py); both raise AgentFileError when refused."""

    async def read(self, acp_session_id: str, path: str, line: int | None, limit: int | None) -> str: ...

    def write(self, acp_session_id: str, path: str, content: str) -> None: ...


@contextlib.contextmanager
def _terminal_errors() -> Iterator[None]:
    """A refused terminal request answers the agent with invalid_params, the reason as the message (what
    agents show their model) and again in `data`."""
    try:
        yield
    except TerminalError as exc:
        raise RpcError(-32602, str(exc), {"details": str(exc)}) from exc


def _present(values: dict[str, Any]) -> dict[str, Any]:
    """An answer without its null fields, also in the objects inside it (an exit status without the
    signal it did not have): what agents got from ClawQt since its first version."""
    return {
        key: _present(value) if isinstance(value, dict) else value
        for key, value in values.items()
        if value is not None
    }


class ClawClient:
    """The client half of ACP; its methods take Python arguments, `requests()` and `notifications()`
    adapt them to the agent's params."""

    def __init__(
        self,
        sessions: SessionRequests,
        *,
        terminals: TerminalRequests,
        files: FileRequests,
        questions: Callable[[], QuestionRequests],
    ) -> None:
        self._sessions = sessions
        self._terminals = terminals
        self._files = files
        self._questions = questions

    def requests(self) -> dict[str, Handler]:
        """The agent's requests ClawQt answers, by method."""
        return {
            "session/request_permission": self._on_permission,
            "fs/read_text_file": self._on_read,
            "fs/write_text_file": self._on_write,
            "terminal/create": self._on_create_terminal,
            "terminal/output": self._on_terminal(self.terminal_output),
            "terminal/release": self._on_terminal(self.release_terminal),
            "terminal/wait_for_exit": self._on_terminal(self.wait_for_terminal_exit),
            "terminal/kill": self._on_terminal(self.kill_terminal),
            "elicitation/create": self._on_question,
        }

    def notifications(self) -> dict[str, Handler]:
        """The agent's notifications ClawQt takes, by method (others are logged and ignored)."""
        return {"session/update": self._on_session_update, "elicitation/complete": self._on_question_done}

    # --- params -> methods -----------------------------------------------------------------------
    async def _on_session_update(self, params: dict[str, Any]) -> None:
        p.text(params, "sessionId")
        p.obj(params, "update")
        self._sessions.route_session_update(params)

    async def _on_permission(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self.request_permission(
            p.text(params, "sessionId"), p.obj(params, "toolCall"), p.objects(params, "options")
        )

    async def _on_question(self, params: dict[str, Any]) -> dict[str, Any]:
        p.text(params, "message")
        p.text(params, "mode")
        return await self._questions().ask(params)  # the rest is the form's: read (and refused) there

    async def _on_question_done(self, params: dict[str, Any]) -> None:
        self._questions().complete({"elicitationId": p.text(params, "elicitationId")})

    async def _on_read(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self.read_text_file(
            p.text(params, "sessionId"),
            p.text(params, "path"),
            p.optional_int(params, "line"),
            p.optional_int(params, "limit"),
        )

    async def _on_write(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self.write_text_file(
            p.text(params, "sessionId"), p.text(params, "path"), p.text(params, "content")
        )

    async def _on_create_terminal(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self.create_terminal(
            p.text(params, "sessionId"),
            p.text(params, "command"),
            p.optional_texts(params, "args"),
            p.objects(params, "env", optional=True),
            p.optional_text(params, "cwd"),
            p.optional_int(params, "outputByteLimit"),
        )

    def _on_terminal(self, method: Callable[[str, str], Awaitable[dict[str, Any]]]) -> Handler:
        async def handle(params: dict[str, Any]) -> dict[str, Any]:
            return await method(p.text(params, "sessionId"), p.text(params, "terminalId"))

        return handle

    # --- the methods ---------------------------------------------------------------------------
    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> dict[str, Any]:
        chosen = await self._sessions.handle_permission_request(session_id, tool_call, options)
        if chosen is None:
            return {"outcome": {"outcome": "cancelled"}}
        return {"outcome": {"outcome": "selected", "optionId": chosen}}

    # fs/*: confined to the session's workspace (app/main/files/agent_files.py)
    async def read_text_file(
        self, session_id: str, path: str, line: int | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        try:
            text = await self._files.read(session_id, path, line, limit)
        except AgentFileError as exc:
            raise _file_error(exc, path) from exc
        return {"content": text}

    async def write_text_file(self, session_id: str, path: str, content: str) -> dict[str, Any]:
        try:
            self._files.write(session_id, path, content)
        except AgentFileError as exc:
            raise _file_error(exc, path) from exc
        return {}

    # terminal/*: real PTYs owned by the chat service (app/main/terminals/client.py)
    async def create_terminal(
        self,
        session_id: str,
        command: str,
        args: list[str] | None = None,
        env: list[dict[str, Any]] | None = None,
        cwd: str | None = None,
        output_byte_limit: int | None = None,
    ) -> dict[str, Any]:
        with _terminal_errors():
            terminal_id = self._terminals.create(session_id, command, args, env or [], cwd, output_byte_limit)
        return {"terminalId": terminal_id}

    async def terminal_output(self, session_id: str, terminal_id: str) -> dict[str, Any]:
        with _terminal_errors():
            return _present(self._terminals.output(session_id, terminal_id))

    async def release_terminal(self, session_id: str, terminal_id: str) -> dict[str, Any]:
        with _terminal_errors():
            self._terminals.release(session_id, terminal_id)
        return {}

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str) -> dict[str, Any]:
        with _terminal_errors():
            return _present(await self._terminals.wait_for_exit(session_id, terminal_id))

    async def kill_terminal(self, session_id: str, terminal_id: str) -> dict[str, Any]:
        with _terminal_errors():
            self._terminals.kill(session_id, terminal_id)
        return {}
