"""Opening a session with the agent: `session/new` under a proposed key (the identity from then on),
`session/load` (its replay comes back with the result, as one batch), `session/resume` (rebound without
a replay), and showing a session again (one whose prompt is live comes back at the same generation,
with no load). Opens are serialized: a queued one runs after a failed one. Each offers the terminal
access's MCP servers to an agent that takes them; a load of an OpenClaw session asks for what its
transcript adds (`openclaw/supplement.py`)."""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from app.contract.envelopes import LoadResult
from app.contract.errors import HostError, LoadFailed, SignInRequired
from app.main.agents.connection import AgentConnection
from app.main.mcp_servers.agent import AgentMcpServers
from app.main.openclaw.agents import new_session_key
from app.main.sessions.extras import OpeningServers, SessionExtras, Spawn
from app.main.sessions.io import SessionIO
from app.main.sessions.requests import normalize_cwd, open_params, require
from app.main.stores.project_grants import NO_GRANTS, Grants

T = TypeVar("T")

if TYPE_CHECKING:
    from app.main.openclaw.supplement import OpenClawSupplements


class SessionOpening:
    """The opens of one agent's sessions, one at a time."""

    def __init__(
        self,
        io: SessionIO,
        connection: AgentConnection,
        default_cwd: str,
        folders: list[str],
        extras: Callable[[], tuple[SessionExtras | None, AgentMcpServers | None]],
        transcripts: OpenClawSupplements | None,
        spawn: Spawn,
    ) -> None:
        self._io = io
        self._connection = connection
        self._default_cwd = default_cwd
        self._folders = folders  # the service's own list: Settings changes it in place
        self._extras = (
            extras  # set on the service after it was made: the terminal access, the user's MCP servers
        )
        self._transcripts = transcripts
        self._spawn = spawn
        self.lock = asyncio.Lock()
        self.grants: Callable[[str], Grants] = lambda _cwd: NO_GRANTS  # the project's trusted grants

    async def send_after(self, before: Awaitable[None], request: Awaitable[T]) -> asyncio.Future[T]:
        """`request` started once `before` is done, no chat opened in between (an open waits for the
        lock): a prompt still goes to the chat shown when it was asked for. Returns once the request's
        first step ran (the machine has seen it sent); await the future for its answer."""
        async with self.lock:
            try:
                await before
            except BaseException:
                if inspect.iscoroutine(request):
                    request.close()  # never started: closed, not left unawaited
                raise
            sending = asyncio.ensure_future(request)
            try:
                await asyncio.sleep(0)  # its first step runs
            except BaseException:
                sending.cancel()  # never left running with nobody to read its end
                raise
        return sending

    async def new(self, cwd: str | None, target: str) -> LoadResult:
        key = new_session_key(target)  # a target not of OpenClaw's form is refused before anything
        await self._connection.ensure_ready()
        return await self._open("session/new", key, cwd)

    async def load(self, session_key: str, cwd: str | None) -> LoadResult:
        await self._connection.ensure_ready()
        require(self._connection.info, "loadSession", what="loading sessions")
        return await self._open("session/load", session_key, cwd)

    async def resume(self, session_key: str, cwd: str | None) -> LoadResult:
        await self._connection.ensure_ready()
        require(self._connection.info, "sessionCapabilities", "resume", what="resuming sessions")
        return await self._open("session/resume", session_key, cwd)

    async def fork(self, session_key: str, cwd: str | None) -> LoadResult:
        """`session/fork`: a new session with the agent's own copy of `session_key`'s conversation."""
        await self._connection.ensure_ready()
        require(self._connection.info, "sessionCapabilities", "fork", what="forking sessions")
        return await self._open("session/fork", session_key, cwd)

    async def activate(self, session_key: str, cwd: str | None) -> LoadResult:
        async with self.lock:
            machine = self._io.machine
            shown = machine.show_live(session_key) if self._connection.is_ready else None
            if shown is not None:
                result, step = shown
                self._io.apply(step)
                return result
        return await self.load(session_key, cwd)

    async def _open(self, method: str, key: str, cwd: str | None) -> LoadResult:
        async with self.lock:
            await self._connection.ensure_ready()
            info = self._connection.info
            folder = normalize_cwd(cwd or self._default_cwd)
            granted = self.grants(folder)
            params = open_params(method, key, folder, [*self._folders, *granted.folders], info)
            open_id = f"open-{uuid.uuid4().hex[:12]}"
            participation, own = self._extras()
            servers = OpeningServers(participation, info, open_id, self._spawn, own)
            servers.offer(params, granted.servers)
            try:
                _, step = await self._io.request(method, dict(params))
            except SignInRequired:
                servers.failed()
                raise  # the sign-in panel says it (SignInEnvelope)
            except HostError as exc:
                servers.failed()
                self._io.diagnose("error", "load-failed", f"{method} failed: {exc}", key)
                raise LoadFailed(str(exc), details=exc.details) from exc
            servers.opened(step.committed.session_key if step.committed else None)
            if step.committed is None:
                raise LoadFailed(step.failure or f"The agent's answer to {method} opened no session.")
            if self._transcripts is not None and method == "session/load":
                self._transcripts.after_load(step.committed.session_key, step.committed.generation)
            return step.committed
