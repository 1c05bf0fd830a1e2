"""One prompt turn. Scripted turns talk to the client only through this object, so cancellation,
pacing, history recording and the permission race live in one place."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from acp import RequestError
from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    AllowedOutcome,
    ContentToolCallContent,
    CurrentModeUpdate,
    DeniedOutcome,
    FileEditToolCallContent,
    PermissionOption,
    SessionInfoUpdate,
    TerminalToolCallContent,
    TextContentBlock,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UsageUpdate,
    UserMessageChunk,
)
from pydantic import ValidationError

if TYPE_CHECKING:
    from acp.interfaces import Client

    from app.demo_agent.proposal_templates import ProposalTemplate
    from app.demo_agent.session import DemoSession

log = logging.getLogger(__name__)

StopReason = Literal["end_turn", "cancelled"]
SessionUpdate = (
    AgentMessageChunk
    | AgentThoughtChunk
    | AgentPlanUpdate
    | ToolCallStart
    | ToolCallProgress
    | SessionInfoUpdate
    | UsageUpdate
    | UserMessageChunk
    | CurrentModeUpdate
)
# a tool call's `content`
ToolContent = list[ContentToolCallContent | FileEditToolCallContent | TerminalToolCallContent]
T = TypeVar("T")
_MESSAGE_NAMESPACE = uuid.UUID("6f1c2b55-8a53-4d0e-9a67-3b0f4c1e2d90")
CHUNK_CHARS = 24


class TurnCancelled(Exception):
    """Raised inside a scripted turn once it must stop; the prompt then answers "cancelled"."""


def split_chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """Cut text into ~`size`-character pieces at spaces/newlines, like a model's token stream."""
    chunks: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
            if cut > start:
                end = cut + 1
        chunks.append(text[start:end])
        start = end
    return chunks


class Turn:
    """A running prompt: `send` refuses once cancelled, `pause` wakes up at once on cancel."""

    def __init__(
        self,
        conn: Client,
        session: DemoSession,
        *,
        number: int,
        text: str,
        delay: float,
        terminal_output: bool,
        context_token: str | None = None,
        proposal: ProposalTemplate | None = None,
    ) -> None:
        self._conn = conn
        self.session = session
        self.number = number
        self.text = text  # what the user wrote: the prompt's text without ClawQt's hidden context
        self.delay = delay
        self.terminal_output = terminal_output
        # the terminal capability in this prompt's hidden context (this turn may act with it only)
        self.context_token = context_token
        # where this prompt's hidden context says to propose terminal actions (None: the client takes none)
        self.proposal = proposal
        self._cancelled = asyncio.Event()
        self._open_tools: dict[str, None] = {}  # insertion-ordered set

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        self._cancelled.set()

    def check(self) -> None:
        if self._cancelled.is_set():
            raise TurnCancelled

    def message_id(self, part: str) -> str:
        """Deterministic per (session, turn, part), UUID-shaped as ACP's messageId expects."""
        return str(uuid.uuid5(_MESSAGE_NAMESPACE, f"{self.session.session_id}/{self.number}/{part}"))

    def tool_id(self, name: str) -> str:
        return f"demo-{self.number}-{name}"

    async def send(self, update: SessionUpdate, *, force: bool = False) -> None:
        """Send one session/update and record it for replay; `force` is for clean-up after a cancel."""
        if not force:
            self.check()
        await self._conn.session_update(session_id=self.session.session_id, update=update)
        self.session.record(update)
        if isinstance(update, ToolCallStart | ToolCallProgress):
            if update.status in ("completed", "failed"):
                self._open_tools.pop(update.tool_call_id, None)
            else:
                self._open_tools[update.tool_call_id] = None

    async def pause(self, seconds: float | None = None) -> None:
        """Wait between chunks (default: the configured delay), returning early by raising on cancel."""
        self.check()
        seconds = self.delay if seconds is None else seconds
        if seconds <= 0:
            await asyncio.sleep(0)  # still let a session/cancel in
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._cancelled.wait(), seconds)
        self.check()

    async def race(self, work: Awaitable[T]) -> T:
        """Await `work` (e.g. a tool call to a server), abandoning it at once on cancel (TurnCancelled)."""
        self.check()
        task = asyncio.ensure_future(work)
        cancelled = asyncio.ensure_future(self._cancelled.wait())
        try:
            await asyncio.wait({task, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
            finished = task.done()
            if not finished:
                task.cancel()
                task.add_done_callback(_retrieve)
        if not finished or task.cancelled():
            raise TurnCancelled
        return task.result()

    async def stream(self, text: str, *, part: str, thought: bool = False) -> None:
        """Stream text as agent message (or thought) chunks sharing one messageId."""
        message_id = self.message_id(part)
        for piece in split_chunks(text):
            block = TextContentBlock(type="text", text=piece)
            if thought:
                await self.send(
                    AgentThoughtChunk(
                        session_update="agent_thought_chunk", content=block, message_id=message_id
                    )
                )
            else:
                await self.send(
                    AgentMessageChunk(
                        session_update="agent_message_chunk", content=block, message_id=message_id
                    )
                )
            await self.pause()

    async def ask_permission(
        self, tool_call: ToolCallUpdate, options: list[PermissionOption]
    ) -> AllowedOutcome | DeniedOutcome | None:
        """Ask the client; a session/cancel wins the race (TurnCancelled). None: the client failed to
        answer properly (callers treat it as a rejection)."""
        self.check()
        request = asyncio.ensure_future(
            self._conn.request_permission(
                session_id=self.session.session_id, tool_call=tool_call, options=options
            )
        )
        cancelled = asyncio.ensure_future(self._cancelled.wait())
        try:
            await asyncio.wait({request, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cancelled.cancel()
            if not request.done():
                request.cancel()
        if not request.done() or request.cancelled():
            raise TurnCancelled
        try:
            return request.result().outcome
        except (RequestError, ValidationError) as exc:
            log.warning("demo-agent: permission request failed, treating it as rejected: %s", exc)
            return None

    async def fail_open_tools(self) -> None:
        """After a cancel: mark tool calls still running as failed so no card spins forever."""
        for tool_call_id in list(self._open_tools):
            with contextlib.suppress(Exception):
                await self.send(
                    ToolCallProgress(
                        session_update="tool_call_update",
                        tool_call_id=tool_call_id,
                        status="failed",
                        content=[
                            ContentToolCallContent(
                                type="content", content=TextContentBlock(type="text", text="Cancelled.")
                            )
                        ],
                    ),
                    force=True,
                )
        self._open_tools.clear()


def _retrieve(task: asyncio.Future[Any]) -> None:
    """An abandoned task's outcome, read so that nothing is left unretrieved."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("demo-agent: abandoned work ended with %r", task.exception())
