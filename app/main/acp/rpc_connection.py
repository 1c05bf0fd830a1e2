"""JSON-RPC 2.0 with the agent over its transport (`stdio_transport.py`): ClawQt's requests and their
answers, and the agent's requests and notifications dispatched to a table of handlers.

Why not the SDK's connection and router: they validate every message of the agent against the SDK's
pydantic schema, whose import alone costs about half a second and 24 MB before an agent can start, and
ClawQt already reads everything as plain dicts (fields newer than the SDK's schema survive). The
rules are the SDK's: each request and notification of the agent is handled in its own task (a
permission question waits for the user while terminal output is still served); a handler's `RpcError`
is answered as is, a bad parameter as invalid params (-32602), an unknown method as method not found
(-32601, also for extension methods), anything else as an internal error (-32603) with its message;
when the agent's output ends, every request still waiting fails with ConnectionError.
`$/cancel_request` works both ways: the agent's cancels the handler still answering that request,
which is answered -32800 (request cancelled); a request of ClawQt's given up before its answer (a
deadline passed, the caller went away) is cancelled on the agent's side with one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from app.main.acp.json_rpc import RpcError

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
CANCEL_REQUEST = "$/cancel_request"
REQUEST_CANCELLED = -32800
# messages taken one after another before the loop gets a turn: a burst read at once would otherwise
# have all its handlers run in one stretch, with no input, timer or frame between them
MESSAGES_PER_TURN = 32


class Transport(Protocol):
    async def send(self, message: dict[str, Any]) -> None: ...

    async def receive(self) -> dict[str, Any] | None: ...

    async def close(self) -> None: ...


class RpcConnection:
    """One agent's JSON-RPC peer: `requests` answer the agent's requests, `notifications` take its
    notifications (both keyed by method)."""

    def __init__(
        self,
        transport: Transport,
        *,
        requests: Mapping[str, Handler],
        notifications: Mapping[str, Handler],
    ) -> None:
        self._transport = transport
        self._requests = requests
        self._notifications = notifications
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._serving: dict[int | str, asyncio.Task[None]] = {}  # the agent's requests being answered
        self._withdrawn: set[int | str] = set()  # of those, the ones the agent cancelled
        self._closed = False
        self._disconnected = False
        self._receiver = self._track(self._receive_loop(), "agent-rpc-receive")

    # --- ClawQt's side ---------------------------------------------------------------------------
    async def send_request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """The agent's `result`; RpcError for its `error`; ConnectionError when it is gone."""
        self._raise_if_unavailable()
        request_id = self._next_id
        self._next_id += 1
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = answer
        try:
            await self._transport.send(
                {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
            )
            return await answer
        finally:
            self._pending.pop(request_id, None)
            if not answer.done():
                answer.cancel()
            if answer.cancelled() and not (self._closed or self._disconnected):
                self._track(self._withdraw(request_id), "cancel-request")  # given up: the agent may stop

    async def _withdraw(self, request_id: int) -> None:
        with contextlib.suppress(ConnectionError):
            await self.send_notification(CANCEL_REQUEST, {"requestId": request_id})

    async def send_notification(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._raise_if_unavailable()
        await self._transport.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def close(self) -> None:
        """Stop reading, fail what waits for an answer, cancel the handlers still running."""
        if self._closed:
            return
        self._closed = True
        self._fail_pending()
        try:
            await self._transport.close()
        finally:
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # --- the agent's side ------------------------------------------------------------------------
    async def _receive_loop(self) -> None:
        taken = 0
        try:
            while (message := await self._transport.receive()) is not None:
                taken += 1
                if taken >= MESSAGES_PER_TURN:  # the handlers made so far run, then the rest is taken
                    taken = 0
                    await asyncio.sleep(0)
                method = message.get("method")
                if method is not None:
                    if "id" in message:
                        task = self._track(self._answer(message), "agent-request")
                        if isinstance(message["id"], int | str):
                            self._serving[message["id"]] = task
                    elif method == CANCEL_REQUEST:
                        self._cancelled(message)
                    else:
                        self._track(self._take_notification(message), "agent-notification")
                elif "id" in message:
                    self._take_answer(message)
        finally:
            self._disconnected = True
            self._fail_pending()

    def _cancelled(self, message: dict[str, Any]) -> None:
        """The agent withdrew one of its requests: the handler answering it stops."""
        params = message.get("params")
        request_id = params.get("requestId") if isinstance(params, dict) else None
        task = self._serving.get(request_id) if isinstance(request_id, int | str) else None
        if task is not None and not task.done() and isinstance(request_id, int | str):
            self._withdrawn.add(request_id)
            task.cancel()

    def _take_answer(self, message: dict[str, Any]) -> None:
        answer = self._pending.pop(message["id"], None) if isinstance(message["id"], int) else None
        if answer is None or answer.done():
            return  # an answer nobody waits for (abandoned, or never asked)
        error = message.get("error")
        if "result" not in message and error is not None:
            error = error if isinstance(error, dict) else {}
            code = error.get("code")
            code = code if isinstance(code, int) and not isinstance(code, bool) else -32603
            answer.set_exception(RpcError(code, str(error.get("message", "Error")), error.get("data")))
        else:
            answer.set_result(message.get("result"))

    async def _answer(self, message: dict[str, Any]) -> None:
        method = message["method"]
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        try:
            handler = self._requests.get(method)
            if handler is None:
                raise RpcError.method_not_found(method)
            reply["result"] = await handler(_params(message))
        except asyncio.CancelledError:
            if message["id"] not in self._withdrawn:
                raise  # the connection is closing
            reply["error"] = RpcError(REQUEST_CANCELLED, "Request cancelled").to_error()
        except RpcError as exc:
            reply["error"] = exc.to_error()
        except Exception as exc:
            log.exception("answering the agent's %s failed", method)
            reply["error"] = RpcError(-32603, "Internal error", {"details": str(exc)}).to_error()
        finally:
            if isinstance(message["id"], int | str):
                self._serving.pop(message["id"], None)
                self._withdrawn.discard(message["id"])
        try:
            await self._transport.send(reply)
        except ConnectionError as exc:  # the agent went away while it waited: nobody reads the answer
            log.debug("answer to the agent's %s not sent: %s", method, exc)

    async def _take_notification(self, message: dict[str, Any]) -> None:
        method = message["method"]
        handler = self._notifications.get(method)
        if handler is None:
            log.info("agent notification %s ignored (not one ClawQt takes)", method)
            return
        try:
            await handler(_params(message))
        except Exception:
            log.exception("the agent's %s notification failed", method)

    # --- bookkeeping -----------------------------------------------------------------------------
    def _track(self, work: Awaitable[None], name: str) -> asyncio.Task[None]:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("%s ended with an error", task.get_name(), exc_info=exc)  # e.g. a write to a dead pipe

    def _fail_pending(self) -> None:
        pending, self._pending = list(self._pending.values()), {}
        for answer in pending:
            if not answer.done():
                answer.set_exception(ConnectionError("the agent's connection is closed"))

    def _raise_if_unavailable(self) -> None:
        if self._closed or self._disconnected:
            raise ConnectionError("the agent's connection is closed")


def _params(message: dict[str, Any]) -> dict[str, Any]:
    """The message's params: an object (a missing one counts as empty), else invalid params."""
    params = message.get("params")
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise RpcError.invalid_params("params must be an object")
    return params
