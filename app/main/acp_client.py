"""The ACP client object: every client method of the SDK, answered on purpose.

`session/update` normally never reaches here (the transport routes it in arrival order before the SDK);
the method still routes correctly if a transport without interception is used. fs/* and terminal/* are
served by the chat service (app/main/agent_files.py, app/main/client_terminals.py); what stays
unimplemented answers `method_not_found` (never `null`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any, Protocol

from app.main.agent_files import AgentFileError
from app.main.client_terminals import TerminalError

log = logging.getLogger(__name__)


def _not_found(method: str) -> Exception:
    """The SDK's method_not_found error (imported late: the SDK's pydantic schema takes ~0.5 s to
    import, and the window must be able to show its first frame before the agent starts)."""
    from acp import RequestError

    return RequestError.method_not_found(method)


FILE_ERROR_CODES = {"resource_not_found": -32002, "invalid_params": -32602, "internal": -32603}


def _file_error(exc: AgentFileError, path: str) -> Exception:
    """The JSON-RPC error for a refused file request. The reason is the error's message: agents show
    the message to their model ("Resource not found" alone sends it guessing); `data` repeats it."""
    from acp import RequestError

    data: dict[str, Any] = {"details": str(exc)}
    if exc.code == "resource_not_found":
        data["uri"] = path
    return RequestError(FILE_ERROR_CODES.get(exc.code, -32603), str(exc), data)


class SessionRequests(Protocol):
    """What the client needs from the chat service: session updates and permission questions."""

    def route_session_update(self, params: dict[str, Any]) -> None: ...

    async def handle_permission_request(
        self, acp_session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """Return the chosen option id, or None for cancelled."""
        ...


class TerminalRequests(Protocol):
    """terminal/* (app/main/terminal_host.py); every method raises TerminalError when refused."""

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


class FileRequests(Protocol):
    """fs/* (app/main/file_host.py); both raise AgentFileError when refused."""

    async def read(self, acp_session_id: str, path: str, line: int | None, limit: int | None) -> str: ...

    def write(self, acp_session_id: str, path: str, content: str) -> None: ...


@contextlib.contextmanager
def _terminal_errors() -> Iterator[None]:
    """A refused terminal request answers the agent with invalid_params, the reason as the message (what
    agents show their model) and again in `data`."""
    try:
        yield
    except TerminalError as exc:
        from acp import RequestError

        raise RequestError(-32602, str(exc), {"details": str(exc)}) from exc


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class ClawClient:
    """Implements `acp.interfaces.Client` in full (by duck typing: the SDK resolves handlers by name;
    not subclassing `acp.Client` also means nothing can silently answer `null`); unimplemented areas
    raise method_not_found."""

    def __init__(
        self, sessions: SessionRequests, *, terminals: TerminalRequests, files: FileRequests
    ) -> None:
        self._sessions = sessions
        self._terminals = terminals
        self._files = files

    def on_connect(self, conn: Any) -> None:
        """Part of the SDK's Client interface; requests go out through AgentConnection instead."""

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        params: dict[str, Any] = {"sessionId": session_id, "update": _dump(update)}
        if kwargs:
            params["_meta"] = kwargs
        self._sessions.route_session_update(params)

    async def request_permission(
        self, session_id: str, tool_call: Any, options: list[Any], **kwargs: Any
    ) -> Any:
        from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse

        chosen = await self._sessions.handle_permission_request(
            session_id, _dump(tool_call), [_dump(option) for option in options]
        )
        if chosen is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=chosen))

    # fs/*: confined to the session's workspace (app/main/agent_files.py)
    async def read_text_file(
        self, session_id: str, path: str, line: int | None = None, limit: int | None = None, **kwargs: Any
    ) -> Any:
        from acp.schema import ReadTextFileResponse

        try:
            text = await self._files.read(session_id, path, line, limit)
        except AgentFileError as exc:
            raise _file_error(exc, path) from exc
        return ReadTextFileResponse(content=text)

    async def write_text_file(self, session_id: str, path: str, content: str, **kwargs: Any) -> Any:
        from acp.schema import WriteTextFileResponse

        try:
            self._files.write(session_id, path, content)
        except AgentFileError as exc:
            raise _file_error(exc, path) from exc
        return WriteTextFileResponse()

    # terminal/*: real PTYs owned by the chat service (app/main/client_terminals.py)
    async def create_terminal(
        self,
        session_id: str,
        command: str,
        args: list[str] | None = None,
        env: list[Any] | None = None,
        cwd: str | None = None,
        output_byte_limit: int | None = None,
        **kwargs: Any,
    ) -> Any:
        from acp.schema import CreateTerminalResponse

        env_plain = [_dump(e) if hasattr(e, "model_dump") else e for e in env or []]
        with _terminal_errors():
            terminal_id = self._terminals.create(session_id, command, args, env_plain, cwd, output_byte_limit)
        return CreateTerminalResponse(terminal_id=terminal_id)

    async def terminal_output(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        from acp.schema import TerminalOutputResponse

        with _terminal_errors():
            result = self._terminals.output(session_id, terminal_id)
        return TerminalOutputResponse.model_validate(result)

    async def release_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        from acp.schema import ReleaseTerminalResponse

        with _terminal_errors():
            self._terminals.release(session_id, terminal_id)
        return ReleaseTerminalResponse()

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        from acp.schema import WaitForTerminalExitResponse

        with _terminal_errors():
            status = await self._terminals.wait_for_exit(session_id, terminal_id)
        return WaitForTerminalExitResponse.model_validate(status)

    async def kill_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        from acp.schema import KillTerminalResponse

        with _terminal_errors():
            self._terminals.kill(session_id, terminal_id)
        return KillTerminalResponse()

    async def create_elicitation(self, message: str, mode: Any, **kwargs: Any) -> Any:
        raise _not_found("elicitation/create")

    async def complete_elicitation(self, elicitation_id: str, **kwargs: Any) -> None:
        log.info("elicitation/complete for %s ignored (elicitation unsupported)", elicitation_id)

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise _not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        log.info("agent extension notification %s ignored", method)
